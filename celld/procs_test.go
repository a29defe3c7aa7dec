package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/testenv"
	"workcell.dev/celld/internal/wire"
)

// pollAll polls a process by offset until it ends and returns its concatenated stdout.
func pollAll(t *testing.T, h *harness, id string) (string, procs.ProcView) {
	t.Helper()
	var out strings.Builder
	offset := int64(0)
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); {
		v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": id, "offset": offset, "waitMs": 200}))
		if v.Truncated {
			t.Fatalf("output truncated at offset %d", offset)
		}
		for _, e := range v.Output {
			if e.Type == "stdout" {
				out.WriteString(e.Data)
			}
		}
		if v.NextOffset < offset {
			t.Fatalf("nextOffset went back from %d to %d", offset, v.NextOffset)
		}
		offset = v.NextOffset
		if v.Status != "running" {
			// One more poll: everything was already there when the status changed.
			last := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": id, "offset": offset}))
			if len(last.Output) != 0 {
				t.Fatalf("output after the end: %+v", last.Output)
			}
			return out.String(), v
		}
	}
	t.Fatal("process did not end")
	return "", procs.ProcView{}
}

func TestProcessOutputPolledByOffsetIsCompleteAndOrdered(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start",
		"command": `for i in $(seq 1 3000); do echo "line $i"; if [ $((i % 500)) = 0 ]; then sleep 0.05; fi; done; echo oops >&2; exit 3`}))
	if v.Status != "running" || len(v.ID) != 12 {
		t.Fatalf("%+v", v)
	}
	out, end := pollAll(t, h, v.ID)
	var want strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	if out != want.String() {
		t.Fatalf("output differs: got %d bytes, want %d", len(out), want.Len())
	}
	if end.Status != "done" || end.ExitCode == nil || *end.ExitCode != 3 || end.EndedAt == nil {
		t.Fatalf("%+v", end)
	}
	tail := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": v.ID, "offset": 0, "tail": 1}))
	if len(tail.Output) != 1 || tail.Output[0].Type != "stderr" || tail.Output[0].Data != "oops\n" || !tail.Truncated {
		t.Fatalf("tail %+v", tail)
	}
}

func TestProcessStartWithWaitAnswersWhenItEnds(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	start := time.Now()
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "echo hi", "waitMs": 20_000}))
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %s", d)
	}
	if v.Status != "done" || *v.ExitCode != 0 || len(v.Output) != 1 || v.Output[0].Data != "hi\n" || v.NextOffset != 1 {
		t.Fatalf("%+v", v)
	}
	running := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "sleep 5", "waitMs": 100}))
	if running.Status != "running" || running.ExitCode != nil {
		t.Fatalf("%+v", running)
	}
	expectCode(t, h.call(map[string]any{"op": "proc_start", "command": "true", "waitMs": 300_001}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "proc_status", "processId": "000000000000"}), wire.CodeNotFound)
}

func TestProcessInputReachesCat(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "cat"}))
	in := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_input", "processId": v.ID, "data": "hello cat\n"}))
	if in.ID != v.ID || in.Status != "running" {
		t.Fatalf("%+v", in)
	}
	var got string
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && got == ""; time.Sleep(20 * time.Millisecond) {
		s := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": v.ID}))
		for _, e := range s.Output {
			got += e.Data
		}
	}
	if got != "hello cat\n" {
		t.Fatalf("cat echoed %q", got)
	}
	k := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_kill", "processId": v.ID, "force": true}))
	if k.Status != "killed" {
		t.Fatalf("%+v", k)
	}
	expectCode(t, h.call(map[string]any{"op": "proc_input", "processId": v.ID, "data": "late"}), wire.CodeProcessExited)
}

func TestProcessKillTermRunsTrapForceDoesNot(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	cmd := `trap 'echo trapped; exit 0' TERM; echo ready; while true; do sleep 0.1; done`
	for _, force := range []bool{false, true} {
		v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": cmd}))
		waitForOutput(t, h, v.ID, "ready\n")
		k := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_kill", "processId": v.ID, "force": force}))
		if k.Status != "killed" || k.ExitCode == nil {
			t.Fatalf("force=%v: %+v", force, k)
		}
		all := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": v.ID}))
		text := ""
		for _, e := range all.Output {
			text += e.Data
		}
		if trapped := strings.Contains(text, "trapped"); trapped == force {
			t.Fatalf("force=%v: output %q, exit %d", force, text, *k.ExitCode)
		}
		if force && *k.ExitCode != 128+9 {
			t.Fatalf("force: exit %d", *k.ExitCode)
		}
	}
}

