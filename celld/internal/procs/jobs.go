package procs

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"workcell.dev/celld/internal/identity"
	"workcell.dev/celld/internal/sys"
)

// job is one exec or the preview process: a session leader whose descendants carry CELLD_JOB=id.
type job struct {
	id    string
	pid   int    // session leader, so also the session and process-group id
	start uint64 // root's start time: pid plus start time survive pid reuse
	live  bool
}

// jobTable attributes every process below celld to a job so a finishing job kills only its own.
type jobTable struct {
	mu    sync.Mutex
	nonce string
	seq   int
	jobs  map[string]*job
	self  int
}

const JobEnv = "CELLD_JOB"

func newJobTable() *jobTable {
	var b [6]byte
	sys.RandomRead(b[:])
	return &jobTable{nonce: hex.EncodeToString(b[:]), jobs: map[string]*job{}, self: os.Getpid()}
}

// start runs cmd (already configured with Setsid) as a new job. Starting under the table lock
// means a concurrent cleanup never sees the fresh child before it is attributed.
func (t *jobTable) start(cmd *exec.Cmd, kind string) (*job, <-chan syscall.WaitStatus, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seq++
	j := &job{id: fmt.Sprintf("%s.%s%d", t.nonce, kind, t.seq)}
	cmd.Env = append(cmd.Env, JobEnv+"="+j.id)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid = true
	// As the workload user: its execve drops celld's capabilities (none are inheritable).
	cmd.SysProcAttr.Credential = identity.Workload
	ch, start, err := Reaper().Start(cmd)
	if err != nil {
		return nil, nil, err
	}
	j.pid, j.start, j.live = cmd.Process.Pid, start, true
	t.jobs[j.id] = j
	return j, ch, nil
}

func (t *jobTable) rootExited(j *job) {
	t.mu.Lock()
	j.live = false
	t.mu.Unlock()
}

type procInfo struct {
	pid, ppid, sid int
	start          uint64
	State          byte
}

// ReadProcStat parses /proc/PID/stat; comm may contain spaces and parentheses, so split after the last ')'.
func ReadProcStat(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return procInfo{}, false
	}
	f := bytes.Fields(b[i+2:])
	// fields after comm: state(0) ppid(1) pgrp(2) session(3) ... starttime(19)
	if len(f) < 20 {
		return procInfo{}, false
	}
	p := procInfo{pid: pid, State: f[0][0]}
	p.ppid, _ = strconv.Atoi(string(f[1]))
	p.sid, _ = strconv.Atoi(string(f[3]))
	p.start, _ = strconv.ParseUint(string(f[19]), 10, 64)
	return p, true
}

func listProcs() []procInfo {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	procs := make([]procInfo, 0, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if p, ok := ReadProcStat(pid); ok {
			procs = append(procs, p)
		}
	}
	return procs
}

// envMarker returns the CELLD_JOB value a process started with, or "".
func envMarker(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return ""
	}
	key := []byte(JobEnv + "=")
	for _, kv := range bytes.Split(b, []byte{0}) {
		if bytes.HasPrefix(kv, key) {
			return string(kv[len(key):])
		}
	}
	return ""
}

// leftovers lists the live processes below celld that belong to j, plus (withOrphans) orphans
// reparented to celld that no job can claim. Caller holds t.mu.
func (t *jobTable) leftovers(j *job, withOrphans bool) []procInfo {
	procs := listProcs()
	children := map[int][]int{}
	byPid := make(map[int]procInfo, len(procs))
	for _, p := range procs {
		byPid[p.pid] = p
		children[p.ppid] = append(children[p.ppid], p.pid)
	}
	var out []procInfo
	var visit func(pid int)
	visit = func(pid int) {
		p := byPid[pid]
		if p.State != 'Z' && p.State != 'X' {
			out = append(out, p)
		}
		for _, c := range children[pid] {
			visit(c)
		}
	}
	for _, c := range children[t.self] {
		owner, ok := t.ownerOf(byPid[c])
		if ok && (owner == j.id || (owner == "" && withOrphans)) {
			visit(c)
		}
	}
	return out
}

// ownerOf attributes a direct child of celld: a live job root, then the CELLD_JOB marker it
// inherited, then its session. ok=false for processes that are not jobs' at all (e.g. a test's helper).
func (t *jobTable) ownerOf(p procInfo) (string, bool) {
	for _, j := range t.jobs {
		if j.live && j.pid == p.pid && j.start == p.start {
			return j.id, true
		}
	}
	if Reaper().registered(p.pid) {
		return "", false
	}
	if m := envMarker(p.pid); m != "" {
		if _, ok := t.jobs[m]; ok {
			return m, true
		}
	}
	for _, j := range t.jobs {
		if j.pid == p.sid {
			return j.id, true
		}
	}
	return "", true
}

// killIfSame signals pid only if it is still the process we saw. A pidfd pins the process before
// its start time is checked, so a pid reused meanwhile is never hit: with CAP_KILL celld could
// otherwise signal another user's process that took the number.
func killIfSame(p procInfo, sig syscall.Signal) {
	fd, err := sys.PidfdOpen(p.pid)
	if err == syscall.ESRCH {
		return
	}
	if err != nil {
		// No pidfd (kernel before 5.3, or a seccomp profile without it): check, then kill.
		if cur, ok := ReadProcStat(p.pid); ok && cur.start == p.start {
			syscall.Kill(p.pid, sig)
		}
		return
	}
	defer syscall.Close(fd)
	if cur, ok := ReadProcStat(p.pid); ok && cur.start == p.start {
		sys.PidfdSendSignal(fd, sig)
	}
}

// signal sends sig to the job's process group and to every process attributed to it.
func (t *jobTable) signal(j *job, sig syscall.Signal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// The group id is the root's pid; signal the group only while that pid is provably still ours.
	if root, ok := ReadProcStat(j.pid); ok && root.start == j.start {
		syscall.Kill(-j.pid, sig)
	}
	for _, p := range t.leftovers(j, false) {
		killIfSame(p, sig)
	}
}

// finish SIGKILLs everything the job left behind (and unclaimed orphans) until none remain,
// then forgets the job. Only the root must have exited; the reap loop collects the rest.
func (t *jobTable) finish(j *job) {
	if !hasChildren() {
		// Nothing below celld at all (the usual end of a short command): skip the /proc scan.
		t.mu.Lock()
		j.live = false
		delete(t.jobs, j.id)
		t.mu.Unlock()
		return
	}
	deadline := time.Now().Add(5 * time.Second)
	for delay := time.Millisecond; ; delay *= 2 {
		t.mu.Lock()
		j.live = false
		left := t.leftovers(j, true)
		for _, p := range left {
			killIfSame(p, syscall.SIGKILL)
		}
		if len(left) == 0 || time.Now().After(deadline) {
			delete(t.jobs, j.id)
			t.mu.Unlock()
			if len(left) > 0 {
				fmt.Fprintf(os.Stderr, "celld: %d processes of %s survived SIGKILL\n", len(left), j.id)
			}
			return
		}
		t.mu.Unlock()
		if delay > 50*time.Millisecond {
			delay = 50 * time.Millisecond
		}
		time.Sleep(delay)
	}
}

// killAll is for shutdown: every job's processes get SIGKILL.
func (t *jobTable) killAll() {
	t.mu.Lock()
	jobs := make([]*job, 0, len(t.jobs))
	for _, j := range t.jobs {
		jobs = append(jobs, j)
	}
	t.mu.Unlock()
	for _, j := range jobs {
		t.finish(j)
	}
}
