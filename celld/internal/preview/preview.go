// Package preview owns the single preview: detection, a started dev server as a job, or celld's
// own static file server over raw TCP syscalls.
package preview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/tcpsock"
	"workcell.dev/celld/internal/wire"
)

// ReadyTimeout is a var only so tests can shorten it.
var ReadyTimeout = 15 * time.Second

const (
	previewDetectDepth = 4
	previewMaxDirs     = 10_000
	previewTailBytes   = 8 << 10
	previewTailLines   = 20
)

// Manager owns the single preview: a started process or celld's own static file server.
type Manager struct {
	root  *confine.Root
	procs *procs.Manager
	mu    sync.Mutex

	starting bool
	running  bool
	command  string
	port     int
	pid      int
	run      *procs.JobRun
	done     chan struct{} // closed once a process preview has exited and been cleaned up
	static   *staticServer
}

// New returns the preview manager of root; process previews run as jobs of runner.
func New(root *confine.Root, runner *procs.Manager) *Manager {
	return &Manager{root: root, procs: runner}
}

type Status struct {
	Running bool   `json:"running"`
	Command string `json:"command"`
	Port    int    `json:"port"`
	Pid     int    `json:"pid"`
}

func (pm *Manager) Status() Status {
	pm.mu.Lock()
	defer pm.mu.Unlock()
	if !pm.running {
		return Status{}
	}
	return Status{Running: true, Command: pm.command, Port: pm.port, Pid: pm.pid}
}

type StartArgs struct {
	Command string `json:"command"`
	Port    int    `json:"port"`
}

func (pm *Manager) Start(ctx context.Context, command string, port int) (any, error) {
	if port < 1 || port > 65535 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "port must be 1..65535")
	}
	pm.mu.Lock()
	if pm.starting || pm.running {
		pm.mu.Unlock()
		return nil, wire.Errf(wire.CodeAlreadyExists, "a preview is already running; stop it first")
	}
	pm.starting = true
	pm.mu.Unlock()
	defer func() {
		pm.mu.Lock()
		pm.starting = false
		pm.mu.Unlock()
	}()

	dir := "."
	if command == "" {
		kind, d, err := pm.detect()
		if err != nil {
			return nil, err
		}
		dir = d
		if kind == "static" {
			return pm.startStatic(dir, port)
		}
		command = fmt.Sprintf("npm run dev -- --host 0.0.0.0 --port %d", port)
	}
	return pm.startProcess(ctx, command, dir, port)
}

func (pm *Manager) startStatic(dir string, port int) (any, error) {
	srv, err := startStaticServer(pm.root, dir, port)
	if err != nil {
		return nil, wire.Errf(wire.CodePreviewFailed, "static server cannot listen on port %d: %v", port, err)
	}
	pm.mu.Lock()
	defer pm.mu.Unlock()
	pm.running, pm.static, pm.run, pm.done = true, srv, nil, nil
	pm.command, pm.port, pm.pid = "static:"+dir, port, os.Getpid()
	return Status{Running: true, Command: pm.command, Port: port, Pid: pm.pid}, nil
}

func (pm *Manager) startProcess(ctx context.Context, command, dir string, port int) (any, error) {
	cwd, err := pm.procs.ResolveCwd(dir)
	if err != nil {
		return nil, err
	}
	// Readiness is "something accepts on the port", so the port must be free beforehand.
	if ln, err := tcpsock.Listen(port); err != nil {
		return nil, wire.Errf(wire.CodePreviewFailed, "port %d is already in use: %v", port, err)
	} else {
		ln.Close()
	}
	env, err := procs.ExecEnv(map[string]string{"PORT": strconv.Itoa(port), "HOST": "0.0.0.0"})
	if err != nil {
		return nil, err
	}
	sh := procs.Shell()
	cmd := &exec.Cmd{Path: sh, Args: []string{sh, "-c", command}, Dir: cwd, Env: env}
	run, err := pm.procs.StartJob(cmd, "preview", nil)
	if err != nil {
		return nil, err
	}
	tail := &lineTail{}
	done := make(chan struct{})
	stdout, stderr := run.Output()
	go func() {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); tail.drain(stdout) }()
		go func() { defer wg.Done(); tail.drain(stderr) }()
		<-run.Exited()
		pm.procs.Finish(run)
		wg.Wait()
		pm.mu.Lock()
		if pm.run == run {
			pm.running, pm.run = false, nil
		}
		pm.mu.Unlock()
		close(done)
	}()

	fail := func(code, why string) (any, error) {
		pm.kill(run, done)
		return nil, &wire.OpError{Code: code, Message: why + "\n" + tail.lastLines(previewTailLines),
			Details: map[string]any{"output": tail.lastLines(previewTailLines)}}
	}
	deadline := time.Now().Add(ReadyTimeout)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return fail(wire.CodePreviewFailed, "the preview command exited before it was ready")
		case <-ctx.Done():
			return fail(wire.CodeCancelled, "preview start cancelled")
		case <-tick.C:
		}
		if tcpsock.Accepts(port, 200*time.Millisecond) {
			break
		}
		if time.Now().After(deadline) {
			return fail(wire.CodePreviewFailed, fmt.Sprintf("nothing accepted connections on port %d within %s", port, ReadyTimeout))
		}
	}
	pm.mu.Lock()
	defer pm.mu.Unlock()
	select {
	case <-done:
		return nil, wire.Errf(wire.CodePreviewFailed, "the preview command exited right after it became ready")
	default:
	}
	pm.running, pm.run, pm.done, pm.static = true, run, done, nil
	pm.command, pm.port, pm.pid = command, port, run.Pid()
	return Status{Running: true, Command: command, Port: port, Pid: run.Pid()}, nil
}