func waitForOutput(t *testing.T, h *harness, id, want string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_status", "processId": id}))
		text := ""
		for _, e := range v.Output {
			text += e.Data
		}
		if strings.Contains(text, want) {
			return
		}
	}
	t.Fatalf("no %q from %s", want, id)
}

func TestProcessSetsidChildDiesWithIt(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	arg := uniqueSleep()
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "setsid sleep " + arg + " & echo started; sleep 600"}))
	waitForOutput(t, h, v.ID, "started")
	waitForProcs(t, 1, "sleep", arg)
	decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_kill", "processId": v.ID}))
	waitForProcs(t, 0, "sleep", arg)

	// A shell that ends by itself takes its leftovers along too.
	arg2 := uniqueSleep() + "1"
	w := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "setsid sleep " + arg2 + " & exit 0", "waitMs": 10_000}))
	if w.Status != "done" {
		t.Fatalf("%+v", w)
	}
	waitForProcs(t, 0, "sleep", arg2)
}

func TestThe33rdProcessIsRefusedAndListed(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	ids := map[string]bool{}
	for i := 0; i < procs.MaxRunningProcs; i++ {
		v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "sleep 600"}))
		ids[v.ID] = true
	}
	if len(ids) != procs.MaxRunningProcs {
		t.Fatalf("ids collided: %d", len(ids))
	}
	expectCode(t, h.call(map[string]any{"op": "proc_start", "command": "true"}), wire.CodeTooManyProcesses)
	list := decode[struct{ Processes []procs.ProcView }](t, h.call(map[string]any{"op": "proc_list"}))
	if len(list.Processes) != procs.MaxRunningProcs {
		t.Fatalf("listed %d", len(list.Processes))
	}
	for id := range ids {
		decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_kill", "processId": id, "force": true}))
	}
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "true", "waitMs": 10_000}))
	if v.Status != "done" {
		t.Fatalf("%+v", v)
	}
}

func TestProcessOutputIsBoundedByDroppingTheOldest(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	// 3 MiB of output, far over the 1 MiB bound.
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start",
		"command": "head -c 3145728 /dev/zero | tr '\\0' x; echo; echo END", "waitMs": 30_000}))
	if v.Status != "done" {
		t.Fatalf("%+v", v.Status)
	}
	kept := 0
	for _, e := range v.Output {
		kept += len(e.Data)
	}
	if !v.Truncated || kept > procs.ProcOutputBytes+procs.ReadChunk || !strings.HasSuffix(v.Output[len(v.Output)-1].Data, "END\n") {
		t.Fatalf("truncated=%v kept=%d", v.Truncated, kept)
	}
	if int64(len(v.Output)) >= v.NextOffset {
		t.Fatalf("nextOffset %d should count dropped entries (kept %d)", v.NextOffset, len(v.Output))
	}
}

func TestFinishedProcessesAreForgotten(t *testing.T) {
	old := procs.ProcKeep
	procs.ProcKeep = 200 * time.Millisecond
	defer func() { procs.ProcKeep = old }()
	h := newHarness(t, harnessOpts{})
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "true", "waitMs": 10_000}))
	time.Sleep(300 * time.Millisecond)
	expectCode(t, h.call(map[string]any{"op": "proc_status", "processId": v.ID}), wire.CodeNotFound)
}

func TestProcessOfAPlainCommandStartsWithoutBash(t *testing.T) {
	testenv.Hermetic(t, procs.BashReadsAtStart)
	h := newHarness(t, harnessOpts{})
	before := procs.DirectStarts.Load()
	v := decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "ls -d .", "waitMs": 10_000}))
	if procs.DirectStarts.Load() == before || v.Status != "done" || *v.ExitCode != 0 || len(v.Output) != 1 || v.Output[0].Data != ".\n" {
		t.Fatalf("direct %v, %+v", procs.DirectStarts.Load() > before, v)
	}
	before = procs.DirectStarts.Load()
	v = decode[procs.ProcView](t, h.call(map[string]any{"op": "proc_start", "command": "echo $((6*7))", "waitMs": 10_000}))
	if procs.DirectStarts.Load() != before || v.Output[0].Data != "42\n" {
		t.Fatalf("shell syntax must go to bash: direct %v, %+v", procs.DirectStarts.Load() > before, v)
	}
}
