package procs

import (
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"workcell.dev/celld/internal/wire"
)

// Interactive terminals. A session is one pty_open request that stays in flight while the session
// lives: its id names the session in pty_input, pty_resize, pty_ack and pty_close, its events carry
// the output, and its final reply (the exit status) comes after the last output. Losing the channel
// cancels every request in flight, which kills every session's processes.
//
// Backpressure is credit, not a buffer: celld sends at most `window` bytes of output the caller has
// not acknowledged (pty_ack), and while it has no credit it simply stops reading the master. The
// kernel's pty buffer then fills and the program blocks in write(2), exactly as on a slow real
// terminal, so no memory anywhere grows with a slow reader and no output is lost (a drop-oldest
// ring would corrupt the screen: a terminal's output is a stream of escape sequences, not lines).
// Input travels the other way on its own ops, never behind output: ^C written to the master reaches
// the line discipline, which signals the foreground process group, however much output is waiting.
// Output is coalesced without delay: a read takes what is there, then whatever else is already
// buffered, up to 32 KiB, so a keystroke's echo goes out at once and a flood goes out in big frames.
const (
	MaxPTYSessions    = 16
	defaultPTYWindow  = 256 << 10
	minPTYWindow      = 4 << 10
	maxPTYWindow      = 4 << 20
	ptyChunk          = 32 << 10
	maxPTYInput       = 65_536
	ptyInputTimeout   = 5 * time.Second
	defaultTerminalTE = "xterm-256color"
)

type ptySession struct {
	master *os.File
	run    *JobRun
	kill   context.CancelFunc
	wake   chan struct{} // credit arrived or the session is closing
	inMu   sync.Mutex    // one input write at a time, in order

	mu     sync.Mutex
	credit int
}

type ptyTable struct {
	mu       sync.Mutex
	sessions map[int64]*ptySession
}

// PTYOpenArgs open a session: a login shell (or command) on a cols x rows terminal in cwd (beneath
// the root: /workspace for a task, the home for a user), with TERM=xterm-256color unless env says
// otherwise. window is the output credit in bytes.
type PTYOpenArgs struct {
	Cols    int               `json:"cols"`
	Rows    int               `json:"rows"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`
	Command string            `json:"command"`
	Window  int               `json:"window"`
	// RawOutput: output events are bulk frames (the bytes raw after the JSON) instead of base64 in
	// JSON, which costs a third more bytes and an encode and a decode per chunk. Callers that do not
	// ask get base64, as before.
	RawOutput bool `json:"rawOutput"`
}

type ptyStarted struct {
	ID    int64  `json:"id"`
	Event string `json:"event"`
	Pid   int    `json:"pid"`
}

type ptyOutput struct {
	ID    int64  `json:"id"`
	Event string `json:"event"`
	Data  string `json:"data,omitempty"` // base64: terminal output is bytes, and base64 costs a fixed 4/3
	Bulk  string `json:"bulk,omitempty"` // "data": the bytes follow the JSON raw (PTYOpenArgs.RawOutput)
}

// PTYResult is the final reply once the session's processes ended and all output was sent.
type PTYResult struct {
	ExitCode int  `json:"exitCode"`
	Closed   bool `json:"closed"` // ended by pty_close, cancel or shutdown rather than by itself
}

