package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/identity"
	"workcell.dev/celld/internal/procs"
)

// term drives one pty_open session: output is decoded as it arrives, and acknowledged unless the
// test plays a slow reader.
type term struct {
	t       *testing.T
	h       *client
	id      int64
	ch      chan msg
	pid     int
	out     strings.Builder
	final   *msg
	noAck   bool
	unacked int
	bulk    int // output events that came as bulk frames
}

func openTerm(t *testing.T, h *client, args map[string]any) *term {
	t.Helper()
	args["op"] = "pty_open"
	if args["env"] == nil { // a login shell reads ~/.bashrc: the developer's may do anything
		args["env"] = map[string]string{"HOME": t.TempDir()}
	}
	id, ch := h.send(args)
	tm := &term{t: t, h: h, id: id, ch: ch}
	select {
	case m := <-ch:
		if m.Event != "pty_started" || m.Pid <= 0 {
			t.Fatalf("expected pty_started, got %+v", m)
		}
		tm.pid = m.Pid
	case <-time.After(10 * time.Second):
		t.Fatal("no pty_started")
	}
	return tm
}

func (tm *term) input(s string) msg {
	tm.t.Helper()
	return tm.h.call(map[string]any{"op": "pty_input", "session": tm.id, "data": base64.StdEncoding.EncodeToString([]byte(s))})
}

// take handles one frame of the session; false when none came within d.
func (tm *term) take(d time.Duration) bool {
	select {
	case m := <-tm.ch:
		if m.Event == "pty_output" {
			if m.bulk {
				tm.bulk++
			}
			b, err := base64.StdEncoding.DecodeString(m.Data)
			if err != nil {
				tm.t.Fatalf("bad base64: %v", err)
			}
			tm.out.Write(b)
			tm.unacked += len(b)
			if !tm.noAck {
				tm.ack()
			}
		} else if m.Event == "" {
			tm.final = &m
		}
		return true
	case <-time.After(d):
		return false
	}
}

func (tm *term) ack() {
	if tm.unacked > 0 {
		tm.h.send(map[string]any{"op": "pty_ack", "session": tm.id, "bytes": tm.unacked})
		tm.unacked = 0
	}
}

// until reads output until it contains want (counted from the start of the session).
func (tm *term) until(want string) {
	tm.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(tm.out.String(), want) {
		if tm.final != nil || time.Now().After(deadline) {
			tm.t.Fatalf("no %q in the output (ended: %v): %q", want, tm.final != nil, tm.out.String())
		}
		tm.take(100 * time.Millisecond)
	}
}

// end waits for the final reply.
func (tm *term) end() procs.PTYResult {
	tm.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for tm.final == nil {
		if time.Now().After(deadline) {
			tm.t.Fatalf("the session did not end: %q", tm.out.String())
		}
		tm.take(100 * time.Millisecond)
	}
	return decode[procs.PTYResult](tm.t, *tm.final)
}

