package procs

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// TestKillIfSameSparesAnotherProcessOnTheSamePid: a start time that does not match is another process.
func TestKillIfSameSparesAnotherProcessOnTheSamePid(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	exit, start, err := Reaper().Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	killIfSame(procInfo{pid: cmd.Process.Pid, start: start + 1}, syscall.SIGKILL)
	select {
	case ws := <-exit:
		t.Fatalf("a process with another start time was killed: %v", ws)
	case <-time.After(200 * time.Millisecond):
	}
	killIfSame(procInfo{pid: cmd.Process.Pid, start: start}, syscall.SIGKILL)
	select {
	case ws := <-exit:
		if ws.Signal() != syscall.SIGKILL {
			t.Fatalf("%v", ws)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the process we saw was not killed")
	}
}
