package main

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
)

// previewReadyTimeout is a var only so tests can shorten it.
var previewReadyTimeout = 15 * time.Second

const (
	previewDetectDepth = 4
	previewMaxDirs     = 10_000
	previewTailBytes   = 8 << 10
	previewTailLines   = 20
)

// previewManager owns the single preview: a started process or celld's own static file server.
type previewManager struct {
	s  *server
	mu sync.Mutex

	starting bool
	running  bool
	command  string
	port     int
	pid      int
	run      *jobRun
	done     chan struct{} // closed once a process preview has exited and been cleaned up
	static   *staticServer
}

func newPreviewManager(s *server) *previewManager { return &previewManager{s: s} }

type previewStatus struct {
	Running bool   `json:"running"`
	Command string `json:"command"`
	Port    int    `json:"port"`
	Pid     int    `json:"pid"`
}

func (pm *previewManager) status() previewStatus {
	pm.mu.Lock()
	defer pm.mu.Unlock()
	if !pm.running {
		return previewStatus{}
	}
	return previewStatus{Running: true, Command: pm.command, Port: pm.port, Pid: pm.pid}
}

type previewStartArgs struct {
	Command string `json:"command"`
	Port    int    `json:"port"`
}

func (pm *previewManager) start(ctx context.Context, command string, port int) (any, error) {
	if port < 1 || port > 65535 {
		return nil, errf(codeInvalidArgument, "port must be 1..65535")
	}
	pm.mu.Lock()
	if pm.starting || pm.running {
		pm.mu.Unlock()
		return nil, errf(codeAlreadyExists, "a preview is already running; stop it first")
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

func (pm *previewManager) startStatic(dir string, port int) (any, error) {
	srv, err := startStaticServer(pm.s.root, dir, port)
	if err != nil {
		return nil, errf(codePreviewFailed, "static server cannot listen on port %d: %v", port, err)
	}
	pm.mu.Lock()
	defer pm.mu.Unlock()
	pm.running, pm.static, pm.run, pm.done = true, srv, nil, nil
	pm.command, pm.port, pm.pid = "static:"+dir, port, os.Getpid()
	return previewStatus{Running: true, Command: pm.command, Port: port, Pid: pm.pid}, nil
}

func (pm *previewManager) startProcess(ctx context.Context, command, dir string, port int) (any, error) {
	cwd, err := pm.s.resolveCwd(dir)
	if err != nil {
		return nil, err
	}
	// Readiness is "something accepts on the port", so the port must be free beforehand.
	if ln, err := listenTCP(port); err != nil {
		return nil, errf(codePreviewFailed, "port %d is already in use: %v", port, err)
	} else {
		ln.Close()
	}
	env, err := execEnv(map[string]string{"PORT": strconv.Itoa(port), "HOST": "0.0.0.0"})
	if err != nil {
		return nil, err
	}
	sh := shell()
	cmd := &exec.Cmd{Path: sh, Args: []string{sh, "-c", command}, Dir: cwd, Env: env}
	run, err := pm.s.startJob(cmd, "preview", nil)
	if err != nil {
		return nil, err
	}
	tail := &lineTail{}
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() { defer wg.Done(); tail.drain(run.stdout) }()
		go func() { defer wg.Done(); tail.drain(run.stderr) }()
		<-run.wait
		pm.s.jobs.finish(run.job)
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
		return nil, &opError{Code: code, Message: why + "\n" + tail.lastLines(previewTailLines),
			Details: map[string]any{"output": tail.lastLines(previewTailLines)}}
	}
	deadline := time.Now().Add(previewReadyTimeout)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return fail(codePreviewFailed, "the preview command exited before it was ready")
		case <-ctx.Done():
			return fail(codeCancelled, "preview start cancelled")
		case <-tick.C:
		}
		if tcpAccepts(port, 200*time.Millisecond) {
			break
		}
		if time.Now().After(deadline) {
			return fail(codePreviewFailed, fmt.Sprintf("nothing accepted connections on port %d within %s", port, previewReadyTimeout))
		}
	}
	pm.mu.Lock()
	defer pm.mu.Unlock()
	select {
	case <-done:
		return nil, errf(codePreviewFailed, "the preview command exited right after it became ready")
	default:
	}
	pm.running, pm.run, pm.done, pm.static = true, run, done, nil
	pm.command, pm.port, pm.pid = command, port, run.job.pid
	return previewStatus{Running: true, Command: command, Port: port, Pid: run.job.pid}, nil
}

// kill stops a process preview: SIGTERM to its job, SIGKILL after the grace, then waits for cleanup.
func (pm *previewManager) kill(run *jobRun, done chan struct{}) {
	pm.s.jobs.signal(run.job, syscall.SIGTERM)
	select {
	case <-done:
		return
	case <-time.After(killGrace):
	}
	pm.s.jobs.signal(run.job, syscall.SIGKILL)
	<-done
}

func (pm *previewManager) stop() (any, error) {
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
func (pm *previewManager) detect() (string, string, error) {
	rootFd, err := openat(pm.s.root.fd, ".", syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return "", "", fsError(err, ".")
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
		names, err := readNames(dfd, nil)
		if err != nil {
			return
		}
		sort.Strings(names)
		for _, name := range names {
			if name == "node_modules" || name == ".git" || visited >= previewMaxDirs {
				continue
			}
			if st, err := lstatAt(dfd, name); err != nil || !isType(&st, syscall.S_IFDIR) {
				continue
			}
			fd, err := openat(dfd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
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
		return "", "", errf(codePreviewNotFound, "no package.json with a dev script and no index.html found; give a command")
	case 1:
		return found[0].kind, found[0].dir, nil
	}
	dirs := make([]string, len(found))
	for i, c := range found {
		dirs[i] = c.dir
	}
	return "", "", &opError{Code: codePreviewAmbiguous,
		Message: "several apps could be previewed: " + strings.Join(dirs, ", ") + "; give a command",
		Details: map[string]any{"candidates": dirs}}
}

// appKind: "npm" for a package.json with a dev script, "static" for an index.html, else "".
func appKind(dfd int) string {
	if fd, err := openat(dfd, "package.json", syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0); err == nil {
		st, err := fstat(fd)
		var data []byte
		if err == nil && isType(&st, syscall.S_IFREG) && st.Size <= 1_000_000 {
			data, _, _ = readUpTo(fd, 0, 1_000_000, st.Size)
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
	if st, err := lstatAt(dfd, "index.html"); err == nil && isType(&st, syscall.S_IFREG) {
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
