package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/framing"
	"workcell.dev/celld/internal/preview"
	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/wire"
)

func TestMalformedFramesEndTheStream(t *testing.T) {
	oversize := make([]byte, 4)
	binary.BigEndian.PutUint32(oversize, framing.MaxFrame+1)
	cases := map[string][]byte{
		"oversize":     oversize,
		"not json":     framed(`{"id": 1, "op": "ping"`),
		"not object":   framed(`[1,2]`),
		"missing id":   framed(`{"op":"ping"}`),
		"string id":    framed(`{"id":"1","op":"ping"}`),
		"zero id":      framed(`{"id":0,"op":"ping"}`),
		"fraction id":  framed(`{"id":1.5,"op":"ping"}`),
		"empty frame":  {0, 0, 0, 0},
		"null":         framed(`null`),
		"invalid utf8": framed("{\"id\":1,\"op\":\"ping\",\"path\":\"\xff\"}"),
		// Bulk request frames (byte 0, the JSON's length, the JSON, raw bytes) are as strict about their JSON.
		"bulk truncated":         framed("\x00\x00\x00"),
		"bulk json past the end": framed("\x00\x00\x00\x00\x30{\"id\":1,\"op\":\"ping\"}"),
		"bulk empty json":        framed("\x00\x00\x00\x00\x00raw"),
		"bulk json no id":        framed("\x00\x00\x00\x00\x0e{\"op\":\"write\"}raw"),
		"bulk json bad utf8":     framed("\x00\x00\x00\x00\x12{\"id\":1,\"op\":\"w\xff\"}\xffraw"),
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, harnessOpts{})
			h.wmu.Lock()
			h.w.Write(raw)
			h.wmu.Unlock()
			select {
			case m := <-h.orphan:
				if m.ID != 0 || m.OK || m.code() != wire.CodeInvalidArgument || !strings.Contains(m.Error.Message, "malformed") {
					t.Fatalf("%+v", m)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no error frame")
			}
			select {
			case <-h.served:
				if _, ok := h.serveErr.(errMalformed); !ok {
					t.Fatalf("serve returned %v", h.serveErr)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("serve did not stop")
			}
		})
	}
}

func framed(s string) []byte {
	b := make([]byte, 4+len(s))
	binary.BigEndian.PutUint32(b, uint32(len(s)))
	copy(b[4:], s)
	return b
}

func TestBadRequestsAreAnsweredAndTheStreamContinues(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	expectCode(t, h.call(map[string]any{"op": "frobnicate"}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "read", "path": 42}), wire.CodeInvalidArgument)
	// A duplicate in-flight id is refused without disturbing the first request.
	h.mu.Lock()
	ch := make(chan msg, 64)
	h.routes[500] = ch
	h.mu.Unlock()
	h.sendRaw([]byte(`{"id":500,"op":"exec","command":"sleep 0.3; echo first"}`))
	time.Sleep(100 * time.Millisecond)
	h.sendRaw([]byte(`{"id":500,"op":"ping"}`))
	_, dup := h.wait(ch, 5*time.Second)
	expectCode(t, dup, wire.CodeInvalidArgument)
	_, first := h.wait(ch, 5*time.Second)
	if r := decode[procs.ExecResult](t, first); r.Stdout != "first\n" {
		t.Fatalf("%+v", r)
	}
	p := decode[map[string]any](t, h.call(map[string]any{"op": "ping"}))
	if p["version"] != version || int(p["pid"].(float64)) != os.Getpid() {
		t.Fatalf("%v", p)
	}
}

// binaryProc is the compiled celld driven through real pipes.
type binaryProc struct {
	*client
	cmd    *exec.Cmd
	in     io.WriteCloser
	exited chan struct{}
	status syscall.WaitStatus
}

func startBinary(t *testing.T, root string, cred *syscall.Credential, args ...string) *binaryProc {
	t.Helper()
	return startBinaryVia(t, nil, root, cred, args...)
}

