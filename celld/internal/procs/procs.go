package procs

import (
	"context"
	"encoding/hex"
	"os"
	"os/exec"
	"sort"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

// Background processes (the Open Terminal model): a command keeps running after its request, its
// stdin stays open for proc_input, and its output is kept bounded and polled by entry offset.
const (
	MaxRunningProcs  = 32
	maxKeptProcs     = 64 // running plus finished; the oldest finished go first beyond this
	procKeepAfterEnd = 300 * time.Second
	ProcOutputBytes  = 1 << 20
	maxProcWaitMs    = 300_000
	maxProcInput     = 65_536
	procInputTimeout = 5 * time.Second
)

// ProcKeep is a var only so tests can shorten it.
var ProcKeep = procKeepAfterEnd

type procEntry struct {
	Type string `json:"type"`
	Data string `json:"data"`
}

type bgProc struct {
	id, command string
	run         *JobRun
	stdin       *os.File
	started     time.Time
	done        chan struct{} // closed once the shell ended, leftovers are dead and output is drained

	// guarded by procTable.mu
	entries  []procEntry
	first    int64 // absolute index of entries[0]
	kept     int   // bytes held in entries
	status   string
	exitCode *int
	ended    time.Time
	killed   bool
	inClosed bool
}

type ProcView struct {
	ID         string      `json:"id"`
	Command    string      `json:"command"`
	Status     string      `json:"status"`
	ExitCode   *int        `json:"exitCode"`
	Output     []procEntry `json:"output"`
	NextOffset int64       `json:"nextOffset"`
	Truncated  bool        `json:"truncated"`
	StartedAt  int64       `json:"startedAtMs"`
	EndedAt    *int64      `json:"endedAtMs"`
}

type procTable struct {
	mu       sync.Mutex
	procs    map[string]*bgProc
	starting int // slots reserved by starts in progress
}

func newProcTable() *procTable { return &procTable{procs: map[string]*bgProc{}} }

func newProcID() string {
	var b [6]byte
	if err := sys.RandomRead(b[:]); err != nil {
		panic(err) // no randomness: ids would be guessable
	}
	return hex.EncodeToString(b[:])
}

// prune forgets processes that ended more than procKeep ago, and the oldest finished ones beyond
// maxKeptProcs. Caller holds t.mu.
func (t *procTable) prune(now time.Time) {
	var finished []*bgProc
	for id, p := range t.procs {
		if p.status == "running" {
			continue
		}
		if now.Sub(p.ended) >= ProcKeep {
			delete(t.procs, id)
			continue
		}
		finished = append(finished, p)
	}
	if extra := len(t.procs) - maxKeptProcs; extra > 0 {
		sort.Slice(finished, func(i, j int) bool { return finished[i].ended.Before(finished[j].ended) })
		for i := 0; i < extra && i < len(finished); i++ {
			delete(t.procs, finished[i].id)
		}
	}
}

type ProcStartArgs struct {
	Command string            `json:"command"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`
	WaitMs  *int64            `json:"waitMs"`
	Tail    *int              `json:"tail"`
	// Tty runs the command on a terminal of its own (80x24), as upstream Open Terminal runs every
	// command: an interactive program (python3, a REPL) prompts and answers proc_input, ^C in the
	// input interrupts it, and stdout and stderr arrive merged as entries of type "output".
	Tty bool `json:"tty"`
}

func (s *Manager) ProcStart(ctx context.Context, req *ProcStartArgs) (any, error) {
	if n := utf8.RuneCountInString(req.Command); n < 1 || n > MaxCommandChars {
		return nil, wire.Errf(wire.CodeInvalidArgument, "command must be 1..%d characters", MaxCommandChars)
	}
	waitMs, err := procWait(req.WaitMs)
	if err != nil {
		return nil, err
	}
	if req.Tail != nil && *req.Tail < 0 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "tail must be ≥ 0")
	}
	cwd, err := s.ResolveCwdInfo(req.Cwd, true)
	if err != nil {
		return nil, err
	}
	env, err := ExecEnv(req.Env)
	if err != nil {
		return nil, err
	}
	t := s.procs
	t.mu.Lock()
	t.prune(time.Now())
	running := t.starting
	for _, p := range t.procs {
		if p.status == "running" {
			running++
		}
	}
	if running >= MaxRunningProcs {
		t.mu.Unlock()
		return nil, wire.Errf(wire.CodeTooManyProcesses, "%d background processes are running; kill or wait for one", MaxRunningProcs)
	}
	// Reserve the slot before starting, so concurrent starts cannot exceed the cap.
	t.starting++
	t.mu.Unlock()
	release := func() {
		t.mu.Lock()
		t.starting--
		t.mu.Unlock()
	}

	run, stdin, err := s.startProc(req, cwd, env)
	if err != nil {
		release()
		return nil, err
	}
	p := &bgProc{id: newProcID(), command: req.Command, status: "running", started: time.Now(), done: make(chan struct{}),
		run: run, stdin: stdin}
	t.mu.Lock()
	t.starting--
	for t.procs[p.id] != nil {
		p.id = newProcID()
	}
	t.procs[p.id] = p
	t.mu.Unlock()
	go s.superviseProc(p)
	return s.procView(ctx, p, 0, req.Tail, waitMs)
}