// kill stops a process preview: SIGTERM to its job, SIGKILL after the grace, then waits for cleanup.
func (pm *Manager) kill(run *procs.JobRun, done chan struct{}) {
	pm.procs.Signal(run, syscall.SIGTERM)
	select {
	case <-done:
		return
	case <-time.After(procs.KillGrace):
	}
	pm.procs.Signal(run, syscall.SIGKILL)
	<-done
}

func (pm *Manager) Stop() (any, error) {
	pm.mu.Lock()
	run, done, srv, was := pm.run, pm.done, pm.static, pm.running
	pm.running, pm.run, pm.done, pm.static = false, nil, nil, nil
	pm.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
	if run != nil {
		pm.kill(run, done)
	}
	return map[string]bool{"stopped": was}, nil
}

// detect picks what to preview when no command is given (see README "preview_start").
func (pm *Manager) detect() (string, string, error) {
	rootFd, err := sys.Openat(pm.root.FD(), ".", syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return "", "", wire.FSError(err, ".")
	}
	defer syscall.Close(rootFd)
	if kind := appKind(rootFd); kind != "" {
		return kind, ".", nil
	}
	type candidate struct{ kind, dir string }
	var found []candidate
	visited := 0
	var walk func(dfd int, rel string, depth int)
	walk = func(dfd int, rel string, depth int) {
		names, err := fileops.ReadNames(dfd, nil)
		if err != nil {
			return
		}
		sort.Strings(names)
		for _, name := range names {
			if name == "node_modules" || name == ".git" || visited >= previewMaxDirs {
				continue
			}
			if st, err := sys.LstatAt(dfd, name); err != nil || !sys.IsType(&st, syscall.S_IFDIR) {
				continue
			}
			fd, err := sys.Openat(dfd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
			if err != nil {
				continue
			}
			visited++
			child := path.Join(rel, name)
			if kind := appKind(fd); kind != "" {
				found = append(found, candidate{kind, child})
			} else if depth < previewDetectDepth {
				walk(fd, child, depth+1)
			}
			syscall.Close(fd)
		}
	}
	walk(rootFd, "", 1)
	switch len(found) {
	case 0:
		return "", "", wire.Errf(wire.CodePreviewNotFound, "no package.json with a dev script and no index.html found; give a command")
	case 1:
		return found[0].kind, found[0].dir, nil
	}
	dirs := make([]string, len(found))
	for i, c := range found {
		dirs[i] = c.dir
	}
	return "", "", &wire.OpError{Code: wire.CodePreviewAmbiguous,
		Message: "several apps could be previewed: " + strings.Join(dirs, ", ") + "; give a command",
		Details: map[string]any{"candidates": dirs}}
}

// appKind: "npm" for a package.json with a dev script, "static" for an index.html, else "".
func appKind(dfd int) string {
	if fd, err := sys.Openat(dfd, "package.json", syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0); err == nil {
		st, err := sys.Fstat(fd)
		var data []byte
		if err == nil && sys.IsType(&st, syscall.S_IFREG) && st.Size <= 1_000_000 {
			data, _, _ = fileops.ReadUpTo(fd, 0, 1_000_000, st.Size)
		}
		syscall.Close(fd)
		var pkg struct {
			Scripts map[string]any `json:"scripts"`
		}
		if json.Unmarshal(data, &pkg) == nil {
			if dev, ok := pkg.Scripts["dev"].(string); ok && strings.TrimSpace(dev) != "" {
				return "npm"
			}
		}
	}
	if st, err := sys.LstatAt(dfd, "index.html"); err == nil && sys.IsType(&st, syscall.S_IFREG) {
		return "static"
	}
	return ""
}

// lineTail keeps the last few KiB of a preview's combined output for failure messages.
type lineTail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *lineTail) drain(f *os.File) {
	b := make([]byte, 4096)
	for {
		n, err := f.Read(b)
		if n > 0 {
			t.mu.Lock()
			t.buf = append(t.buf, b[:n]...)
			if len(t.buf) > previewTailBytes {
				t.buf = append(t.buf[:0], t.buf[len(t.buf)-previewTailBytes:]...)
			}
			t.mu.Unlock()
		}
		if err != nil {
			f.Close()
			return
		}
	}
}

func (t *lineTail) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(t.buf), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