// startBinaryVia starts celld through wrapper, a command that ends by exec-ing its arguments.
func startBinaryVia(t *testing.T, wrapper []string, root string, cred *syscall.Credential, args ...string) *binaryProc {
	t.Helper()
	argv := append(append(append([]string{}, wrapper...), binPath, "serve", "--root", root), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	exit, _, err := procs.Reaper().Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	b := &binaryProc{client: newClient(t, in, out), cmd: cmd, in: in, exited: make(chan struct{})}
	go func() { b.status = <-exit; close(b.exited) }()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-b.exited:
		case <-time.After(10 * time.Second):
			t.Error("celld did not exit after stdin closed")
			cmd.Process.Kill()
		}
	})
	return b
}

func (b *binaryProc) waitExit(t *testing.T) syscall.WaitStatus {
	t.Helper()
	select {
	case <-b.exited:
		return b.status
	case <-time.After(10 * time.Second):
		t.Fatal("celld did not exit")
		return 0
	}
}

func TestBinaryServesFramesOverPipes(t *testing.T) {
	root := t.TempDir()
	b := startBinary(t, root, nil)
	p := decode[map[string]any](t, b.call(map[string]any{"op": "ping"}))
	if int(p["pid"].(float64)) != b.cmd.Process.Pid {
		t.Fatalf("%v", p)
	}
	w := decode[writeResult](t, b.call(map[string]any{"op": "write", "path": "a/b.txt", "content": "via binary", "createParents": true}))
	if r := decode[readResult](t, b.call(map[string]any{"op": "read", "path": "a/b.txt"})); r.Content != "via binary" || r.Version != w.Version {
		t.Fatalf("%+v", r)
	}
	_, ch := b.send(map[string]any{"op": "exec", "command": "for i in 1 2 3; do echo $i; sleep 0.1; done"})
	events, final := b.wait(ch, 10*time.Second)
	if r := decode[procs.ExecResult](t, final); r.Stdout != "1\n2\n3\n" || len(events) < 3 {
		t.Fatalf("%+v, %d events", r, len(events))
	}
	// A malformed frame gets an id-0 error and a non-zero exit.
	b.sendRaw([]byte("this is not json"))
	select {
	case m := <-b.orphan:
		if m.ID != 0 || m.code() != wire.CodeInvalidArgument {
			t.Fatalf("%+v", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no error frame")
	}
	if ws := b.waitExit(t); !ws.Exited() || ws.ExitStatus() == 0 {
		t.Fatalf("exit status %v", ws)
	}
}

// Started with SIGINT and SIGHUP ignored (a background job of a script), celld still starts its
// commands with both at their default action: otherwise Ctrl-C in a terminal would not stop them.
func TestBinaryStartedWithSignalsIgnoredStartsCommandsWithThemAtDefault(t *testing.T) {
	b := startBinaryVia(t, []string{"/bin/sh", "-c", `trap "" INT HUP; exec "$0" "$@"`}, t.TempDir(), nil)
	r := decode[procs.ExecResult](t, b.call(map[string]any{"op": "exec", "command": "grep SigIgn /proc/self/status"}))
	var ignored uint64
	if _, err := fmt.Sscanf(strings.TrimSpace(r.Stdout), "SigIgn:\t%x", &ignored); err != nil {
		t.Fatalf("%q: %v", r.Stdout, err)
	}
	if hup, intr := ignored&(1<<(syscall.SIGHUP-1)), ignored&(1<<(syscall.SIGINT-1)); hup != 0 || intr != 0 {
		t.Fatalf("the command ignores SIGHUP or SIGINT: SigIgn %016x", ignored)
	}
}

func TestBinaryKillsJobsWhenTheCallerGoesAway(t *testing.T) {
	b := startBinary(t, t.TempDir(), nil)
	arg := uniqueSleep()
	_, ch := b.send(map[string]any{"op": "exec", "command": "setsid sleep " + arg + " & sleep " + arg})
	waitForProcs(t, 2, "sleep", arg)
	b.in.Close()
	if ws := b.waitExit(t); !ws.Exited() || ws.ExitStatus() != 0 {
		t.Fatalf("clean EOF should exit 0: %v", ws)
	}
	_ = ch
	deadline := time.Now().Add(3 * time.Second)
	for len(procsRunning("sleep", arg)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if p := procsRunning("sleep", arg); len(p) > 0 {
		t.Fatalf("left running after shutdown: %v", p)
	}
}

// TestBinaryRunsUnprivileged runs celld as uid 1000 like in a sandbox: nothing may assume root.
func TestBinaryRunsUnprivileged(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to uid 1000")
	}
	parent, err := os.MkdirTemp("/tmp", "celld-uid-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(parent)
	os.Chmod(parent, 0o755)
	root := filepath.Join(parent, "workspace")
	os.Mkdir(root, 0o755)
	os.Chown(root, 1000, 1000)
	os.WriteFile(filepath.Join(parent, "root-only.txt"), []byte("x"), 0o600)
	b := startBinary(t, root, &syscall.Credential{Uid: 1000, Gid: 1000})
	decode[writeResult](t, b.call(map[string]any{"op": "write", "path": "x.txt", "content": "mine"}))
	arg := uniqueSleep()
	r := decode[procs.ExecResult](t, b.call(map[string]any{"op": "exec", "command": "id -u; (setsid sleep " + arg + " &) ; cat ../root-only.txt 2>/dev/null || echo denied"}))
	if r.Stdout != "1000\ndenied\n" {
		t.Fatalf("%+v", r)
	}
	if p := procsRunning("sleep", arg); len(p) > 0 {
		t.Fatalf("unprivileged celld left %v running", p)
	}
	if fi, err := os.Stat(filepath.Join(root, "x.txt")); err != nil || fi.Sys().(*syscall.Stat_t).Uid != 1000 {
		t.Fatalf("file not owned by 1000: %v", err)
	}
	port := freePort(t)
	os.WriteFile(filepath.Join(root, "index.html"), []byte("u"), 0o644)
	if st := decode[preview.Status](t, b.call(map[string]any{"op": "preview_start", "port": port})); !st.Running {
		t.Fatalf("%+v", st)
	}
	if _, body := httpGet(t, port, "/"); body != "u" {
		t.Fatalf("%q", body)
	}
}

func TestBinaryVersionFlag(t *testing.T) {
	cmd := exec.Command(binPath, "--version")
	pr, pw, _ := os.Pipe()
	cmd.Stdout = pw
	exit, _, err := procs.Reaper().Start(cmd)
	pw.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(pr)
	if ws := <-exit; ws.ExitStatus() != 0 || string(got) != fmt.Sprintf("celld %s\n", version) {
		t.Fatalf("%q %v", got, ws)
	}
}

// Every sandbox runs a celld, so its idle memory is paid once per user: after real work it must
// settle under 5 MB again. The binary's pages count too (nearly all of them end up mapped), which
// is why celld links neither net, net/http nor crypto.
func TestBinaryIdleRSS(t *testing.T) {
	b := startBinary(t, t.TempDir(), nil)
	content := strings.Repeat("x", 4096)
	for i := 0; i < 300; i++ {
		decode[writeResult](t, b.call(map[string]any{"op": "write", "path": "a.txt", "content": content}))
		decode[readResult](t, b.call(map[string]any{"op": "read", "path": "a.txt"}))
		if i%10 == 0 {
			decode[map[string]any](t, b.call(map[string]any{"op": "exec", "command": "true"}))
		}
	}
	time.Sleep(3 * time.Second) // celld trims its heap 2 s after going idle
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", b.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	var rssKB int
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			fmt.Sscan(strings.TrimPrefix(line, "VmRSS:"), &rssKB)
		}
	}
	if rssKB == 0 || rssKB > 5000 {
		t.Fatalf("idle RSS after work is %d kB, want at most 5000", rssKB)
	}
	t.Logf("idle RSS after work: %d kB", rssKB)
}

// Package net (and net/http) would add ~0.4 MB to a binary that is resident in full in every
// sandbox, which is what pushed TestBinaryIdleRSS over its bound once; sockets go through tcpsock.
func TestBinaryDoesNotLinkPackageNet(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list is not available here: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net" || dep == "net/http" {
			t.Fatalf("celld links package %s; use internal/tcpsock instead", dep)
		}
	}
}