// startProc starts a background process and returns where its input goes: a pipe kept open, or
// the terminal's master.
func (s *Manager) startProc(req *ProcStartArgs, cwd CwdInfo, env []string) (*JobRun, *os.File, error) {
	if req.Tty {
		var master *os.File
		run, err := s.startCommand(req.Command, cwd, env, func(cmd *exec.Cmd) (*JobRun, error) {
			run, m, err := s.startPTYJob(cmd, "proc", defaultCols, defaultRows)
			master = m
			return run, err
		})
		return run, master, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, wire.Errf(wire.CodeInternal, "pipe: %v", err)
	}
	run, err := s.startCommand(req.Command, cwd, env, func(cmd *exec.Cmd) (*JobRun, error) {
		cmd.Stdin = inR
		return s.StartJob(cmd, "proc", nil)
	})
	inR.Close()
	if err != nil {
		inW.Close()
		return nil, nil, err
	}
	return run, inW, nil
}

// superviseProc collects output until the shell ends, kills its leftovers like exec does, and
// records the exit status only after the output is complete.
func (s *Manager) superviseProc(p *bgProc) {
	var wg sync.WaitGroup
	if p.run.stderr == nil { // a terminal: one stream, read until EIO (every holder of the slave ended)
		wg.Add(1)
		go func() { defer wg.Done(); s.collect(p, "output", p.run.stdout) }()
	} else {
		wg.Add(2)
		go func() { defer wg.Done(); s.collect(p, "stdout", p.run.stdout) }()
		go func() { defer wg.Done(); s.collect(p, "stderr", p.run.stderr) }()
	}
	ws := <-p.run.wait
	s.jobs.finish(p.run.job)
	drained := make(chan struct{})
	go func() { wg.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(KillGrace):
		p.run.closeOutput()
		<-drained
	}
	code := exitCode(ws)
	s.procs.mu.Lock()
	p.exitCode = &code
	p.ended = time.Now()
	p.status = "done"
	if p.killed {
		p.status = "killed"
	}
	p.inClosed = true
	s.procs.mu.Unlock()
	p.stdin.Close()
	close(p.done)
}

// collect appends one stream's output as entries (whole UTF-8 characters, chunks as read), dropping
// the oldest entries once the process holds more than procOutputBytes.
func (s *Manager) collect(p *bgProc, stream string, r *os.File) {
	buf := make([]byte, ReadChunk)
	var pending []byte
	add := func(b []byte) {
		if len(b) == 0 {
			return
		}
		t := s.procs
		t.mu.Lock()
		p.entries = append(p.entries, procEntry{Type: stream, Data: string(b)})
		p.kept += len(b)
		drop := 0
		for p.kept > ProcOutputBytes && drop < len(p.entries)-1 {
			p.kept -= len(p.entries[drop].Data)
			drop++
		}
		if drop > 0 {
			p.entries = append([]procEntry(nil), p.entries[drop:]...)
			p.first += int64(drop)
		}
		t.mu.Unlock()
	}
	for {
		n, err := r.Read(buf)
		if n > 0 {
			chunk := append(pending, buf[:n]...)
			cut := completeUTF8(chunk)
			add(chunk[:cut])
			pending = append([]byte(nil), chunk[cut:]...)
		}
		if err != nil {
			break
		}
	}
	add(pending)
	if r != p.stdin { // a terminal's master is also the input: superviseProc closes it
		r.Close()
	}
}

func procWait(w *int64) (time.Duration, error) {
	if w == nil {
		return 0, nil
	}
	if *w < 0 || *w > maxProcWaitMs {
		return 0, wire.Errf(wire.CodeInvalidArgument, "waitMs must be 0..%d", maxProcWaitMs)
	}
	return time.Duration(*w) * time.Millisecond, nil
}

func (s *Manager) lookupProc(id string) (*bgProc, error) {
	t := s.procs
	t.mu.Lock()
	defer t.mu.Unlock()
	t.prune(time.Now())
	p, ok := t.procs[id]
	if !ok || id == "" {
		return nil, wire.Errf(wire.CodeNotFound, "no process %q", id)
	}
	return p, nil
}

type ProcStatusArgs struct {
	ProcID string `json:"processId"`
	Offset *int64 `json:"offset"`
	Tail   *int   `json:"tail"`
	WaitMs *int64 `json:"waitMs"`
}

func (s *Manager) ProcStatus(ctx context.Context, req *ProcStatusArgs) (any, error) {
	p, err := s.lookupProc(req.ProcID)
	if err != nil {
		return nil, err
	}
	waitMs, err := procWait(req.WaitMs)
	if err != nil {
		return nil, err
	}
	offset := int64(0)
	if req.Offset != nil {
		offset = *req.Offset
	}
	if offset < 0 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "offset must be ≥ 0")
	}
	if req.Tail != nil && *req.Tail < 0 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "tail must be ≥ 0")
	}
	return s.procView(ctx, p, offset, req.Tail, waitMs)
}

