package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/identity"
	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

// statusLines picks fields of /proc/PID/status, tabs as in the file.
func statusLines(t *testing.T, pid string, keys ...string) map[string]string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		for _, want := range keys {
			if k == want {
				out[k] = strings.TrimSpace(v)
			}
		}
	}
	return out
}

// supervisedRoot is a workspace owned by 1000 holding a private file of 1000's and root's files.
func supervisedRoot(t *testing.T) string {
	t.Helper()
	parent, err := os.MkdirTemp("/tmp", "celld-supervisor-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	os.Chmod(parent, 0o755)
	root := filepath.Join(parent, "workspace")
	os.Mkdir(root, 0o755)
	os.Chown(root, 1000, 1000)
	os.WriteFile(filepath.Join(root, "private.txt"), []byte("secret"), 0o600)
	os.Chown(filepath.Join(root, "private.txt"), 1000, 1000)
	os.WriteFile(filepath.Join(root, "root-owned.txt"), []byte("image"), 0o644)
	os.Mkdir(filepath.Join(root, "rootdir"), 0o755)
	return root
}

// TestBinaryDropsToSupervisor runs celld as in a sandbox: started as root, it becomes 999 with only
// the supervision capabilities, and everything it does for the workload is uid 1000's.
func TestBinaryDropsToSupervisor(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to start celld as in a sandbox")
	}
	root := supervisedRoot(t)
	t.Setenv("HOME", identity.PasswdHome(0))
	b := startBinary(t, root, nil, "--user", "999:999", "--workload-user", "1000:1000")
	pid := strconv.Itoa(int(decode[map[string]any](t, b.call(map[string]any{"op": "ping"}))["pid"].(float64)))

	self := statusLines(t, pid, "Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapAmb", "NoNewPrivs")
	want := map[string]string{"Uid": "999\t999\t999\t1000", "Gid": "999\t999\t999\t1000", "Groups": "",
		"CapInh": "0000000000000000", "CapPrm": "00000000000000e0", "CapEff": "00000000000000e0", "CapAmb": "0000000000000000",
		"NoNewPrivs": "1"}
	for k, v := range want {
		if self[k] != v {
			t.Errorf("celld %s = %q, want %q", k, self[k], v)
		}
	}
	if fi, err := os.Stat("/proc/" + pid + "/environ"); err != nil || fi.Sys().(*syscall.Stat_t).Uid != 0 {
		t.Errorf("celld is dumpable (its /proc entry is not root's): %v", err)
	}

	r := decode[procs.ExecResult](t, b.call(map[string]any{"op": "exec", "command": `grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapAmb|NoNewPrivs):' /proc/self/status | tr -d '\t'; echo "HOME=$HOME"`}))
	wantOut := "Uid:1000100010001000\nGid:1000100010001000\nGroups: \nCapInh:0000000000000000\nCapPrm:0000000000000000\n" +
		"CapEff:0000000000000000\nCapAmb:0000000000000000\nNoNewPrivs:1\nHOME=" + identity.PasswdHome(1000) + "\n"
	if r.Stdout != wantOut {
		t.Errorf("a command's identity:\n%s\nwant\n%s", r.Stdout, wantOut)
	}

	// What the workload tries against its supervisor.
	attack := `kill -9 ` + pid + ` 2>&1; kill -STOP ` + pid + ` 2>&1; cat /proc/` + pid + `/environ 2>&1; head -c1 /proc/` + pid + `/mem 2>&1; true`
	r = decode[procs.ExecResult](t, b.call(map[string]any{"op": "exec", "command": attack}))
	if strings.Count(r.Stdout, "Operation not permitted") != 2 || strings.Count(r.Stdout, "Permission denied") != 2 {
		t.Errorf("the workload reached celld:\n%s", r.Stdout)
	}
	if p := decode[map[string]any](t, b.call(map[string]any{"op": "ping"})); strconv.Itoa(int(p["pid"].(float64))) != pid {
		t.Fatalf("celld changed: %v", p)
	}

	// Leftovers are uid 1000's: ending them takes CAP_KILL.
	arg := uniqueSleep()
	decode[procs.ExecResult](t, b.call(map[string]any{"op": "exec", "command": "(setsid sleep " + arg + " &); true"}))
	if p := procsRunning("sleep", arg); len(p) > 0 {
		t.Fatalf("left running: %v", p)
	}
}

