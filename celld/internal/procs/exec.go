// Package procs runs commands: exec, background processes, their jobs (every process a command
// leaves behind is found and killed) and the subreaper that is the only caller of wait4.
package procs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/framing"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

const (
	MaxCommandChars   = 20_000
	defaultTimeoutSec = 120
	maxTimeoutSec     = 600
	KillGrace         = 2 * time.Second
	maxStdinBytes     = 2_000_000
	maxEnvBytes       = 256 << 10
	ReadChunk         = 16 << 10
	// maxExecOutput bounds a per-request maxOutput (a reply over the frame limit is file_too_large).
	maxExecOutput = 2_500_000
)

func Shell() string {
	if st, err := os.Stat("/bin/bash"); err == nil && st.Mode().IsRegular() {
		return "/bin/bash"
	}
	return "/bin/sh"
}

// ExecEnv is celld's own environment with the request's overrides; CELLD_JOB is set by the job table.
func ExecEnv(extra map[string]string) ([]string, error) {
	size := 0
	for k, v := range extra {
		if !validEnvName(k) || strings.IndexByte(v, 0) >= 0 {
			return nil, wire.Errf(wire.CodeInvalidArgument, "invalid environment variable %q", k)
		}
		if k == JobEnv {
			return nil, wire.Errf(wire.CodeInvalidArgument, "%s is reserved", JobEnv)
		}
		size += len(k) + len(v) + 2
	}
	if size > maxEnvBytes {
		return nil, wire.Errf(wire.CodeInvalidArgument, "environment overrides exceed %d bytes", maxEnvBytes)
	}
	var env []string
	for _, kv := range os.Environ() {
		k := kv
		if i := strings.IndexByte(kv, '='); i >= 0 {
			k = kv[:i]
		}
		if _, overridden := extra[k]; !overridden && k != JobEnv {
			env = append(env, kv)
		}
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env, nil
}

func validEnvName(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// resolveCwd checks a working directory beneath root. The command itself is not confined (it runs
// with the sandbox user's rights anyway), so a path string for exec.Cmd.Dir is sufficient.
func (s *Manager) ResolveCwd(cwd string) (string, error) {
	info, err := s.ResolveCwdInfo(cwd, false)
	return info.dir, err
}

// resolveCwdInfo is resolveCwd that can also report the directory's identity and the kernel's name
// for it (what getcwd in the command would return; "" when unknown), as direct exec needs them.
func (s *Manager) ResolveCwdInfo(cwd string, identify bool) (CwdInfo, error) {
	p, perr := confine.CleanPath(cwd)
	if perr != nil {
		return CwdInfo{}, perr
	}
	fd, err := s.root.Open(p, sys.OPath|syscall.O_DIRECTORY, 0, confine.FollowBeneath)
	if err != nil {
		return CwdInfo{}, wire.FSError(err, p)
	}
	defer syscall.Close(fd)
	info := CwdInfo{dir: s.root.Path()}
	if p != "." {
		info.dir = filepath.Join(s.root.Path(), p)
	}
	if identify {
		st, serr := sys.Fstat(fd)
		name, lerr := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		if serr == nil && lerr == nil && strings.HasPrefix(name, "/") && !strings.HasSuffix(name, " (deleted)") {
			info.physical, info.dev, info.ino = name, uint64(st.Dev), st.Ino
		}
	}
	return info, nil
}

type ExecResult struct {
	ExitCode   int    `json:"exitCode"`
	DurationMs int64  `json:"durationMs"`
	Truncated  bool   `json:"truncated"`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	TimedOut   bool   `json:"timedOut"`
}

// ExecArgs are exec's arguments; the request id names its output events.
type ExecArgs struct {
	Command    string            `json:"command"`
	TimeoutSec *int              `json:"timeoutSec"`
	Cwd        string            `json:"cwd"`
	Env        map[string]string `json:"env"`
	Stdin      *string           `json:"stdin"`
	Quiet      bool              `json:"quiet"`
	MaxOutput  *int              `json:"maxOutput"`
}

func (s *Manager) Exec(ctx context.Context, id int64, req *ExecArgs) (any, error) {
	if n := utf8.RuneCountInString(req.Command); n < 1 || n > MaxCommandChars {
		return nil, wire.Errf(wire.CodeInvalidArgument, "command must be 1..%d characters", MaxCommandChars)
	}
	timeout := defaultTimeoutSec
	if req.TimeoutSec != nil {
		timeout = *req.TimeoutSec
	}
	if timeout < 1 || timeout > maxTimeoutSec {
		return nil, wire.Errf(wire.CodeInvalidArgument, "timeoutSec must be 1..%d", maxTimeoutSec)
	}
	if req.Stdin != nil && len(*req.Stdin) > maxStdinBytes {
		return nil, wire.Errf(wire.CodeInvalidArgument, "stdin exceeds %d bytes", maxStdinBytes)
	}
	limit := s.maxOutput
	if req.MaxOutput != nil {
		if *req.MaxOutput < 100 || *req.MaxOutput > maxExecOutput {
			return nil, wire.Errf(wire.CodeInvalidArgument, "maxOutput must be 100..%d", maxExecOutput)
		}
		limit = *req.MaxOutput
	}
	cwd, err := s.ResolveCwdInfo(req.Cwd, true)
	if err != nil {
		return nil, err
	}
	env, err := ExecEnv(req.Env)
	if err != nil {
		return nil, err
	}
	run, err := s.startCommand(req.Command, cwd, env, func(cmd *exec.Cmd) (*JobRun, error) { return s.StartJob(cmd, "exec", req.Stdin) })
	if err != nil {
		return nil, err
	}
	started := time.Now()
	// The cap is on both streams together; each buffer holds enough of its stream for any share.
	stdout := newHeadTail(limit)
	stderrBuf := newHeadTail(limit)
	budget := &streamBudget{limit: limit}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.pump(id, "stdout", run.stdout, stdout, budget, req.Quiet) }()
	go func() { defer wg.Done(); s.pump(id, "stderr", run.stderr, stderrBuf, budget, req.Quiet) }()

	timer := time.NewTimer(time.Duration(timeout) * time.Second)
	defer timer.Stop()
	var ws syscall.WaitStatus
	timedOut, cancelled := false, false
	select {
	case ws = <-run.wait:
	case <-timer.C:
		timedOut = true
		ws = s.terminate(run)
	case <-ctx.Done():
		cancelled = true
		ws = s.terminate(run)
	}
	s.jobs.finish(run.job)
	// Every writer is dead now; if a pipe is still held somewhere unexpected, stop waiting after a grace.
	drained := make(chan struct{})
	go func() { wg.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(KillGrace):
		run.closeOutput()
		<-drained
	}
	if cancelled {
		return nil, wire.Errf(wire.CodeCancelled, "command cancelled")
	}
	outStr, errStr, truncated := keepBoth(stdout, stderrBuf, limit)
	return ExecResult{
		ExitCode:   exitCode(ws),
		DurationMs: time.Since(started).Milliseconds(),
		Truncated:  truncated,
		Stdout:     outStr,
		Stderr:     errStr,
		TimedOut:   timedOut,
	}, nil
}

// DirectStarts counts commands that skipped bash (tests check which path ran).
var DirectStarts atomic.Int64

// startCommand starts command as a job through start (pipes, a pipe for stdin, or a terminal): the
// program itself when bash would only exec it (see direct.go), otherwise, or when that exec fails,
// `bash -c command`.
func (s *Manager) startCommand(command string, cwd CwdInfo, env []string, start func(*exec.Cmd) (*JobRun, error)) (*JobRun, error) {
	if d, ok := DirectCommand(command, env, cwd); ok {
		if run, err := start(&exec.Cmd{Path: d.path, Args: d.argv, Dir: cwd.dir, Env: d.env}); err == nil {
			DirectStarts.Add(1)
			return run, nil
		}
	}
	sh := Shell()
	return start(&exec.Cmd{Path: sh, Args: []string{sh, "-c", command}, Dir: cwd.dir, Env: env})
}

// terminate sends SIGTERM to the job, then SIGKILL after the grace, and returns the root's status.
func (s *Manager) terminate(run *JobRun) syscall.WaitStatus {
	s.jobs.signal(run.job, syscall.SIGTERM)
	select {
	case ws := <-run.wait:
		return ws
	case <-time.After(KillGrace):
	}
	s.jobs.signal(run.job, syscall.SIGKILL)
	return <-run.wait
}

func exitCode(ws syscall.WaitStatus) int {
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		return 128 + int(ws.Signal())
	default:
		return -1
	}
}