// PTYOpen runs a session until it ends; id is the request id, which names the session.
func (s *Manager) PTYOpen(ctx context.Context, id int64, req *PTYOpenArgs) (any, error) {
	cols, rows, err := winSize(req.Cols, req.Rows)
	if err != nil {
		return nil, err
	}
	window := req.Window
	if window == 0 {
		window = defaultPTYWindow
	}
	if window < minPTYWindow || window > maxPTYWindow {
		return nil, wire.Errf(wire.CodeInvalidArgument, "window must be %d..%d bytes", minPTYWindow, maxPTYWindow)
	}
	if n := len([]rune(req.Command)); n > MaxCommandChars {
		return nil, wire.Errf(wire.CodeInvalidArgument, "command must be at most %d characters", MaxCommandChars)
	}
	cwd, err := s.ResolveCwdInfo(req.Cwd, true)
	if err != nil {
		return nil, err
	}
	extra := map[string]string{"TERM": defaultTerminalTE}
	for k, v := range req.Env {
		extra[k] = v
	}
	env, err := ExecEnv(extra)
	if err != nil {
		return nil, err
	}
	t := s.ptys
	t.mu.Lock()
	if len(t.sessions) >= MaxPTYSessions {
		t.mu.Unlock()
		return nil, wire.Errf(wire.CodeTooManyProcesses, "%d terminal sessions are open; close one", MaxPTYSessions)
	}
	ctx, kill := context.WithCancel(ctx)
	defer kill()
	sess := &ptySession{kill: kill, wake: make(chan struct{}, 1), credit: window}
	t.sessions[id] = sess // reserved before the start, so concurrent opens cannot exceed the cap
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.sessions, id)
		t.mu.Unlock()
	}()

	start := func(cmd *exec.Cmd) (*JobRun, error) {
		run, master, err := s.startPTYJob(cmd, "pty", cols, rows)
		sess.master = master
		return run, err
	}
	var run *JobRun
	if req.Command == "" {
		sh := Shell()
		run, err = start(&exec.Cmd{Path: sh, Args: []string{sh, "-l"}, Dir: cwd.dir, Env: env})
	} else {
		run, err = s.startCommand(req.Command, cwd, env, start)
	}
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	sess.run = run // now pty_input and the others find it
	t.mu.Unlock()
	s.out.Send(ptyStarted{ID: id, Event: "pty_started", Pid: run.Pid()})

	sent := make(chan struct{})
	go func() { defer close(sent); s.pumpPTY(ctx, id, sess, req.RawOutput) }()
	var ws syscall.WaitStatus
	closed := false
	select {
	case ws = <-run.wait:
	case <-ctx.Done():
		closed = true
		s.jobs.signal(run.job, syscall.SIGKILL)
		ws = <-run.wait
	}
	// Whatever the shell left behind dies too; then the slave has no holder and the pump reads EIO.
	s.jobs.finish(run.job)
	select {
	case <-sent:
	case <-ctx.Done():
		closed = true
	}
	sess.master.Close() // wakes a pump blocked in read; a pump waiting for credit sees ctx
	<-sent
	return PTYResult{ExitCode: exitCode(ws), Closed: closed}, nil
}

// pumpPTY sends output while there is credit, coalescing what is already buffered into one event.
func (s *Manager) pumpPTY(ctx context.Context, id int64, sess *ptySession, raw bool) {
	buf := make([]byte, ptyChunk)
	for {
		limit := sess.waitCredit(ctx)
		if limit == 0 {
			return
		}
		if limit > len(buf) {
			limit = len(buf)
		}
		n, err := sess.master.Read(buf[:limit])
		if n > 0 {
			n += readBuffered(sess.master, buf[n:limit])
			sess.mu.Lock()
			sess.credit -= n
			sess.mu.Unlock()
			var err error
			if raw {
				err = s.out.SendBulkEvent(ptyOutput{ID: id, Event: "pty_output", Bulk: "data"}, buf[:n])
			} else {
				err = s.out.Send(ptyOutput{ID: id, Event: "pty_output", Data: base64.StdEncoding.EncodeToString(buf[:n])})
			}
			if err != nil {
				return
			}
		}
		if err != nil { // EIO: every holder of the slave is gone; or the master was closed
			return
		}
	}
}

// readBuffered reads what the master already holds without waiting (the pty hands out at most a
// few KiB per read).
func readBuffered(f *os.File, buf []byte) int {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	total := 0
	rc.Read(func(fd uintptr) bool {
		for total < len(buf) {
			n, err := syscall.Read(int(fd), buf[total:])
			if n <= 0 || err != nil {
				break
			}
			total += n
		}
		return true // never wait: this is only what is there now
	})
	return total
}

// waitCredit blocks until the caller acknowledged enough output to send more; 0 once ctx ends.
func (p *ptySession) waitCredit(ctx context.Context) int {
	for {
		p.mu.Lock()
		c := p.credit
		p.mu.Unlock()
		if c > 0 {
			return c
		}
		select {
		case <-p.wake:
		case <-ctx.Done():
			return 0
		}
	}
}

func (s *Manager) ptySession(id int64) (*ptySession, error) {
	s.ptys.mu.Lock()
	defer s.ptys.mu.Unlock()
	p, ok := s.ptys.sessions[id]
	if !ok || p.run == nil {
		return nil, wire.Errf(wire.CodeNotFound, "no terminal session %d", id)
	}
	return p, nil
}

