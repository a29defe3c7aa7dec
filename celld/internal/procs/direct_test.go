package procs

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"workcell.dev/celld/internal/testenv"
)

func TestDirectExecOfAProgramInPath(t *testing.T) {
	testenv.Hermetic(t, BashReadsAtStart)
	dir := t.TempDir()
	prog := filepath.Join(dir, "my-tool")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$0 $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	cwd := CwdInfo{dir: dir, physical: dir, dev: uint64(st.Dev), ino: st.Ino}
	// The first PATH entry holding the name decides; a non-executable or a directory there is bash's.
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{dir + ":/usr/bin", true},
		{"/nonexistent:" + dir, true},
		{"/usr/bin", false},
		{"relative:" + dir, false},
		{":" + dir, false},
	} {
		d, ok := DirectCommand("my-tool a b", []string{"PATH=" + c.path}, cwd)
		if ok != c.ok {
			t.Errorf("PATH=%s: direct %v, want %v", c.path, ok, c.ok)
			continue
		}
		if ok && (d.path != prog || strings.Join(d.argv, " ") != "my-tool a b" || !contains(d.env, "_="+prog) || !contains(d.env, "SHLVL=0")) {
			t.Errorf("PATH=%s: %+v", c.path, d)
		}
	}
	if err := os.Chmod(prog, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := DirectCommand("my-tool", []string{"PATH=" + dir + ":/usr/bin"}, cwd); ok {
		t.Error("a non-executable file was chosen")
	}
	for _, env := range [][]string{{}, {"PATH=/usr/bin", "BASH_FUNC_ls%%=() { echo f; }"}, {"PATH=/usr/bin", "SSH_CLIENT=x"},
		{"PATH=/usr/bin", "SHLVL=999"}, {"PATH=/usr/bin", "A=1", "A=2"}, {"PATH=/usr/bin", "PWD=" + dir + "/."}} {
		if _, ok := DirectCommand("ls", env, cwd); ok {
			t.Errorf("env %q: ran directly", env)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
