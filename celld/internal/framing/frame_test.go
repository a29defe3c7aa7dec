package framing

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"workcell.dev/celld/internal/wire"
)

func TestReadFrameLimits(t *testing.T) {
	frame := func(n uint32, body string) io.Reader {
		var b bytes.Buffer
		binary.Write(&b, binary.BigEndian, n)
		b.WriteString(body)
		return &b
	}
	if body, err := ReadFrame(frame(2, "{}")); err != nil || string(body) != "{}" {
		t.Fatalf("%q %v", body, err)
	}
	if _, err := ReadFrame(frame(MaxFrame+1, "")); err != ErrFrameTooLarge {
		t.Fatalf("oversize: %v", err)
	}
	if _, err := ReadFrame(frame(0, "")); err == nil {
		t.Fatal("empty frame accepted")
	}
	if _, err := ReadFrame(frame(10, "{}")); err == nil || err == io.EOF {
		t.Fatalf("truncated body: %v", err)
	}
	if _, err := ReadFrame(bytes.NewReader(nil)); err != io.EOF {
		t.Fatalf("clean EOF: %v", err)
	}
	if _, err := ReadFrame(bytes.NewReader([]byte{0, 0})); err == nil || err == io.EOF {
		t.Fatalf("truncated header: %v", err)
	}
}

// A large text travels raw after the JSON: no escaping of quotes and newlines, one copy to decode.
func TestLargeBulkResultTravelsRaw(t *testing.T) {
	text := []byte(strings.Repeat("a \"quoted\" line\n", 4096))
	frame, err := resultFrame(7, wire.Bulk{Result: map[string]any{"size": len(text)}, Field: "content", Data: text})
	if err != nil {
		t.Fatal(err)
	}
	body, err := ReadFrame(bytes.NewReader(frame))
	if err != nil || body[0] != 0 || len(body) > len(text)+128 {
		t.Fatalf("want a bulk frame about the text's size, got %d bytes for %d (err %v)", len(body), len(text), err)
	}
	plain, err := DecodeBulk(body)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		ID     int64
		OK     bool
		Result struct {
			Content string
			Size    int
		}
	}
	if err := json.Unmarshal(plain, &r); err != nil || r.ID != 7 || !r.OK || r.Result.Content != string(text) || r.Result.Size != len(text) {
		t.Fatalf("decoded reply differs: %v %+v", err, r)
	}
	if _, err := DecodeBulk(body[:len(body)-len(text)-3]); err == nil {
		t.Fatal("a bulk frame cut inside its JSON must not decode")
	}
}

// Below wire.BulkFrom the reply stays plain JSON, readable as it is.
func TestSmallBulkResultStaysJSON(t *testing.T) {
	frame, err := resultFrame(1, wire.Bulk{Result: map[string]any{}, Field: "content", Data: []byte("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(frame[4:]); got != `{"id":1,"ok":true,"result":{"content":"hi"}}` {
		t.Fatalf("got %s", got)
	}
}
