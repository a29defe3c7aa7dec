package fileops

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/confine"
)

const (
	abandoned = "00000000000000000000000000000001"
	recent    = "00000000000000000000000000000002"
)

func newFiles(t *testing.T, dir string) *Files {
	t.Helper()
	root, err := confine.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return New(root)
}

func part(t *testing.T, f *Files, path, upload string, offset int64, data string, last bool) {
	t.Helper()
	b64 := base64.StdEncoding.EncodeToString([]byte(data))
	_, err := f.WritePart(&WritePartArgs{WriteTarget: WriteTarget{Path: path, CreateParents: true}, Upload: upload,
		Offset: offset, Data: &b64, Last: last})
	if err != nil {
		t.Fatalf("part of %s at %d: %v", path, offset, err)
	}
}

func age(t *testing.T, path string, by time.Duration) {
	t.Helper()
	old := time.Now().Add(-by)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An upload abandoned an hour ago goes at the next sweep, an upload in progress (and the target,
// which only ever holds the old content until a last part) stays; once no part file is left the
// folder is forgotten, the state file goes and the timer stops: idle again, at no cost.
func TestSweepRemovesOnlyAbandonedPartsAndThenStops(t *testing.T) {
	dir := t.TempDir()
	f := newFiles(t, dir)
	if f.parts.timer != nil || exists(filepath.Join(dir, PartDirsFile)) {
		t.Fatal("an idle celld has a sweep timer or a state file")
	}
	if err := os.MkdirAll(filepath.Join(dir, "restore"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "restore/big.bin"), []byte("old"), 0o644)
	part(t, f, "restore/big.bin", abandoned, 0, "half of the ne", false)
	part(t, f, "restore/other.bin", recent, 0, "first part", false)
	if f.parts.timer == nil {
		t.Fatal("no sweep armed while an upload is in progress")
	}
	if got := readFile(t, filepath.Join(dir, PartDirsFile)); got != "\"restore\"\n" {
		t.Fatalf("state file %q", got)
	}
	oldPart := filepath.Join(dir, "restore", PartPrefix+abandoned)
	age(t, oldPart, PartMaxAge+time.Minute)
	crashedTmp := filepath.Join(dir, "restore", ".celld-tmp-0123456789abcdef")
	os.WriteFile(crashedTmp, []byte("a write cut short"), 0o644)
	age(t, crashedTmp, 2*PartMaxAge)
	userFile := filepath.Join(dir, "restore", ".celld-part-notes.txt") // not an upload id: the user's own
	os.WriteFile(userFile, []byte("mine"), 0o644)
	age(t, userFile, 2*PartMaxAge)

	if left := f.parts.Sweep(); left != 1 {
		t.Fatalf("%d folders tracked after the sweep, want 1", left)
	}
	if exists(oldPart) || exists(crashedTmp) {
		t.Fatal("the abandoned part file or the old temp file is still there")
	}
	if !exists(filepath.Join(dir, "restore", PartPrefix+recent)) || !exists(userFile) {
		t.Fatal("the sweep removed an upload in progress or a file of the user's")
	}
	if got := readFile(t, filepath.Join(dir, "restore/big.bin")); got != "old" {
		t.Fatalf("the target holds %q, never a part", got)
	}
	// The abandoned upload cannot be continued: it must start again at offset 0.
	b64 := base64.StdEncoding.EncodeToString([]byte("w data"))
	if _, err := f.WritePart(&WritePartArgs{WriteTarget: WriteTarget{Path: "restore/big.bin"}, Upload: abandoned,
		Offset: 14, Data: &b64, Last: true}); err == nil || !strings.Contains(err.Error(), "offset 0") {
		t.Fatalf("continuing a swept upload: %v", err)
	}

	part(t, f, "restore/other.bin", recent, 10, " and the last", true)
	if got := readFile(t, filepath.Join(dir, "restore/other.bin")); got != "first part and the last" {
		t.Fatalf("finished upload holds %q", got)
	}
	if left := f.parts.Sweep(); left != 0 {
		t.Fatalf("%d folders tracked with no part file left", left)
	}
	if exists(filepath.Join(dir, PartDirsFile)) {
		t.Fatal("the state file stays with nothing tracked")
	}
	f.parts.timer.Stop()
	f.parts.tick()
	if f.parts.timer != nil {
		t.Fatal("the sweep timer is still armed with nothing tracked")
	}
}

// A celld that starts (its sandbox restarted after the caller gave up) sweeps the folders the state
// file names, once; a file in one part leaves nothing to track.
func TestANewCelldSweepsTheFoldersAPreviousOneTracked(t *testing.T) {
	dir := t.TempDir()
	f := newFiles(t, dir)
	part(t, f, "a/b/c.bin", abandoned, 0, "part", false)
	part(t, f, "one-part.txt", recent, 0, "whole", true)
	if got := readFile(t, filepath.Join(dir, PartDirsFile)); got != "\"a/b\"\n" {
		t.Fatalf("state file %q", got)
	}
	f.parts.timer.Stop() // that celld is gone
	age(t, filepath.Join(dir, "a/b", PartPrefix+abandoned), PartMaxAge+time.Minute)

	g := newFiles(t, dir)
	if exists(filepath.Join(dir, "a/b", PartPrefix+abandoned)) {
		t.Fatal("the abandoned part file survived a new celld's start")
	}
	if exists(filepath.Join(dir, PartDirsFile)) || g.parts.timer != nil {
		t.Fatal("the new celld still tracks a folder with no part file")
	}
}

// The state file is the sandbox's to write: a folder out of the root, through a link or not a clean
// path is never swept, and a FIFO in the file's place blocks nothing.
func TestTheStateFileCannotReachOutOfTheRoot(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, PartPrefix+abandoned)
	os.WriteFile(victim, []byte("not the sandbox's"), 0o644)
	age(t, victim, 2*PartMaxAge)
	dir := t.TempDir()
	os.Symlink(outside, filepath.Join(dir, "link"))
	os.WriteFile(filepath.Join(dir, PartDirsFile),
		[]byte("\"link\"\n\""+outside+"\"\n\"../"+filepath.Base(outside)+"\"\nnot json\n"), 0o600)
	g := newFiles(t, dir)
	if !exists(victim) {
		t.Fatal("a sweep removed a file outside the root")
	}
	if g.parts.timer != nil {
		t.Fatal("folders outside the root are tracked")
	}

	os.Remove(filepath.Join(dir, PartDirsFile))
	if err := syscall.Mkfifo(filepath.Join(dir, PartDirsFile), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		root, err := confine.OpenRoot(dir)
		if err == nil {
			b64 := base64.StdEncoding.EncodeToString([]byte("p"))
			_, err = New(root).WritePart(&WritePartArgs{WriteTarget: WriteTarget{Path: "x.bin"}, Upload: abandoned, Data: &b64})
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a FIFO as the state file blocked celld")
	}
}
