package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/wire"
)

// procsRunning lists live (non-zombie) processes whose argv is exactly args.
func procsRunning(args ...string) []int {
	want := []byte(strings.Join(args, "\x00") + "\x00")
	var pids []int
	d, _ := os.ReadDir("/proc")
	for _, e := range d {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Equal(cmdline, want) {
			continue
		}
		if p, ok := procs.ReadProcStat(pid); ok && p.State != 'Z' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitForProcs polls until exactly n processes run args (commands start asynchronously).
func waitForProcs(t *testing.T, n int, args ...string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if len(procsRunning(args...)) == n {
			return
		}
	}
	t.Fatalf("%v: want %d processes, have %v", args, n, procsRunning(args...))
}

// uniqueSleep returns a sleep argument no other test or host process uses.
func uniqueSleep() string {
	return fmt.Sprintf("%d.%d", 1000+os.Getpid()%1000, time.Now().UnixNano()%1e6)
}

func TestExecReturnsOutputAndExitCode(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "sub/in.txt", "")
	r := decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": `echo out; echo err >&2; pwd; echo "$FOO"; cat; exit 7`,
		"cwd": "sub", "env": map[string]string{"FOO": "bar"}, "stdin": "from stdin"}))
	if r.ExitCode != 7 || r.TimedOut || r.Truncated {
		t.Fatalf("%+v", r)
	}
	if r.Stdout != "out\n"+h.path("sub")+"\nbar\nfrom stdin" || r.Stderr != "err\n" {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	expectCode(t, h.call(map[string]any{"op": "exec", "command": ""}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "exec", "command": strings.Repeat("x", procs.MaxCommandChars+1)}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "exec", "command": "true", "timeoutSec": 0}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "exec", "command": "true", "timeoutSec": 601}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "exec", "command": "true", "env": map[string]string{"A=B": "x"}}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "exec", "command": "true", "cwd": "nope"}), wire.CodeNotFound)
}

func TestExecTimeoutKillsTheCommand(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	arg := uniqueSleep()
	start := time.Now()
	r := decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": "echo begun; sleep " + arg, "timeoutSec": 1}))
	if !r.TimedOut || r.ExitCode != 128+15 || r.Stdout != "begun\n" {
		t.Fatalf("%+v", r)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %s", d)
	}
	if p := procsRunning("sleep", arg); len(p) > 0 {
		t.Fatalf("sleep survived: %v", p)
	}
	// A command that ignores SIGTERM is killed after the grace.
	start = time.Now()
	r = decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": `trap "" TERM; while true; do sleep 0.1; done`, "timeoutSec": 1}))
	if !r.TimedOut || r.ExitCode != 128+9 {
		t.Fatalf("%+v", r)
	}
	if d := time.Since(start); d < 1*time.Second+procs.KillGrace || d > 5*time.Second {
		t.Fatalf("TERM-ignoring command took %s", d)
	}
}

func TestExecOutputCapKeepsHeadAndTail(t *testing.T) {
	h := newHarness(t, harnessOpts{maxOutput: 1000})
	_, ch := h.send(map[string]any{"op": "exec", "command": "for i in $(seq 1 10000); do echo line $i; done; echo small >&2"})
	events, final := h.wait(ch, 30*time.Second)
	r := decode[procs.ExecResult](t, final)
	if !r.Truncated || !strings.HasPrefix(r.Stdout, "line 1\nline 2\n") || !strings.HasSuffix(r.Stdout, "line 9999\nline 10000\n") {
		t.Fatalf("truncated=%v stdout=%q", r.Truncated, r.Stdout)
	}
	if !strings.Contains(r.Stdout, "bytes truncated ...]") || len(r.Stdout) > 1000+60 {
		t.Fatalf("marker missing or too long (%d): %q", len(r.Stdout), r.Stdout)
	}
	if r.Stderr != "small\n" {
		t.Fatalf("stderr %q", r.Stderr)
	}
	streamed := 0
	for _, e := range events {
		if e.Stream == "stdout" {
			streamed += len(e.Data)
		}
	}
	if streamed > 1000+200 {
		t.Fatalf("streamed %d bytes past the cap", streamed)
	}
}

func TestExecOutputCapIsForBothStreamsTogether(t *testing.T) {
	h := newHarness(t, harnessOpts{maxOutput: 1000})
	cmd := "for i in $(seq 1 2000); do echo out $i; echo err $i >&2; done"
	_, ch := h.send(map[string]any{"op": "exec", "command": cmd})
	events, final := h.wait(ch, 30*time.Second)
	r := decode[procs.ExecResult](t, final)
	if !r.Truncated || !strings.HasPrefix(r.Stdout, "out 1\n") || !strings.HasSuffix(r.Stdout, "out 2000\n") ||
		!strings.HasPrefix(r.Stderr, "err 1\n") || !strings.HasSuffix(r.Stderr, "err 2000\n") {
		t.Fatalf("truncated=%v stdout=%q stderr=%q", r.Truncated, r.Stdout, r.Stderr)
	}
	marker := regexp.MustCompile(`\n\[\.\.\. \d+ bytes truncated \.\.\.\]\n`)
	kept := len(marker.ReplaceAllString(r.Stdout, "")) + len(marker.ReplaceAllString(r.Stderr, ""))
	if kept > 1000 || kept < 990 {
		t.Fatalf("kept %d bytes of output for a cap of 1000", kept)
	}
	streamed := 0
	for _, e := range events {
		if !strings.HasPrefix(e.Data, "\n[celld: output beyond") {
			streamed += len(e.Data)
		}
	}
	if streamed > 1000 {
		t.Fatalf("streamed %d bytes past the cap", streamed)
	}
}