type PTYInputArgs struct {
	Session int64  `json:"session"`
	Data    string `json:"data"` // base64
}

// PTYInput writes keystrokes to the terminal. Writes of one session are serialised (keystrokes stay
// in order); ^C alone while an earlier write is stuck (the program does not read its input) is
// delivered as the line discipline would, a SIGINT to the foreground process group, when the
// terminal has ISIG on.
func (s *Manager) PTYInput(req *PTYInputArgs) (any, error) {
	p, err := s.ptySession(req.Session)
	if err != nil {
		return nil, err
	}
	data, derr := base64.StdEncoding.DecodeString(req.Data)
	if derr != nil || len(data) > maxPTYInput {
		return nil, wire.Errf(wire.CodeInvalidArgument, "data must be base64 of at most %d bytes", maxPTYInput)
	}
	if !p.inMu.TryLock() {
		if len(data) == 1 && data[0] == 0x03 && interruptForeground(p.master) {
			return map[string]int{"written": 1}, nil
		}
		p.inMu.Lock()
	}
	defer p.inMu.Unlock()
	p.master.SetWriteDeadline(time.Now().Add(ptyInputTimeout))
	n, werr := p.master.Write(data)
	if werr != nil {
		if os.IsTimeout(werr) {
			return nil, wire.Errf(wire.CodeTimeout, "the terminal did not take its input within %s (%d of %d bytes written)", ptyInputTimeout, n, len(data))
		}
		return nil, wire.Errf(wire.CodeProcessExited, "terminal session %d has ended", req.Session)
	}
	return map[string]int{"written": n}, nil
}

// interruptForeground sends SIGINT to the terminal's foreground process group if ISIG is on (a
// program in raw mode reads ^C as a byte, so then it must wait its turn like any input).
func interruptForeground(master *os.File) bool {
	rc, err := master.SyscallConn()
	if err != nil {
		return false
	}
	var pgrp int32
	var tio syscall.Termios
	ok := false
	rc.Control(func(fd uintptr) {
		ok = ioctl(fd, syscall.TCGETS, unsafe.Pointer(&tio)) == nil && tio.Lflag&syscall.ISIG != 0 &&
			ioctl(fd, syscall.TIOCGPGRP, unsafe.Pointer(&pgrp)) == nil && pgrp > 0
	})
	return ok && syscall.Kill(-int(pgrp), syscall.SIGINT) == nil
}

type PTYResizeArgs struct {
	Session int64 `json:"session"`
	Cols    int   `json:"cols"`
	Rows    int   `json:"rows"`
}

func (s *Manager) PTYResize(req *PTYResizeArgs) (any, error) {
	p, err := s.ptySession(req.Session)
	if err != nil {
		return nil, err
	}
	if req.Cols == 0 || req.Rows == 0 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "cols and rows are required")
	}
	cols, rows, err := winSize(req.Cols, req.Rows)
	if err != nil {
		return nil, err
	}
	if err := setWinSize(p.master, cols, rows); err != nil {
		return nil, wire.Errf(wire.CodeProcessExited, "terminal session %d has ended", req.Session)
	}
	return map[string]int{"cols": cols, "rows": rows}, nil
}

type PTYAckArgs struct {
	Session int64 `json:"session"`
	Bytes   int   `json:"bytes"`
}

// PTYAck returns credit: the caller has passed on bytes of output.
func (s *Manager) PTYAck(req *PTYAckArgs) (any, error) {
	p, err := s.ptySession(req.Session)
	if err != nil {
		return nil, err
	}
	if req.Bytes < 1 || req.Bytes > maxPTYWindow {
		return nil, wire.Errf(wire.CodeInvalidArgument, "bytes must be 1..%d", maxPTYWindow)
	}
	p.mu.Lock()
	p.credit += req.Bytes
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return struct{}{}, nil
}

type PTYCloseArgs struct {
	Session int64 `json:"session"`
}

// PTYClose kills the session's processes; the pty_open request then ends with its final reply.
func (s *Manager) PTYClose(req *PTYCloseArgs) (any, error) {
	p, err := s.ptySession(req.Session)
	if err != nil {
		return nil, err
	}
	p.kill()
	return map[string]bool{"closed": true}, nil
}
