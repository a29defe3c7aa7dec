package main

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/wire"
)

type writeResult struct {
	Version string `json:"version"`
	Size    int64  `json:"size"`
}

type readResult struct {
	Content string `json:"content"`
	Size    int64  `json:"size"`
	Version string `json:"version"`
}

func TestWriteThenReadRoundTripsAndLeavesNoTempFiles(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	w := decode[writeResult](t, h.call(map[string]any{"op": "write", "path": "src/deep/a.txt", "content": "héllo <b>&</b>\n", "createParents": true, "mode": 0o600}))
	r := decode[readResult](t, h.call(map[string]any{"op": "read", "path": "src/deep/a.txt"}))
	if r.Content != "héllo <b>&</b>\n" || r.Version != w.Version || r.Size != w.Size {
		t.Fatalf("read %+v after write %+v", r, w)
	}
	st := decode[fileops.Entry](t, h.call(map[string]any{"op": "stat", "path": "src/deep/a.txt"}))
	if st.Mode != 0o600 || st.Version != w.Version || st.Type != "file" || st.Name != "a.txt" {
		t.Fatalf("stat %+v", st)
	}
	// Rewriting keeps the existing mode when none is given.
	decode[writeResult](t, h.call(map[string]any{"op": "write", "path": "src/deep/a.txt", "content": "x"}))
	if fi, _ := os.Stat(h.path("src/deep/a.txt")); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode not kept: %v", fi.Mode())
	}
	entries, _ := os.ReadDir(h.path("src/deep"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".celld-tmp-") {
			t.Fatalf("temp file left behind: %s", e.Name())
		}
	}
	expectCode(t, h.call(map[string]any{"op": "write", "path": "missing/a.txt", "content": "x"}), wire.CodeNotFound)
	expectCode(t, h.call(map[string]any{"op": "write", "path": "src", "content": "x"}), wire.CodeIsADirectory)
	expectCode(t, h.call(map[string]any{"op": "write", "path": "a.txt"}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": "x", "mode": 0o4755}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": strings.Repeat("x", fileops.MaxFileBytes+1)}), wire.CodeFileTooLarge)
}