func gone(pid int) bool {
	for i := 0; i < 100; i++ {
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func TestTerminalIsAControllingTTYInTheRootWithItsSizeAndTERM(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	tm := openTerm(t, h.client, map[string]any{"cols": 100, "rows": 30})
	tm.input("stty size; echo term=$TERM; pwd; tty; [ -t 0 ] && echo is-a-tty\n")
	tm.until("30 100")
	tm.until("term=xterm-256color")
	tm.until(h.root)
	tm.until("/dev/pts/")
	tm.until("is-a-tty")
	if r := tm.input("x"); !r.OK {
		t.Fatalf("input %+v", r.Error)
	}
	tm.input("\x15") // ^U: forget the x
	r := h.call(map[string]any{"op": "pty_resize", "session": tm.id, "cols": 120, "rows": 40})
	if !r.OK {
		t.Fatalf("resize %+v", r.Error)
	}
	tm.input("stty size\n")
	tm.until("40 120")
	tm.input("exit 7\n")
	if res := tm.end(); res.ExitCode != 7 || res.Closed {
		t.Fatalf("%+v", res)
	}
	expectCode(t, h.call(map[string]any{"op": "pty_input", "session": tm.id, "data": "eA=="}), "not_found")
}

func TestTerminalCtrlCEndsTheForegroundCommandNotTheShell(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	tm := openTerm(t, h.client, map[string]any{})
	tm.input("sleep 100; echo sl$((0))ept\n")
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	tm.input("\x03")
	tm.input("echo after-$((1+1))\n")
	tm.until("after-2")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("^C took %s", d)
	}
	if strings.Contains(tm.out.String(), "sl0ept") {
		t.Fatal("sleep was not interrupted")
	}
	h.call(map[string]any{"op": "pty_close", "session": tm.id})
	if res := tm.end(); !res.Closed {
		t.Fatalf("%+v", res)
	}
}

// A reader that stops acknowledging holds celld to its window: output stops (the program blocks in
// write), nothing is buffered beyond the window, and ^C still ends the flood.
func TestTerminalFloodIsHeldToTheWindowAndCtrlCStillWorks(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	const window = 16 << 10
	tm := openTerm(t, h.client, map[string]any{"window": window})
	tm.input("yes flood-line\n")
	tm.noAck = true
	for tm.take(500 * time.Millisecond) {
	}
	if got := tm.out.Len(); got == 0 || got > window {
		t.Fatalf("received %d bytes without acknowledging, window %d", got, window)
	}
	held := tm.out.Len()
	time.Sleep(300 * time.Millisecond)
	if tm.take(100 * time.Millisecond) {
		t.Fatalf("output past the window: %d then %d bytes", held, tm.out.Len())
	}
	tm.input("\x03")
	tm.input("echo stopped-$((6*7))\n")
	tm.noAck = false
	tm.ack()
	tm.until("stopped-42")
	// The flood is over: the marker is followed by a prompt, not by more lines of yes.
	time.Sleep(300 * time.Millisecond)
	for tm.take(100 * time.Millisecond) {
	}
	after := tm.out.String()[strings.LastIndex(tm.out.String(), "stopped-42"):]
	if strings.Contains(after, "flood-line") {
		t.Fatalf("yes still runs: %q", after)
	}
	h.call(map[string]any{"op": "pty_close", "session": tm.id})
	tm.end()
}

// ^C alone is delivered as a SIGINT even while an earlier input write is stuck because the program
// never reads its input.
func TestTerminalCtrlCPassesAStuckInputWrite(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	tm := openTerm(t, h.client, map[string]any{"command": "trap 'echo got-int; exit 0' INT; stty -icanon; while :; do sleep 1; done"})
	time.Sleep(300 * time.Millisecond)
	big := strings.Repeat("z", 60_000)
	stuck := make(chan msg, 1)
	go func() {
		_, ch := h.send(map[string]any{"op": "pty_input", "session": tm.id, "data": base64.StdEncoding.EncodeToString([]byte(big))})
		_, m := h.wait(ch, 20*time.Second)
		stuck <- m
	}()
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	if r := tm.input("\x03"); !r.OK {
		t.Fatalf("%+v", r.Error)
	}
	tm.until("got-int")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("^C took %s", d)
	}
	tm.end()
	<-stuck
}

func TestClosingOrLosingTheChannelKillsTheSessionsProcessGroup(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	tm := openTerm(t, h.client, map[string]any{})
	tm.input("sleep 1000 & echo b''g=$! .\n")
	tm.until("bg=")
	for out := tm.out.String(); !strings.Contains(out[strings.LastIndex(out, "bg="):], " ."); out = tm.out.String() {
		tm.take(100 * time.Millisecond)
	}
	out := tm.out.String()
	bg, _ := strconv.Atoi(strings.Fields(out[strings.LastIndex(out, "bg=")+3:])[0])
	if bg <= 0 {
		t.Fatalf("no pid in %q", out)
	}
	r := h.call(map[string]any{"op": "pty_close", "session": tm.id})
	if !r.OK {
		t.Fatalf("%+v", r.Error)
	}
	if res := tm.end(); !res.Closed {
		t.Fatalf("%+v", res)
	}
	if !gone(tm.pid) || !gone(bg) {
		t.Fatal("the shell or its background job survived pty_close")
	}

	// Losing the channel: celld's stdin closes, every session dies with it.
	h2 := newHarness(t, harnessOpts{})
	tm2 := openTerm(t, h2.client, map[string]any{"command": "sleep 1000"})
	h2.w.Close()
	<-h2.served
	if !gone(tm2.pid) {
		t.Fatal("the session survived the lost channel")
	}
}

func TestTerminalArgumentsAreChecked(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	expectCode(t, h.call(map[string]any{"op": "pty_open", "cols": 5000}), "invalid_argument")
	expectCode(t, h.call(map[string]any{"op": "pty_open", "window": 10}), "invalid_argument")
	expectCode(t, h.call(map[string]any{"op": "pty_open", "cwd": "../x"}), "invalid_path")
	expectCode(t, h.call(map[string]any{"op": "pty_input", "session": 999, "data": "eA=="}), "not_found")
	tm := openTerm(t, h.client, map[string]any{})
	expectCode(t, h.call(map[string]any{"op": "pty_input", "session": tm.id, "data": "not base64!"}), "invalid_argument")
	expectCode(t, h.call(map[string]any{"op": "pty_resize", "session": tm.id, "cols": 0, "rows": 10}), "invalid_argument")
	h.call(map[string]any{"op": "pty_close", "session": tm.id})
	tm.end()
}

