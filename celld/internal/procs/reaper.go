package procs

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"unsafe"

	"workcell.dev/celld/internal/sys"
)

// celld is PR_SET_CHILD_SUBREAPER, so every orphan a command leaves behind is reparented to it.
// This file is the only place that calls wait4: one loop reaps every child, handing the status of
// a started process to its waiter and silently reaping orphans. Never use exec.Cmd.Wait/Run here.

type childReaper struct {
	mu      sync.Mutex
	waiters map[int]chan syscall.WaitStatus
}

var (
	reaperOnce sync.Once
	theReaper  *childReaper
)

func Reaper() *childReaper {
	reaperOnce.Do(func() {
		if err := sys.SetChildSubreaper(); err != nil {
			fmt.Fprintf(os.Stderr, "celld: PR_SET_CHILD_SUBREAPER: %v\n", err)
		}
		theReaper = &childReaper{waiters: map[int]chan syscall.WaitStatus{}}
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGCHLD)
		go func() {
			for range sig {
				theReaper.reapAll()
			}
		}()
	})
	return theReaper
}

// start launches cmd and registers its waiter while holding the lock, so the reap loop cannot
// collect the exit status before anyone is listening for it.
// The start time is read while the child cannot have been reaped, so it identifies the process.
func (r *childReaper) Start(cmd *exec.Cmd) (<-chan syscall.WaitStatus, uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return nil, 0, err
	}
	ch := make(chan syscall.WaitStatus, 1)
	r.waiters[cmd.Process.Pid] = ch
	p, _ := ReadProcStat(cmd.Process.Pid)
	return ch, p.start, nil
}

func (r *childReaper) registered(pid int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.waiters[pid]
	return ok
}

func (r *childReaper) reapAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || pid <= 0 {
			return
		}
		if ch, ok := r.waiters[pid]; ok {
			ch <- ws
			delete(r.waiters, pid)
		}
	}
}

// hasChildren reports whether celld has any child process, running or zombie, without reaping:
// waitid(P_ALL, WEXITED|WNOHANG|WNOWAIT) fails with ECHILD only when there is none. Without a
// child no process below celld exists at all (orphans are reparented before their parent becomes
// a zombie).
func hasChildren() bool {
	var info [128]byte // siginfo_t, unused
	_, _, e := syscall.Syscall6(syscall.SYS_WAITID, 0 /* P_ALL */, 0, uintptr(unsafe.Pointer(&info[0])),
		syscall.WEXITED|syscall.WNOHANG|syscall.WNOWAIT, 0, 0)
	return e != syscall.ECHILD
}