// TestSupervisorActsOnFilesAsTheWorkload: owner, reach and refusals are exactly uid 1000's.
func TestSupervisorActsOnFilesAsTheWorkload(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to start celld as in a sandbox")
	}
	root := supervisedRoot(t)
	b := startBinary(t, root, nil, "--user", "999:999", "--workload-user", "1000:1000")
	decode[writeResult](t, b.call(map[string]any{"op": "write", "path": "made/new.txt", "content": "x", "createParents": true}))
	for _, p := range []string{"made", "made/new.txt"} {
		if st, err := os.Stat(filepath.Join(root, p)); err != nil || st.Sys().(*syscall.Stat_t).Uid != 1000 || st.Sys().(*syscall.Stat_t).Gid != 1000 {
			t.Errorf("%s is not 1000:1000's: %v", p, err)
		}
	}
	if rr := decode[readResult](t, b.call(map[string]any{"op": "read", "path": "private.txt"})); rr.Content != "secret" {
		t.Errorf("%+v", rr)
	}
	decode[writeResult](t, b.call(map[string]any{"op": "write", "path": "private.txt", "content": "changed"}))
	if st, _ := os.Stat(filepath.Join(root, "private.txt")); st.Mode().Perm() != 0o600 || st.Sys().(*syscall.Stat_t).Uid != 1000 {
		t.Errorf("private.txt became %v", st.Mode())
	}
	expectCode(t, b.call(map[string]any{"op": "write", "path": "rootdir/new.txt", "content": "x"}), wire.CodeInternal)
	expectCode(t, b.call(map[string]any{"op": "mkdir", "path": "rootdir/sub"}), wire.CodeInternal)
	// A root-owned file can be replaced (the directory is 1000's) but never written in place.
	r := decode[procs.ExecResult](t, b.call(map[string]any{"op": "exec", "command": "echo x >> root-owned.txt"}))
	if r.ExitCode == 0 {
		t.Errorf("the workload appended to root's file")
	}
	if got, _ := os.ReadFile(filepath.Join(root, "root-owned.txt")); string(got) != "image" {
		t.Errorf("root-owned.txt = %q", got)
	}
	// A 0700 tool of the workload's runs directly (faccessat2 asks as the workload, not as 999).
	os.WriteFile(filepath.Join(root, "tool"), []byte("#!/bin/sh\necho tool ran\n"), 0o700)
	os.Chown(filepath.Join(root, "tool"), 1000, 1000)
	if r := decode[procs.ExecResult](t, b.call(map[string]any{"op": "exec", "command": "./tool"})); r.Stdout != "tool ran\n" {
		t.Errorf("%+v", r)
	}
	if !sys.Executable("/bin/sh") {
		t.Error("/bin/sh is not executable for the test itself")
	}
}

func TestSupervisorFlagsAreRefusedUnlessSound(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to start celld as another user")
	}
	root := t.TempDir()
	cases := []struct {
		cred *syscall.Credential
		args []string
		code int
	}{
		{nil, []string{"--user", "999:999"}, 2},
		{nil, []string{"--user", "999", "--workload-user", "1000:1000"}, 2},
		{nil, []string{"--user", "1000:1000", "--workload-user", "1000:1000"}, 1},
		{nil, []string{"--user", "0:0", "--workload-user", "1000:1000"}, 1},
		{&syscall.Credential{Uid: 1000, Gid: 1000}, []string{"--user", "999:999", "--workload-user", "1000:1000"}, 1},
	}
	for _, c := range cases {
		cmd := exec.Command(binPath, append([]string{"serve", "--root", root}, c.args...)...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
		exit, _, err := procs.Reaper().Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case ws := <-exit:
			if ws.ExitStatus() != c.code {
				t.Errorf("%v: exit %d, want %d", c.args, ws.ExitStatus(), c.code)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: celld served", c.args)
		}
	}
}
