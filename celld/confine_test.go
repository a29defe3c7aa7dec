package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

// escapeFixture builds a workspace full of traps and an outside directory holding a secret.
type escapeFixture struct {
	outside string
	passwd  []byte
}

const secret = "TOPSECRET-celld"

func newEscapeFixture(t *testing.T, h *harness) *escapeFixture {
	t.Helper()
	outside, err := os.MkdirTemp("/tmp", "outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte(secret), 0o644)
	passwd, _ := os.ReadFile("/etc/passwd")
	h.mustWrite(t, "dir/file.txt", "inside")
	links := map[string]string{
		"link_passwd":   "/etc/passwd",
		"link_procroot": "/proc/self/root",
		"link_procfd":   "/proc/self/fd",
		"link_outside":  outside,
		"link_rel_out":  strings.Repeat("../", 20) + strings.TrimPrefix(outside, "/"),
		"link_dotdot":   "..",
		"dangling":      "does-not-exist",
		"link_in":       "dir",
		"link_file_in":  "dir/file.txt",
		"dir/link_up":   "../dir/file.txt",
		"dir/link_loop": "link_loop",
	}
	for name, target := range links {
		if err := os.Symlink(target, h.path(name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(h.path("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return &escapeFixture{outside: outside, passwd: passwd}
}

// assertUntouched proves nothing outside the workspace changed.
func (f *escapeFixture) assertUntouched(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir(f.outside)
	if len(entries) != 1 || entries[0].Name() != "secret.txt" {
		names := []string{}
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("outside directory changed: %v", names)
	}
	if b, _ := os.ReadFile(filepath.Join(f.outside, "secret.txt")); string(b) != secret {
		t.Fatalf("secret changed: %q", b)
	}
	if b, _ := os.ReadFile("/etc/passwd"); !bytes.Equal(b, f.passwd) {
		t.Fatal("/etc/passwd changed")
	}
}

func TestEscapeCorpusIsRefused(t *testing.T) {
	bothModes(t, func(t *testing.T, o harnessOpts) {
		h := newHarness(t, o)
		f := newEscapeFixture(t, h)
		long := strings.Repeat("x", 1025)
		cases := []struct {
			req  map[string]any
			code string
		}{
			// read
			{map[string]any{"op": "read", "path": "/etc/passwd"}, wire.CodeInvalidPath},
			{map[string]any{"op": "read", "path": "../../etc/passwd"}, wire.CodeInvalidPath},
			{map[string]any{"op": "read", "path": "dir\\file.txt"}, wire.CodeInvalidPath},
			{map[string]any{"op": "read", "path": "dir/file.txt\x00"}, wire.CodeInvalidPath},
			{map[string]any{"op": "read", "path": long}, wire.CodeInvalidPath},
			{map[string]any{"op": "read", "path": "link_passwd"}, wire.CodePathEscape},
			{map[string]any{"op": "read", "path": "link_procroot/etc/passwd"}, wire.CodePathEscape},
			{map[string]any{"op": "read", "path": "link_procfd/0"}, wire.CodePathEscape},
			{map[string]any{"op": "read", "path": "link_outside/secret.txt"}, wire.CodePathEscape},
			{map[string]any{"op": "read", "path": "link_rel_out/secret.txt"}, wire.CodePathEscape},
			{map[string]any{"op": "read", "path": "link_dotdot/etc/passwd"}, wire.CodePathEscape},
			{map[string]any{"op": "read", "path": "dir/link_loop"}, wire.CodePathEscape},
			{map[string]any{"op": "read", "path": "dangling"}, wire.CodeNotFound},
			{map[string]any{"op": "read", "path": "fifo"}, wire.CodeNotRegularFile},
			{map[string]any{"op": "read", "path": "dir"}, wire.CodeIsADirectory},
			{map[string]any{"op": "read_bytes", "path": "link_passwd"}, wire.CodePathEscape},
			{map[string]any{"op": "read_bytes", "path": "fifo"}, wire.CodeNotRegularFile},
			// write: links are never written through, not even inside the root
			{map[string]any{"op": "write", "path": "link_passwd", "content": "x"}, wire.CodePathEscape},
			{map[string]any{"op": "write", "path": "link_outside/new.txt", "content": "x"}, wire.CodePathEscape},
			{map[string]any{"op": "write", "path": "link_outside/secret.txt", "content": "x"}, wire.CodePathEscape},
			{map[string]any{"op": "write", "path": "link_in/new.txt", "content": "x"}, wire.CodePathEscape},
			{map[string]any{"op": "write", "path": "link_file_in", "content": "x"}, wire.CodePathEscape},
			{map[string]any{"op": "write", "path": "dangling", "content": "x"}, wire.CodePathEscape},
			{map[string]any{"op": "write", "path": "fifo", "content": "x"}, wire.CodeNotRegularFile},
			{map[string]any{"op": "write", "path": "../escape.txt", "content": "x"}, wire.CodeInvalidPath},
			{map[string]any{"op": "write", "path": f.outside + "/new.txt", "content": "x"}, wire.CodeInvalidPath},
			{map[string]any{"op": "write", "path": "link_outside/a/b.txt", "content": "x", "createParents": true}, wire.CodePathEscape},
			{map[string]any{"op": "write_bytes", "path": "link_outside/new.bin", "data": "eA=="}, wire.CodePathEscape},
			{map[string]any{"op": "mkdir", "path": "link_outside/d"}, wire.CodePathEscape},
			{map[string]any{"op": "mkdir", "path": "link_outside/d/e", "parents": true}, wire.CodePathEscape},
			{map[string]any{"op": "mkdir", "path": "link_in/d"}, wire.CodePathEscape},
			// delete / move
			{map[string]any{"op": "delete", "path": "link_outside/secret.txt"}, wire.CodePathEscape},
			{map[string]any{"op": "delete", "path": "link_in/file.txt"}, wire.CodePathEscape},
			{map[string]any{"op": "delete", "path": ""}, wire.CodeInvalidArgument},
			{map[string]any{"op": "delete", "path": "../x"}, wire.CodeInvalidPath},
			{map[string]any{"op": "move", "from": "link_outside/secret.txt", "to": "stolen.txt"}, wire.CodePathEscape},
			{map[string]any{"op": "move", "from": "dir/file.txt", "to": "link_outside/planted.txt"}, wire.CodePathEscape},
			{map[string]any{"op": "move", "from": "dir/file.txt", "to": "/tmp/planted.txt"}, wire.CodeInvalidPath},
			// list / stat / search / exec cwd
			{map[string]any{"op": "list", "path": "link_outside"}, wire.CodePathEscape},
			{map[string]any{"op": "list", "path": "link_procroot"}, wire.CodePathEscape},
			{map[string]any{"op": "list", "path": "link_dotdot"}, wire.CodePathEscape},
			{map[string]any{"op": "list", "path": "fifo"}, wire.CodeNotADirectory},
			{map[string]any{"op": "list", "path": "/"}, wire.CodeInvalidPath},
			{map[string]any{"op": "stat", "path": "link_outside/secret.txt"}, wire.CodePathEscape},
			{map[string]any{"op": "search", "path": "link_outside", "query": "TOP"}, wire.CodePathEscape},
			{map[string]any{"op": "search", "path": "fifo", "query": "x"}, wire.CodeNotRegularFile},
			{map[string]any{"op": "exec", "command": "pwd", "cwd": "link_outside"}, wire.CodePathEscape},
		}
		for _, c := range cases {
			m := h.callWithin(c.req, 5*time.Second)
			if m.OK || m.code() != c.code {
				t.Errorf("%v: got ok=%v %+v, want %s", c.req, m.OK, m.Error, c.code)
			}
			if bytes.Contains(m.Result, []byte(secret)) {
				t.Fatalf("%v leaked the secret", c.req)
			}
		}
		f.assertUntouched(t)

		// Links that stay beneath root may be followed by read-only ops.
		if got := decode[map[string]any](t, h.call(map[string]any{"op": "read", "path": "link_in/file.txt"})); got["content"] != "inside" {
			t.Errorf("read through inside link: %v", got)
		}
		if got := decode[map[string]any](t, h.call(map[string]any{"op": "read", "path": "dir/link_up"})); got["content"] != "inside" {
			t.Errorf("read through ../ link that stays inside: %v", got)
		}
		decode[map[string]any](t, h.call(map[string]any{"op": "list", "path": "link_in"}))
		// stat and list report links themselves, never their targets.
		st := decode[fileops.Entry](t, h.call(map[string]any{"op": "stat", "path": "link_outside"}))
		if st.Type != "symlink" {
			t.Errorf("stat of a link: %+v", st)
		}
		// Search never follows links, so the secret is never found.
		hits := decode[map[string]any](t, h.call(map[string]any{"op": "search", "query": "topsecret"}))
		if hs := hits["hits"].([]any); len(hs) != 0 {
			t.Errorf("search followed a link: %v", hs)
		}
		// Deleting a link removes the link, not what it points to.
		if m := h.call(map[string]any{"op": "delete", "path": "link_outside", "recursive": true}); !m.OK {
			t.Fatalf("delete link: %+v", m.Error)
		}
		if m := h.call(map[string]any{"op": "delete", "path": "link_passwd"}); !m.OK {
			t.Fatalf("delete link: %+v", m.Error)
		}
		if _, err := os.Lstat(h.path("link_outside")); !os.IsNotExist(err) {
			t.Error("link still there")
		}
		f.assertUntouched(t)
	})
}

// TestSwapRaceNeverEscapes swaps a path component between a real directory and a link to an
// outside directory thousands of times while reads, writes, lists and deletes run through it.
func TestSwapRaceNeverEscapes(t *testing.T) {
	bothModes(t, func(t *testing.T, o harnessOpts) {
		h := newHarnessAt(t, fastTempDir(t), o)
		outside, err := os.MkdirTemp("/tmp", "outside-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(outside)
		os.WriteFile(filepath.Join(outside, "f"), []byte(secret), 0o644)
		os.WriteFile(filepath.Join(outside, "only-outside"), []byte(secret), 0o644)
		h.mustWrite(t, "race/f", "inside")
		os.Symlink(outside, h.path("alt"))
		// The last component variant: "racefile" swaps between a file and a link to the secret.
		h.mustWrite(t, "racefile", "inside")
		os.Symlink(filepath.Join(outside, "f"), h.path("altfile"))

		h.mustWrite(t, "race/x", "movable")
		stop := make(chan struct{})
		var swaps, escapes, oks, writes int64
		var wg sync.WaitGroup
		loop := func(body func()) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
						body()
					}
				}
			}()
		}
		loop(func() {
			sys.Renameat2(-100, h.path("race"), -100, h.path("alt"), sys.RenameExchange)
			sys.Renameat2(-100, h.path("racefile"), -100, h.path("altfile"), sys.RenameExchange)
			atomic.AddInt64(&swaps, 1)
			runtime.Gosched()
		})
		for i := 0; i < 2; i++ {
			loop(func() {
				if res, err := h.s.files.Read("race/f"); err == nil {
					atomic.AddInt64(&oks, 1)
					if string(res.(wire.Bulk).Data) != "inside" {
						atomic.AddInt64(&escapes, 1)
					}
				}
				if res, err := h.s.files.Read("racefile"); err == nil && string(res.(wire.Bulk).Data) != "inside" {
					atomic.AddInt64(&escapes, 1)
				}
				if res, err := h.s.files.ReadBytes("race/f", nil, nil); err == nil && res.(map[string]any)["data"] != "aW5zaWRl" {
					atomic.AddInt64(&escapes, 1)
				}
			})
		}
		w, inside := "w", "inside"
		loop(func() {
			if _, err := replied(h.s.files.Write(&fileops.WriteArgs{WriteTarget: fileops.WriteTarget{Path: "race/w"}, Content: &w})); err == nil {
				atomic.AddInt64(&writes, 1)
			}
			replied(h.s.files.Write(&fileops.WriteArgs{WriteTarget: fileops.WriteTarget{Path: "racefile"}, Content: &inside}))
			replied(h.s.files.Write(&fileops.WriteArgs{WriteTarget: fileops.WriteTarget{Path: "race/deep/w", CreateParents: true}, Content: &w}))
			h.s.files.Mkdir("race/m", false)
			h.s.files.Delete("race/w", false)
			h.s.files.Delete("race/m", false)
			h.s.files.Delete("race/deep", true)
		})
		loop(func() {
			if res, err := h.s.files.List("race"); err == nil {
				for _, e := range res.(map[string]any)["entries"].([]fileops.Entry) {
					if e.Name == "only-outside" {
						atomic.AddInt64(&escapes, 1)
					}
				}
			}
			if _, err := h.s.files.Stat("race/only-outside"); err == nil {
				atomic.AddInt64(&escapes, 1)
			}
			if res, err := h.s.files.Search(context.Background(), "race", "topsecret", nil); err == nil && len(res.(map[string]any)["hits"].([]fileops.SearchHit)) > 0 {
				atomic.AddInt64(&escapes, 1)
			}
		})
		loop(func() {
			h.s.files.Move("race/x", "race/y")
			h.s.files.Move("race/y", "race/x")
		})
		time.Sleep(1500 * time.Millisecond)
		for end := time.Now().Add(15 * time.Second); atomic.LoadInt64(&swaps) < 3000 && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond) // slow machines and -race: keep going until thousands of swaps
		}
		close(stop)
		wg.Wait()
		if swaps < 2000 {
			t.Fatalf("only %d swaps happened", swaps)
		}
		if escapes != 0 {
			t.Fatalf("%d escapes in %d swaps", escapes, swaps)
		}
		if oks == 0 {
			t.Fatal("no read ever succeeded; the race did not exercise the inside path")
		}
		entries, _ := os.ReadDir(outside)
		for _, e := range entries {
			if e.Name() != "f" && e.Name() != "only-outside" {
				t.Errorf("something landed outside: %s", e.Name())
			}
		}
		if b, _ := os.ReadFile(filepath.Join(outside, "f")); string(b) != secret {
			t.Errorf("outside file modified: %q", b)
		}
		if b, _ := os.ReadFile(filepath.Join(outside, "only-outside")); string(b) != secret {
			t.Errorf("outside file modified: %q", b)
		}
		t.Logf("%d swaps, %d successful inside reads, %d successful writes, 0 escapes", swaps, oks, writes)
	})
}

// fastTempDir prefers tmpfs so fsync-heavy writes run thousands of times within the race window.
func fastTempDir(t *testing.T) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "celld-race-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}