// run_command in Open Terminal runs every command on a terminal: python3 prompts, and a line of
// input through proc_input is answered, as upstream.
func TestBackgroundProcessWithTTYAnswersAnInteractivePython(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	h := newHarness(t, harnessOpts{})
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "python3", "tty": true}))
	r := h.call(map[string]any{"op": "proc_input", "processId": v.ID, "data": "print(6*7)\n"})
	if !r.OK {
		t.Fatalf("%+v", r.Error)
	}
	var text strings.Builder
	offset := int64(0)
	for end := time.Now().Add(15 * time.Second); !strings.Contains(text.String(), "42\r\n"); {
		if time.Now().After(end) {
			t.Fatalf("no 42 in %q", text.String())
		}
		p := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": v.ID, "offset": offset, "waitMs": 200}))
		for _, e := range p.Output {
			if e.Type != "output" {
				t.Fatalf("a terminal's entries are of type output: %+v", e)
			}
			text.WriteString(e.Data)
		}
		offset = p.NextOffset
	}
	h.call(map[string]any{"op": "proc_input", "processId": v.ID, "data": "exit()\n"})
	end := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": v.ID, "waitMs": 10_000}))
	if end.Status != "done" || end.ExitCode == nil || *end.ExitCode != 0 {
		t.Fatalf("%+v", end)
	}
}

func TestBackgroundProcessTTYIsOnlyOnRequest(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	cmd := `if [ -t 0 ] && [ -t 1 ]; then echo tty $(stty size); else echo pipes; fi`
	tty := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": cmd, "tty": true, "waitMs": 10_000}))
	pipes := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": cmd, "waitMs": 10_000}))
	join := func(v procs.ProcView) string {
		b, _ := json.Marshal(v.Output)
		return string(b)
	}
	if !strings.Contains(join(tty), "tty 24 80") || !strings.Contains(join(pipes), `"type":"stdout","data":"pipes\n"`) {
		t.Fatalf("tty: %s, pipes: %s", join(tty), join(pipes))
	}
	// ^C through proc_input interrupts a terminal's foreground program.
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "sleep 100", "tty": true}))
	h.call(map[string]any{"op": "proc_input", "processId": v.ID, "data": "\x03"})
	end := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": v.ID, "waitMs": 10_000}))
	if end.Status != "done" || end.ExitCode == nil || *end.ExitCode != 128+int(syscall.SIGINT) {
		t.Fatalf("%+v", end)
	}
}

// In a sandbox celld is 999 and the workload 1000: the session's shell is 1000's, and so is its
// terminal (the slave is created with celld's filesystem uid).
func TestBinarySupervisedTerminalBelongsToTheWorkloadUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to start celld as in a sandbox")
	}
	root := supervisedRoot(t)
	t.Setenv("HOME", identity.PasswdHome(0))
	b := startBinary(t, root, nil, "--user", "999:999", "--workload-user", "1000:1000")
	tm := openTerm(t, b.client, map[string]any{"env": map[string]string{"HOME": root}})
	tm.input("echo uid=$(id -u) owner=$(stat -c %u $(tty)) cwd=$(pwd)\n")
	tm.until("uid=1000 owner=1000 cwd=" + root)
	tm.input("exit\n")
	if res := tm.end(); res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
}

// TestTerminalEchoRoundTrip: 500 keystrokes into a raw terminal each come back as output before
// the next is sent. The round trip through celld's frames (in-process, over pipes) is logged, not
// asserted: what celld adds to the terminal data path (bench numbers belong in bench/).
func TestTerminalEchoRoundTrip(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	tm := openTerm(t, h.client, map[string]any{"command": "stty raw -echo; cat"})
	time.Sleep(300 * time.Millisecond)
	for tm.take(50 * time.Millisecond) {
	}
	var rtts []time.Duration
	for i := 0; i < 500; i++ {
		start := time.Now()
		tm.h.send(map[string]any{"op": "pty_input", "session": tm.id, "data": "eA=="})
		n := tm.out.Len()
		for tm.out.Len() == n {
			if !tm.take(5 * time.Second) {
				t.Fatal("no echo")
			}
		}
		rtts = append(rtts, time.Since(start))
	}
	sort.Slice(rtts, func(i, j int) bool { return rtts[i] < rtts[j] })
	t.Logf("keystroke echo through celld: p50 %s, p99 %s (%d keystrokes)", rtts[len(rtts)/2], rtts[len(rtts)*99/100], len(rtts))
}

func TestTerminalRawOutputComesAsBulkFramesWithTheExactBytes(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	// Bytes that are not UTF-8 (a JSON string could not carry them raw) and a flood's worth more.
	cmd := `stty raw -echo; printf 'A\377\000\200Z'; head -c 100000 /dev/zero | tr '\0' x; printf END`
	for _, raw := range []bool{true, false} {
		tm := openTerm(t, h.client, map[string]any{"command": cmd, "rawOutput": raw})
		tm.until("END")
		out := tm.out.String()
		if !strings.HasPrefix(out, "A\xff\x00\x80Z") || strings.Count(out, "x") != 100000 {
			t.Fatalf("raw=%v: output changed on the way: %d bytes, %q...", raw, len(out), strings.SplitN(out, "xxx", 2)[0])
		}
		if raw != (tm.bulk > 0) {
			t.Fatalf("raw=%v: %d of the output events were bulk frames", raw, tm.bulk)
		}
		tm.end()
	}
}
