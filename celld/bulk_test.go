package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/framing"
	"workcell.dev/celld/internal/wire"
)

// sendBulk issues a bulk request frame: req's JSON (with "bulk" naming the raw field), then data raw.
func (c *client) sendBulk(req map[string]any, data []byte) (int64, chan msg) {
	id, ch := c.route()
	req["id"] = id
	frame, err := framing.EncodeBulk(req, data)
	if err != nil {
		c.t.Fatalf("encoding a bulk request: %v", err)
	}
	c.wmu.Lock()
	c.w.Write(frame)
	c.wmu.Unlock()
	return id, ch
}

func (c *client) callBulk(req map[string]any, data []byte) msg {
	c.t.Helper()
	_, ch := c.sendBulk(req, data)
	_, final := c.wait(ch, 30*time.Second)
	return final
}

// The frame body sandbox-service writes for a text write (CelldRequestWireTest pins the same
// bytes): byte 0, the JSON's length (4 bytes, big-endian), the JSON naming "content" in "bulk",
// then the content's UTF-8 bytes as they are (a control character, a quote, a backslash unescaped).
const pinnedBulkWrite = "\x00\x00\x00\x00\x4a" + `{"path":"a.txt","createParents":true,"id":1,"op":"write","bulk":"content"}` +
	"h\xc3\xa9\x01\"\\\n"

func TestABulkRequestFrameAsSandboxServiceWritesItWritesTheBytes(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mu.Lock()
	h.nextID = 1 // the pinned frame is request 1
	ch := make(chan msg, 1)
	h.routes[1] = ch
	h.mu.Unlock()
	h.sendRaw([]byte(pinnedBulkWrite))
	_, final := h.wait(ch, 10*time.Second)
	w := decode[writeResult](t, final)
	got, err := os.ReadFile(h.path("a.txt"))
	if err != nil || string(got) != "h\u00e9\x01\"\\\n" || w.Size != int64(len(got)) || w.Version == "" {
		t.Fatalf("wrote %q (%v), reply %+v", got, err, w)
	}
	if p := decode[map[string]any](t, h.call(map[string]any{"op": "ping"})); p["bulkRequests"] != true {
		t.Fatalf("ping does not announce bulk requests: %v", p)
	}
}

// 2,000,000 control characters fit a bulk frame (as JSON they would be 12 MB, over the frame cap),
// arrive byte for byte, and every check of a write still applies.
func TestBulkWritesKeepEveryCheckOfAWrite(t *testing.T) {
	bothModes(t, func(t *testing.T, o harnessOpts) {
		h := newHarness(t, o)
		big := bytes.Repeat([]byte{0x01}, fileops.MaxFileBytes)
		w := decode[writeResult](t, h.callBulk(map[string]any{"op": "write", "path": "deep/er/big.txt", "createParents": true,
			"mode": 0o600, "bulk": "content"}, big))
		if got, _ := os.ReadFile(h.path("deep/er/big.txt")); !bytes.Equal(got, big) || w.Size != int64(len(big)) {
			t.Fatalf("wrote %d bytes, reply %+v", len(got), w)
		}
		if st, _ := os.Stat(h.path("deep/er/big.txt")); st.Mode().Perm() != 0o600 {
			t.Fatalf("mode %v", st.Mode())
		}
		// Compare-and-swap: the version read matches once, a stale one is a conflict.
		w2 := decode[writeResult](t, h.callBulk(map[string]any{"op": "write", "path": "deep/er/big.txt",
			"expectedVersion": w.Version, "bulk": "content"}, []byte("second")))
		m := h.callBulk(map[string]any{"op": "write", "path": "deep/er/big.txt", "expectedVersion": w.Version, "bulk": "content"}, []byte("third"))
		expectCode(t, m, wire.CodeConflict)
		if m.Error.Details["currentVersion"] != w2.Version {
			t.Fatalf("conflict details %+v", m.Error.Details)
		}
		if got, _ := os.ReadFile(h.path("deep/er/big.txt")); string(got) != "second" {
			t.Fatalf("after the conflict: %q", got)
		}
		// Text stays text: invalid UTF-8 is refused and nothing is written.
		m = h.callBulk(map[string]any{"op": "write", "path": "bad.txt", "bulk": "content"}, []byte("ok \xff\xfe"))
		expectCode(t, m, wire.CodeNotUTF8)
		if !strings.Contains(m.Error.Message, "not valid UTF-8") {
			t.Fatalf("message %q", m.Error.Message)
		}
		if _, err := os.Stat(h.path("bad.txt")); !os.IsNotExist(err) {
			t.Fatalf("a refused write left a file: %v", err)
		}
		expectCode(t, h.callBulk(map[string]any{"op": "write", "path": "big2.txt", "bulk": "content"},
			bytes.Repeat([]byte("x"), fileops.MaxFileBytes+1)), wire.CodeFileTooLarge)
		expectCode(t, h.callBulk(map[string]any{"op": "write_bytes", "path": "big2.bin", "bulk": "data"},
			make([]byte, fileops.MaxFileBytes+1)), wire.CodeFileTooLarge)
		expectCode(t, h.callBulk(map[string]any{"op": "write", "path": "../out.txt", "bulk": "content"}, []byte("x")), wire.CodeInvalidPath)
		if err := os.Symlink("/etc/passwd", h.path("link.txt")); err != nil {
			t.Fatal(err)
		}
		expectCode(t, h.callBulk(map[string]any{"op": "write", "path": "link.txt", "bulk": "content"}, []byte("x")), wire.CodePathEscape)
		expectCode(t, h.callBulk(map[string]any{"op": "write", "path": "missing/a.txt", "bulk": "content"}, []byte("x")), wire.CodeNotFound)
		// Bytes need not be text; an empty content is an empty file.
		bin := []byte{0xff, 0, 0xfe, '\n', 0x80}
		decode[writeResult](t, h.callBulk(map[string]any{"op": "write_bytes", "path": "b.bin", "bulk": "data"}, bin))
		if got, _ := os.ReadFile(h.path("b.bin")); !bytes.Equal(got, bin) {
			t.Fatalf("bytes %x", got)
		}
		if w := decode[writeResult](t, h.callBulk(map[string]any{"op": "write", "path": "empty.txt", "bulk": "content"}, nil)); w.Size != 0 {
			t.Fatalf("empty write %+v", w)
		}
	})
}