// JobRun is a started job with the read ends of its output pipes.
type JobRun struct {
	job            *job
	wait           <-chan syscall.WaitStatus
	stdout, stderr *os.File
}

// startJob starts cmd in its own session with stdout/stderr pipes and optional stdin text.
// The child gets the pipes as plain fds so no Go copier goroutine keeps them open.
func (s *Manager) StartJob(cmd *exec.Cmd, kind string, stdin *string) (*JobRun, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, wire.Errf(wire.CodeInternal, "pipe: %v", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, wire.Errf(wire.CodeInternal, "pipe: %v", err)
	}
	var inR, inW *os.File
	if stdin != nil && *stdin != "" {
		if inR, inW, err = os.Pipe(); err != nil {
			outR.Close()
			outW.Close()
			errR.Close()
			errW.Close()
			return nil, wire.Errf(wire.CodeInternal, "pipe: %v", err)
		}
		cmd.Stdin = inR
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	j, wait, err := s.jobs.start(cmd, kind)
	outW.Close()
	errW.Close()
	if inR != nil {
		inR.Close()
	}
	if err != nil {
		outR.Close()
		errR.Close()
		if inW != nil {
			inW.Close()
		}
		return nil, wire.Errf(wire.CodeInternal, "starting %s: %v", cmd.Path, err)
	}
	if inW != nil {
		go func() {
			inW.WriteString(*stdin) // EPIPE when the command ignores stdin is fine
			inW.Close()
		}()
	}
	return &JobRun{job: j, wait: wait, stdout: outR, stderr: errR}, nil
}

// Manager runs commands beneath one root: exec, background processes, and the jobs that track
// every process they start.
type Manager struct {
	root      *confine.Root
	maxOutput int
	out       *framing.Writer
	jobs      *jobTable
	procs     *procTable
	ptys      *ptyTable
}

// New returns a Manager whose exec output events go to out.
func New(root *confine.Root, maxOutput int, out *framing.Writer) *Manager {
	return &Manager{root: root, maxOutput: maxOutput, out: out, jobs: newJobTable(), procs: newProcTable(),
		ptys: &ptyTable{sessions: map[int64]*ptySession{}}}
}

// KillAllJobs SIGKILLs every process of every job and reaps them (for shutdown).
func (s *Manager) KillAllJobs() { s.jobs.killAll() }

// closeOutput closes the read ends (a terminal has no separate stderr), ending the readers.
func (r *JobRun) closeOutput() {
	r.stdout.Close()
	if r.stderr != nil {
		r.stderr.Close()
	}
}

// Output is the job's stdout and stderr pipes.
func (r *JobRun) Output() (stdout, stderr *os.File) { return r.stdout, r.stderr }

// Exited delivers the wait status once the job's first process ended.
func (r *JobRun) Exited() <-chan syscall.WaitStatus { return r.wait }

// Pid is the job's first process.
func (r *JobRun) Pid() int { return r.job.pid }

// Finish kills what the job left behind once its first process ended.
func (s *Manager) Finish(r *JobRun) { s.jobs.finish(r.job) }

// Signal sends sig to every process of the job.
func (s *Manager) Signal(r *JobRun, sig syscall.Signal) { s.jobs.signal(r.job, sig) }
