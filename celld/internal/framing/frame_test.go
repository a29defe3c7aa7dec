package framing

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
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