func TestWriteDetectsConflicts(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v1 := decode[writeResult](t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": "one"})).Version
	v2 := decode[writeResult](t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": "two", "expectedVersion": v1})).Version
	if v1 == v2 {
		t.Fatal("version did not change")
	}
	m := h.call(map[string]any{"op": "write", "path": "a.txt", "content": "stale", "expectedVersion": v1})
	expectCode(t, m, wire.CodeConflict)
	if m.Error.Details["currentVersion"] != v2 {
		t.Errorf("conflict should name the current version: %+v", m.Error)
	}
	if b, _ := os.ReadFile(h.path("a.txt")); string(b) != "two" {
		t.Fatalf("conflicting write landed: %q", b)
	}
	// Same size, same second: the inode still changes, so the version does too.
	v3 := decode[writeResult](t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": "TWO"})).Version
	expectCode(t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": "x", "expectedVersion": v2}), wire.CodeConflict)
	decode[writeResult](t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": "x", "expectedVersion": v3}))
	expectCode(t, h.call(map[string]any{"op": "write", "path": "gone.txt", "content": "x", "expectedVersion": v3}), wire.CodeConflict)
}

func TestReadRefusesLargeAndNonUTF8Files(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	os.WriteFile(h.path("big.txt"), []byte(strings.Repeat("a", fileops.MaxFileBytes+1)), 0o644)
	os.WriteFile(h.path("limit.txt"), []byte(strings.Repeat("a", fileops.MaxFileBytes)), 0o644)
	os.WriteFile(h.path("latin1.txt"), []byte("caf\xe9"), 0o644)
	os.WriteFile(h.path("ctrl.txt"), []byte("a\x00b\x01"), 0o644)
	expectCode(t, h.call(map[string]any{"op": "read", "path": "big.txt"}), wire.CodeFileTooLarge)
	if r := decode[readResult](t, h.call(map[string]any{"op": "read", "path": "limit.txt"})); r.Size != fileops.MaxFileBytes {
		t.Fatalf("size %d", r.Size)
	}
	expectCode(t, h.call(map[string]any{"op": "read", "path": "latin1.txt"}), wire.CodeNotUTF8)
	if r := decode[readResult](t, h.call(map[string]any{"op": "read", "path": "ctrl.txt"})); r.Content != "a\x00b\x01" {
		t.Fatalf("control characters are valid UTF-8: %q", r.Content)
	}
	expectCode(t, h.call(map[string]any{"op": "read", "path": "nope.txt"}), wire.CodeNotFound)
	expectCode(t, h.call(map[string]any{"op": "read", "path": "big.txt/x"}), wire.CodeNotADirectory)
}

func TestBinaryBytesRoundTripWithOffsets(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	data := make([]byte, 3000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	decode[writeResult](t, h.call(map[string]any{"op": "write_bytes", "path": "b.bin", "data": base64.StdEncoding.EncodeToString(data)}))
	type chunk struct {
		Data   string `json:"data"`
		Offset int64  `json:"offset"`
		Length int    `json:"length"`
		Size   int64  `json:"size"`
		EOF    bool   `json:"eof"`
	}
	var got []byte
	for off := 0; ; off += 1024 {
		c := decode[chunk](t, h.call(map[string]any{"op": "read_bytes", "path": "b.bin", "offset": off, "limit": 1024}))
		b, _ := base64.StdEncoding.DecodeString(c.Data)
		got = append(got, b...)
		if c.Size != 3000 || c.Length != len(b) {
			t.Fatalf("chunk %+v", c)
		}
		if c.EOF {
			break
		}
	}
	if string(got) != string(data) {
		t.Fatal("bytes differ")
	}
	expectCode(t, h.call(map[string]any{"op": "read_bytes", "path": "b.bin", "limit": fileops.MaxFileBytes + 1}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "write_bytes", "path": "c.bin", "data": "!!"}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "read", "path": "b.bin"}), wire.CodeNotUTF8)
}

func TestMoveNeverOverwrites(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "a.txt", "A")
	h.mustWrite(t, "b.txt", "B")
	h.mustWrite(t, "d/inner.txt", "I")
	expectCode(t, h.call(map[string]any{"op": "move", "from": "a.txt", "to": "b.txt"}), wire.CodeAlreadyExists)
	if b, _ := os.ReadFile(h.path("b.txt")); string(b) != "B" {
		t.Fatal("move overwrote the target")
	}
	expectCode(t, h.call(map[string]any{"op": "move", "from": "a.txt", "to": "d"}), wire.CodeAlreadyExists)
	expectCode(t, h.call(map[string]any{"op": "move", "from": "d", "to": "d/sub"}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "move", "from": "d", "to": "d"}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "move", "from": "", "to": "x"}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "move", "from": "nope", "to": "x"}), wire.CodeNotFound)
	expectCode(t, h.call(map[string]any{"op": "move", "from": "a.txt", "to": "missing/x"}), wire.CodeNotFound)
	decode[map[string]bool](t, h.call(map[string]any{"op": "move", "from": "a.txt", "to": "d/a.txt"}))
	decode[map[string]bool](t, h.call(map[string]any{"op": "move", "from": "d", "to": "e"}))
	if b, _ := os.ReadFile(h.path("e/a.txt")); string(b) != "A" {
		t.Fatal("moves did not happen")
	}
}

func TestDeleteNeedsRecursiveForEveryDirectory(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "d/sub/x.txt", "x")
	os.Mkdir(h.path("empty"), 0o755)
	h.mustWrite(t, "f.txt", "f")
	expectCode(t, h.call(map[string]any{"op": "delete", "path": "d"}), wire.CodeDirectoryNotEmpty)
	expectCode(t, h.call(map[string]any{"op": "delete", "path": "empty"}), wire.CodeDirectoryNotEmpty)
	if _, err := os.Lstat(h.path("empty")); err != nil {
		t.Fatal("an empty directory was removed without recursive")
	}
	decode[map[string]bool](t, h.call(map[string]any{"op": "delete", "path": "empty", "recursive": true}))
	decode[map[string]bool](t, h.call(map[string]any{"op": "delete", "path": "f.txt"}))
	decode[map[string]bool](t, h.call(map[string]any{"op": "delete", "path": "d", "recursive": true}))
	if _, err := os.Lstat(h.path("d")); !os.IsNotExist(err) {
		t.Fatal("d still exists")
	}
	expectCode(t, h.call(map[string]any{"op": "delete", "path": "d"}), wire.CodeNotFound)
	expectCode(t, h.call(map[string]any{"op": "delete", "path": ".", "recursive": true}), wire.CodeInvalidArgument)
	if _, err := os.Stat(h.root); err != nil {
		t.Fatal("root removed")
	}
}