func TestBulkWritePartsReplaceTheTargetAtTheLastPart(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "r/big.bin", "old")
	first, second := bytes.Repeat([]byte{0xfe}, 1_500_000), bytes.Repeat([]byte{0x00}, 1_000_000)
	part := func(offset int, last bool) map[string]any {
		return map[string]any{"op": "write_part", "path": "r/big.bin", "upload": testUpload, "offset": offset,
			"last": last, "bulk": "data"}
	}
	if w := decode[writeResult](t, h.callBulk(part(0, false), first)); w.Size != int64(len(first)) {
		t.Fatalf("first part %+v", w)
	}
	if got, _ := os.ReadFile(h.path("r/big.bin")); string(got) != "old" {
		t.Fatal("the target changed before the last part")
	}
	w := decode[writeResult](t, h.callBulk(part(len(first), true), second))
	got, _ := os.ReadFile(h.path("r/big.bin"))
	if !bytes.Equal(got, append(first, second...)) || w.Version == "" {
		t.Fatalf("target %d bytes, reply %+v", len(got), w)
	}
	expectCode(t, h.callBulk(part(5, true), []byte("x")), wire.CodeNotFound) // the part file is gone
}

// A bulk frame that names no raw field of its op, or a field also given in the JSON, is refused for
// that request only; the stream goes on.
func TestMisnamedBulkRequestsAreRefusedAndTheStreamContinues(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	for name, req := range map[string]map[string]any{
		"read":           {"op": "read", "path": "a.txt", "bulk": "content"},
		"cancel":         {"op": "cancel", "target": 5, "bulk": "data"},
		"unknown op":     {"op": "nope", "bulk": "content"},
		"wrong field":    {"op": "write", "path": "a.txt", "bulk": "data"},
		"no field":       {"op": "write_bytes", "path": "a.txt"},
		"field not text": {"op": "write", "path": "a.txt", "bulk": 1},
		"field twice":    {"op": "write", "path": "a.txt", "content": "json", "bulk": "content"},
		"data twice":     {"op": "write_part", "path": "a.txt", "upload": testUpload, "data": "eA==", "bulk": "data"},
	} {
		if m := h.callBulk(req, []byte("raw")); m.code() != wire.CodeInvalidArgument {
			t.Fatalf("%s: %+v", name, m)
		}
	}
	// A plain frame naming a bulk field has no bytes to give it.
	expectCode(t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": "x", "bulk": "content"}), wire.CodeInvalidArgument)
	if _, err := os.Stat(h.path("a.txt")); !os.IsNotExist(err) {
		t.Fatalf("a refused request wrote: %v", err)
	}
	decode[map[string]any](t, h.call(map[string]any{"op": "ping"}))
}
