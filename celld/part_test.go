package main

import (
	"bytes"
	"encoding/base64"
	"os"
	"testing"
	"time"

	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/wire"
)

const testUpload = "0123456789abcdef0123456789abcdef"

func partReq(path string, offset int, data []byte, last bool) map[string]any {
	return map[string]any{"op": "write_part", "path": path, "upload": testUpload, "offset": offset,
		"data": base64.StdEncoding.EncodeToString(data), "last": last, "createParents": true}
}

// A 5 MB binary file (every byte value) in 1 MB parts replaces the old file only at the last part.
func TestWritePartWritesALargeBinaryFileAtomically(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "restore/big.bin", "old")
	data := make([]byte, 5*1024*1024+17)
	for i := range data {
		data[i] = byte(i*131 + i>>9)
	}
	const part = 1024 * 1024
	for off := 0; off < len(data); off += part {
		end := off + part
		if end > len(data) {
			end = len(data)
		}
		last := end == len(data)
		req := partReq("restore/big.bin", off, data[off:end], last)
		req["mode"] = 0o750
		res := h.call(req)
		if !last {
			if got := decode[writeResult](t, res); got.Size != int64(end) {
				t.Fatalf("part at %d: size %d", off, got.Size)
			}
			if b, _ := os.ReadFile(h.path("restore/big.bin")); string(b) != "old" {
				t.Fatalf("the target changed before the last part (%d bytes)", len(b))
			}
			// A part resent (its reply lost) is written again at the same place: harmless.
			decode[writeResult](t, h.call(partReq("restore/big.bin", off, data[off:end], false)))
			continue
		}
		w := decode[writeResult](t, res)
		if w.Size != int64(len(data)) || w.Version == "" {
			t.Fatalf("last part: %+v", w)
		}
	}
	got, err := os.ReadFile(h.path("restore/big.bin"))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("restored bytes differ (%d of %d, %v)", len(got), len(data), err)
	}
	if st, _ := os.Stat(h.path("restore/big.bin")); st.Mode().Perm() != 0o750 {
		t.Fatalf("mode %v", st.Mode())
	}
	if _, err := os.Lstat(h.path("restore/" + fileops.PartPrefix + testUpload)); !os.IsNotExist(err) {
		t.Fatal("the part file is left behind")
	}
}

func TestWritePartRefusesGapsStrangersAndLinks(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	// No part file: a later offset has nothing to continue.
	expectCode(t, h.call(partReq("a.bin", 10, []byte("x"), false)), wire.CodeNotFound)
	decode[writeResult](t, h.call(partReq("a.bin", 0, []byte("0123"), false)))
	gap := h.call(partReq("a.bin", 9, []byte("x"), false))
	expectCode(t, gap, wire.CodeConflict)
	if gap.Error.Details["size"] != float64(4) {
		t.Fatalf("conflict details %+v", gap.Error.Details)
	}
	bad := partReq("a.bin", 0, []byte("x"), true)
	bad["upload"] = "../../etc/passwd"
	expectCode(t, h.call(bad), wire.CodeInvalidArgument)
	bad["upload"] = "ABCDEF0123456789"
	expectCode(t, h.call(bad), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "write_part", "path": "a.bin", "upload": testUpload, "offset": 4, "data": "!!"}), wire.CodeInvalidArgument)

	// The sandbox swaps the part file for a link: never written through.
	partFile := h.path(fileops.PartPrefix + testUpload)
	os.Remove(partFile)
	h.mustWrite(t, "victim.txt", "keep")
	if err := os.Symlink(h.path("victim.txt"), partFile); err != nil {
		t.Fatal(err)
	}
	expectCode(t, h.call(partReq("a.bin", 4, []byte("x"), true)), wire.CodePathEscape)
	os.Remove(partFile)
	if err := os.Link(h.path("victim.txt"), partFile); err != nil {
		t.Fatal(err)
	}
	expectCode(t, h.call(partReq("a.bin", 4, []byte("x"), true)), wire.CodeNotRegularFile)
	// A new upload removes the name (the link), never the file it named.
	decode[writeResult](t, h.call(partReq("a.bin", 0, []byte("new"), false)))
	if b, _ := os.ReadFile(h.path("victim.txt")); string(b) != "keep" {
		t.Fatalf("a linked file was written: %q", b)
	}
	if _, err := os.Lstat(h.path("a.bin")); !os.IsNotExist(err) {
		t.Fatal("a refused upload created the target")
	}
}

// A restore abandoned half way (its caller gone) leaves a part file beside the target; once it is an
// hour old, the next celld (its sandbox started again) removes it, in the walk fallback too. The
// model never saw it as the target: the target kept its old content throughout.
func TestAnAbandonedPartFileIsGoneAtTheNextStart(t *testing.T) {
	for _, walk := range []bool{false, true} {
		dir := t.TempDir()
		h := newHarnessAt(t, dir, harnessOpts{walk: walk})
		h.mustWrite(t, "restore/big.bin", "old")
		decode[writeResult](t, h.call(partReq("restore/big.bin", 0, []byte("the first half"), false)))
		partFile := h.path("restore/" + fileops.PartPrefix + testUpload)
		if got := decode[readResult](t, h.call(map[string]any{"op": "read", "path": "restore/big.bin"})); got.Content != "old" {
			t.Fatalf("the target reads %q during the upload", got.Content)
		}
		old := time.Now().Add(-fileops.PartMaxAge - time.Minute)
		if err := os.Chtimes(partFile, old, old); err != nil {
			t.Fatal(err)
		}

		newHarnessAt(t, dir, harnessOpts{walk: walk})
		if _, err := os.Lstat(partFile); !os.IsNotExist(err) {
			t.Fatalf("walk=%v: the abandoned part file is still there", walk)
		}
		if _, err := os.Lstat(h.path(fileops.PartDirsFile)); !os.IsNotExist(err) {
			t.Fatalf("walk=%v: the state file stays with nothing left to sweep", walk)
		}
		if b, _ := os.ReadFile(h.path("restore/big.bin")); string(b) != "old" {
			t.Fatalf("walk=%v: the target holds %q", walk, b)
		}
	}
}