func TestExecKillsDetachedDescendants(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	a, b, c := uniqueSleep()+"1", uniqueSleep()+"2", uniqueSleep()+"3"
	cmd := fmt.Sprintf(`setsid sleep %s & (sleep %s &) & nohup setsid bash -c 'env -u CELLD_JOB sleep %s' >/dev/null 2>&1 & sleep 0.3; echo done`, a, b, c)
	r := decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": cmd}))
	if r.Stdout != "done\n" {
		t.Fatalf("%+v", r)
	}
	for _, arg := range []string{a, b, c} {
		if p := procsRunning("sleep", arg); len(p) > 0 {
			t.Errorf("sleep %s survived the command: %v", arg, p)
		}
	}
	// Zombies are reaped, too.
	time.Sleep(300 * time.Millisecond)
	for _, arg := range []string{a, b, c} {
		d, _ := os.ReadDir("/proc")
		for _, e := range d {
			if cl, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); bytes.Contains(cl, []byte(arg)) {
				t.Errorf("process %s (%q) still present", e.Name(), cl)
			}
		}
	}
}

func TestExecStreamsInOrderBeforeTheReply(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	_, ch := h.send(map[string]any{"op": "exec", "command": "for i in 1 2 3; do echo $i; sleep 0.2; done"})
	events, final := h.wait(ch, 10*time.Second)
	decode[procs.ExecResult](t, final)
	var got strings.Builder
	for _, e := range events {
		if e.Event != "output" || e.Stream != "stdout" {
			t.Fatalf("event %+v", e)
		}
		got.WriteString(e.Data)
	}
	if got.String() != "1\n2\n3\n" || len(events) < 3 {
		t.Fatalf("events %q (%d)", got.String(), len(events))
	}
	// Live streaming: the first line arrived well before the command finished.
	if gap := final.at.Sub(events[0].at); gap < 400*time.Millisecond {
		t.Fatalf("first event only %s before the reply", gap)
	}
}

func TestConcurrentRequestsOnOneStream(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "f.txt", "hello")
	start := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		i := i
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": "sleep 0.5; echo $N", "env": map[string]string{"N": strconv.Itoa(i)}}))
			if r.Stdout != strconv.Itoa(i)+"\n" {
				t.Errorf("exec %d got %q", i, r.Stdout)
			}
		}()
	}
	// Quick ops are answered while the slow ones run.
	qs := time.Now()
	if r := decode[readResult](t, h.call(map[string]any{"op": "read", "path": "f.txt"})); r.Content != "hello" {
		t.Errorf("read %q", r.Content)
	}
	if d := time.Since(qs); d > 300*time.Millisecond {
		t.Errorf("read waited %s behind execs", d)
	}
	wg.Wait()
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("six 0.5 s commands took %s: not concurrent", d)
	}
}

func TestCancelStopsAnExec(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	arg := uniqueSleep()
	id, ch := h.send(map[string]any{"op": "exec", "command": "sleep " + arg})
	waitForProcs(t, 1, "sleep", arg)
	start := time.Now()
	if r := decode[map[string]bool](t, h.call(map[string]any{"op": "cancel", "target": id})); !r["cancelled"] {
		t.Fatal("cancel did not find the exec")
	}
	_, final := h.wait(ch, 5*time.Second)
	expectCode(t, final, wire.CodeCancelled)
	if d := time.Since(start); d > procs.KillGrace+time.Second {
		t.Fatalf("cancel took %s", d)
	}
	if p := procsRunning("sleep", arg); len(p) > 0 {
		t.Fatalf("sleep survived cancel: %v", p)
	}
	if r := decode[map[string]bool](t, h.call(map[string]any{"op": "cancel", "target": 9999})); r["cancelled"] {
		t.Fatal("cancelled an unknown id")
	}
}

func TestOneExecFinishingLeavesAnotherRunning(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	arg := uniqueSleep()
	_, slow := h.send(map[string]any{"op": "exec", "command": "setsid sleep " + arg + " & sleep 1.5; echo slow"})
	waitForProcs(t, 1, "sleep", arg)
	decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": "echo fast"}))
	if p := procsRunning("sleep", arg); len(p) != 1 {
		t.Fatalf("the other exec's detached child was killed early: %v", p)
	}
	_, final := h.wait(slow, 10*time.Second)
	if r := decode[procs.ExecResult](t, final); r.Stdout != "slow\n" {
		t.Fatalf("%+v", r)
	}
	if p := procsRunning("sleep", arg); len(p) != 0 {
		t.Fatalf("detached child outlived its exec: %v", p)
	}
}