func TestRecursiveDeleteNeverFollowsLinks(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	outside := t.TempDir()
	os.WriteFile(outside+"/keep.txt", []byte("keep"), 0o644)
	h.mustWrite(t, "d/a/b.txt", "x")
	os.Symlink(outside, h.path("d/a/out"))
	os.Symlink(outside, h.path("d/out2"))
	decode[map[string]bool](t, h.call(map[string]any{"op": "delete", "path": "d", "recursive": true}))
	if b, err := os.ReadFile(outside + "/keep.txt"); err != nil || string(b) != "keep" {
		t.Fatalf("recursive delete reached through a link: %v", err)
	}
}

func TestMkdir(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	if r := decode[map[string]bool](t, h.call(map[string]any{"op": "mkdir", "path": "a/b/c", "parents": true})); !r["created"] {
		t.Fatal("not created")
	}
	if r := decode[map[string]bool](t, h.call(map[string]any{"op": "mkdir", "path": "a/b/c", "parents": true})); r["created"] {
		t.Fatal("mkdir -p of an existing dir reports created")
	}
	expectCode(t, h.call(map[string]any{"op": "mkdir", "path": "a/b/c"}), wire.CodeAlreadyExists)
	expectCode(t, h.call(map[string]any{"op": "mkdir", "path": "x/y"}), wire.CodeNotFound)
	h.mustWrite(t, "file", "f")
	expectCode(t, h.call(map[string]any{"op": "mkdir", "path": "file/y", "parents": true}), wire.CodeNotADirectory)
}

func TestListIsSortedAndCappedAt1000(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	for i := 0; i < 1500; i++ {
		os.WriteFile(h.path(fmt.Sprintf("f%04d", 1499-i)), nil, 0o644)
	}
	os.Mkdir(h.path("adir"), 0o755)
	os.Symlink("f0001", h.path("alink"))
	type listing struct {
		Entries   []fileops.Entry `json:"entries"`
		Truncated bool            `json:"truncated"`
	}
	l := decode[listing](t, h.call(map[string]any{"op": "list", "path": ""}))
	if len(l.Entries) != 1000 || !l.Truncated {
		t.Fatalf("%d entries, truncated=%v", len(l.Entries), l.Truncated)
	}
	if l.Entries[0].Name != "adir" || l.Entries[0].Type != "dir" || l.Entries[1].Type != "symlink" || l.Entries[2].Name != "f0000" || l.Entries[999].Name != "f0997" {
		t.Fatalf("unexpected order: %+v %+v %+v", l.Entries[0], l.Entries[1], l.Entries[999])
	}
	small := decode[listing](t, h.call(map[string]any{"op": "list", "path": "adir"}))
	if len(small.Entries) != 0 || small.Truncated {
		t.Fatalf("%+v", small)
	}
	expectCode(t, h.call(map[string]any{"op": "list", "path": "f0001"}), wire.CodeNotADirectory)
}

// An overwrite pins the replaced file until its reply is sent; the pin (and the parent directory)
// must be released right after, or a busy sandbox would run out of descriptors and disk.
func TestOverwritesReleaseTheReplacedFileAfterTheReply(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "a.txt", "start")
	openFds := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	before := openFds()
	big := strings.Repeat("x", 64<<10)
	for i := 0; i < 200; i++ {
		decode[writeResult](t, h.call(map[string]any{"op": "write", "path": "a.txt", "content": big}))
	}
	deadline := time.Now().Add(5 * time.Second)
	for openFds() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if after := openFds(); after > before {
		t.Fatalf("%d descriptors still open after 200 overwrites (%d before)", after, before)
	}
	if r := decode[readResult](t, h.call(map[string]any{"op": "read", "path": "a.txt"})); r.Content != big {
		t.Fatalf("read back %d bytes", len(r.Content))
	}
}
