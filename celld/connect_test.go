package main

import (
	"encoding/json"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/framing"
	"workcell.dev/celld/internal/procs"
)

// startConnected runs the binary with --connect: it reads the token from stdin and dials back.
func startConnected(t *testing.T, token string) (*exec.Cmd, io.WriteCloser, net.Listener, <-chan syscall.WaitStatus) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "celld.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	cmd := exec.Command(binPath, "serve", "--root", t.TempDir(), "--connect", sock)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderrText strings.Builder
	cmd.Stderr = &stderrText
	exit, _, err := procs.Reaper().Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	in.Write([]byte(token + "\n"))
	t.Cleanup(func() { in.Close() })
	return cmd, in, ln, exit
}

func TestConnectModeServesOverTheSocketAfterTheToken(t *testing.T) {
	token := strings.Repeat("ab", 32)
	cmd, stdin, ln, exit := startConnected(t, token)
	conn, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	hello, err := framing.ReadFrame(conn)
	if err != nil {
		t.Fatal(err)
	}
	var h map[string]string
	if json.Unmarshal(hello, &h); h["hello"] != token {
		t.Fatalf("hello %s", hello)
	}
	c := newClient(t, conn.(*net.UnixConn), conn)
	p := decode[map[string]any](t, c.call(map[string]any{"op": "ping"}))
	if int(p["pid"].(float64)) != cmd.Process.Pid {
		t.Fatalf("%v", p)
	}
	r := decode[procs.ExecResult](t, c.call(map[string]any{"op": "exec", "command": "echo over the socket"}))
	if r.Stdout != "over the socket\n" {
		t.Fatalf("%+v", r)
	}
	// EOF on stdin (the exec closed by sandbox-service) still stops celld.
	stdin.Close()
	select {
	case ws := <-exit:
		if !ws.Exited() || ws.ExitStatus() != 0 {
			t.Fatalf("exit %v", ws)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("celld did not exit after stdin closed")
	}
}

func TestConnectModeRefusesAMissingOrShortToken(t *testing.T) {
	for _, token := range []string{"", "abcd", "not hex at all, not hex at all, not hex at all"} {
		_, _, ln, exit := startConnected(t, token)
		select {
		case ws := <-exit:
			if !ws.Exited() || ws.ExitStatus() != 2 {
				t.Fatalf("token %q: exit %v", token, ws)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("token %q: celld did not exit", token)
		}
		ln.Close()
	}
}