// procView waits up to wait for the process to end (answering as soon as it does), then returns
// the entries from offset, or only the last tail of them.
func (s *Manager) procView(ctx context.Context, p *bgProc, offset int64, tail *int, wait time.Duration) (any, error) {
	if wait > 0 {
		timer := time.NewTimer(wait)
		select {
		case <-p.done:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
	}
	t := s.procs
	t.mu.Lock()
	defer t.mu.Unlock()
	v := p.view()
	total := p.first + int64(len(p.entries))
	from := offset
	if from < p.first {
		from = p.first
	}
	if tail != nil && total-int64(*tail) > from {
		from = total - int64(*tail)
	}
	if from > total {
		from = total
	}
	v.Output = append([]procEntry{}, p.entries[from-p.first:]...)
	v.Truncated = from > offset && offset < total
	return v, nil
}

// view is the process without output. Caller holds the table lock.
func (p *bgProc) view() ProcView {
	v := ProcView{ID: p.id, Command: p.command, Status: p.status, ExitCode: p.exitCode, Output: []procEntry{},
		NextOffset: p.first + int64(len(p.entries)), StartedAt: p.started.UnixMilli()}
	if !p.ended.IsZero() {
		ms := p.ended.UnixMilli()
		v.EndedAt = &ms
	}
	return v
}

type ProcInputArgs struct {
	ProcID string  `json:"processId"`
	Data   *string `json:"data"`
}

func (s *Manager) ProcInput(req *ProcInputArgs) (any, error) {
	p, err := s.lookupProc(req.ProcID)
	if err != nil {
		return nil, err
	}
	if req.Data == nil {
		return nil, wire.Errf(wire.CodeInvalidArgument, "data is required")
	}
	if len(*req.Data) > maxProcInput {
		return nil, wire.Errf(wire.CodeInvalidArgument, "input exceeds %d bytes", maxProcInput)
	}
	s.procs.mu.Lock()
	closed := p.inClosed
	s.procs.mu.Unlock()
	if closed {
		return nil, wire.Errf(wire.CodeProcessExited, "process %s has ended", p.id)
	}
	// A process that stops reading must not hold this request forever.
	p.stdin.SetWriteDeadline(time.Now().Add(procInputTimeout))
	n, err := p.stdin.WriteString(*req.Data)
	if err != nil {
		select {
		case <-p.done:
			return nil, wire.Errf(wire.CodeProcessExited, "process %s has ended", p.id)
		default:
		}
		if os.IsTimeout(err) {
			return nil, wire.Errf(wire.CodeTimeout, "process %s did not read its input within %s (%d of %d bytes written)", p.id, procInputTimeout, n, len(*req.Data))
		}
		return nil, wire.Errf(wire.CodeProcessExited, "process %s no longer reads its input: %v", p.id, err)
	}
	s.procs.mu.Lock()
	defer s.procs.mu.Unlock()
	return p.view(), nil
}

type ProcKillArgs struct {
	ProcID string `json:"processId"`
	Force  bool   `json:"force"`
}

func (s *Manager) ProcKill(ctx context.Context, req *ProcKillArgs) (any, error) {
	p, err := s.lookupProc(req.ProcID)
	if err != nil {
		return nil, err
	}
	s.procs.mu.Lock()
	running := p.status == "running"
	if running {
		p.killed = true
	}
	s.procs.mu.Unlock()
	if running {
		if req.Force {
			s.jobs.signal(p.run.job, syscall.SIGKILL)
		} else {
			s.jobs.signal(p.run.job, syscall.SIGTERM)
			select {
			case <-p.done:
			case <-time.After(KillGrace):
				s.jobs.signal(p.run.job, syscall.SIGKILL)
			}
		}
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
		case <-ctx.Done():
		}
	}
	s.procs.mu.Lock()
	defer s.procs.mu.Unlock()
	return p.view(), nil
}

func (s *Manager) ProcList() (any, error) {
	t := s.procs
	t.mu.Lock()
	defer t.mu.Unlock()
	t.prune(time.Now())
	views := make([]ProcView, 0, len(t.procs))
	for _, p := range t.procs {
		views = append(views, p.view())
	}
	sort.Slice(views, func(i, j int) bool {
		if views[i].StartedAt != views[j].StartedAt {
			return views[i].StartedAt < views[j].StartedAt
		}
		return views[i].ID < views[j].ID
	})
	return map[string]any{"processes": views}, nil
}

// killAllProcs is for shutdown: every background process's job gets SIGKILL (jobs.killAll reaps).
func (s *Manager) KillAllProcs() {
	s.procs.mu.Lock()
	var runs []*JobRun
	for _, p := range s.procs.procs {
		if p.status == "running" && p.run != nil {
			runs = append(runs, p.run)
		}
	}
	s.procs.mu.Unlock()
	for _, r := range runs {
		s.jobs.signal(r.job, syscall.SIGKILL)
	}
}
