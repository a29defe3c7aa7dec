package procs

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func TestHasChildrenSeesARunningAndAnExitedChild(t *testing.T) {
	cmd := exec.Command("sleep", "0.3")
	exit, _, err := Reaper().Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if !hasChildren() {
		t.Fatal("a running child was not seen")
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGSTOP) // hold the child: stopped is still a child
	if !hasChildren() {
		t.Fatal("a stopped child was not seen")
	}
	syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
	select {
	case ws := <-exit:
		if !ws.Signaled() {
			t.Fatalf("status %v", ws)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the child was not reaped")
	}
}
