package main

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/preview"
	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/wire"
)

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func httpGet(t *testing.T, port int, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestStaticPreviewServesOnlyBeneathRoot(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "index.html", "<h1>hi</h1>")
	h.mustWrite(t, "css/app.css", "body{}")
	h.mustWrite(t, ".git/config", "secret")
	os.Symlink("/etc/passwd", h.path("leak"))
	os.Symlink("css/app.css", h.path("inside-link.css"))
	if err := syscall.Mkfifo(h.path("fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	st := decode[preview.Status](t, h.call(map[string]any{"op": "preview_start", "port": port}))
	if !st.Running || st.Port != port || st.Command != "static:." {
		t.Fatalf("%+v", st)
	}
	if code, body := httpGet(t, port, "/"); code != 200 || body != "<h1>hi</h1>" {
		t.Fatalf("%d %q", code, body)
	}
	if code, body := httpGet(t, port, "/inside-link.css"); code != 200 || body != "body{}" {
		t.Fatalf("%d %q", code, body)
	}
	h.mustWrite(t, "docs/index.html", "docs")
	if code, body := httpGet(t, port, "/docs"); code != 200 || body != "docs" { // via 301 to /docs/
		t.Fatalf("%d %q", code, body)
	}
	if code, _ := httpGet(t, port, "/css/"); code != 404 {
		t.Fatalf("directory without index.html: %d", code)
	}
	if resp, err := http.Post("http://127.0.0.1:"+strconv.Itoa(port)+"/", "text/plain", strings.NewReader("x")); err != nil || resp.StatusCode != 405 {
		t.Fatalf("POST: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	for _, p := range []string{"/leak", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/.git/config", "/fifo"} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			if code, body := httpGet(t, port, p); code == 200 || strings.Contains(body, "root:") || strings.Contains(body, "secret") {
				t.Errorf("%s served: %d %q", p, code, body)
			}
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s hung", p)
		}
	}
	expectCode(t, h.call(map[string]any{"op": "preview_start", "port": port}), wire.CodeAlreadyExists)
	if s := decode[preview.Status](t, h.call(map[string]any{"op": "preview_status"})); !s.Running || s.Pid != os.Getpid() {
		t.Fatalf("%+v", s)
	}
	if r := decode[map[string]bool](t, h.call(map[string]any{"op": "preview_stop"})); !r["stopped"] {
		t.Fatal("not stopped")
	}
	if s := decode[preview.Status](t, h.call(map[string]any{"op": "preview_status"})); s.Running {
		t.Fatalf("%+v", s)
	}
	if _, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), time.Second); err == nil {
		t.Fatal("static server still listening")
	}
}

func TestPreviewDetection(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	expectCode(t, h.call(map[string]any{"op": "preview_start", "port": freePort(t)}), wire.CodePreviewNotFound)

	h.mustWrite(t, "node_modules/pkg/index.html", "ignored")
	h.mustWrite(t, "apps/web/site/index.html", "nested")
	h.mustWrite(t, "apps/web/site/sub/index.html", "not a second candidate")
	h.mustWrite(t, "a/b/c/d/e/index.html", "too deep")
	port := freePort(t)
	st := decode[preview.Status](t, h.call(map[string]any{"op": "preview_start", "port": port}))
	if st.Command != "static:apps/web/site" {
		t.Fatalf("%+v", st)
	}
	if _, body := httpGet(t, port, "/"); body != "nested" {
		t.Fatalf("%q", body)
	}
	h.call(map[string]any{"op": "preview_stop"})

	h.mustWrite(t, "api/package.json", `{"scripts":{"dev":"vite"}}`)
	h.mustWrite(t, "docs/package.json", `{"scripts":{"build":"x"}}`)
	m := h.call(map[string]any{"op": "preview_start", "port": freePort(t)})
	expectCode(t, m, wire.CodePreviewAmbiguous)
	cands, _ := m.Error.Details["candidates"].([]any)
	if len(cands) != 2 || cands[0] != "api" || cands[1] != "apps/web/site" {
		t.Fatalf("candidates %v", m.Error.Details)
	}
	expectCode(t, h.call(map[string]any{"op": "preview_start", "port": 0}), wire.CodeInvalidArgument)
}

func TestProcessPreviewSurvivesExecsAndStops(t *testing.T) {
	if _, err := os.Stat("/usr/bin/node"); err != nil {
		t.Skip("node not installed")
	}
	h := newHarness(t, harnessOpts{})
	port := freePort(t)
	cmd := `node -e "require('http').createServer((q,s)=>s.end('from node')).listen(+process.env.PORT, process.env.HOST)"`
	st := decode[preview.Status](t, h.call(map[string]any{"op": "preview_start", "command": cmd, "port": port}))
	if !st.Running || st.Pid <= 0 {
		t.Fatalf("%+v", st)
	}
	// Execs finishing must not kill the preview they do not own.
	decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": "setsid sleep 0.1 & echo x"}))
	decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": "true"}))
	if _, body := httpGet(t, port, "/"); body != "from node" {
		t.Fatalf("%q", body)
	}
	if s := decode[preview.Status](t, h.call(map[string]any{"op": "preview_status"})); !s.Running || s.Pid != st.Pid {
		t.Fatalf("%+v", s)
	}
	decode[map[string]bool](t, h.call(map[string]any{"op": "preview_stop"}))
	if _, err := os.Stat("/proc/" + strconv.Itoa(st.Pid)); err == nil {
		if p, ok := procs.ReadProcStat(st.Pid); ok && p.State != 'Z' {
			t.Fatal("preview process still running")
		}
	}
}

func TestNpmDevPreviewIsDetected(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not installed")
	}
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "package.json", `{"name":"x","private":true,"scripts":{"dev":"node server.js"}}`)
	h.mustWrite(t, "server.js", `const a=process.argv, port=+a[a.indexOf('--port')+1], host=a[a.indexOf('--host')+1];
require('http').createServer((q,s)=>s.end('npm '+host)).listen(port, host);`)
	port := freePort(t)
	st := decode[preview.Status](t, h.call(map[string]any{"op": "preview_start", "port": port}))
	if st.Command != "npm run dev -- --host 0.0.0.0 --port "+strconv.Itoa(port) {
		t.Fatalf("%+v", st)
	}
	if _, body := httpGet(t, port, "/"); body != "npm 0.0.0.0" {
		t.Fatalf("%q", body)
	}
	h.call(map[string]any{"op": "preview_stop"})
}

func TestFailingPreviewReportsItsOutput(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	busy, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	m := h.call(map[string]any{"op": "preview_start", "command": "sleep 5", "port": busy.Addr().(*net.TCPAddr).Port})
	expectCode(t, m, wire.CodePreviewFailed)
	if !strings.Contains(m.Error.Message, "in use") {
		t.Fatalf("%+v", m.Error)
	}
	start := time.Now()
	m = h.call(map[string]any{"op": "preview_start", "command": "echo starting; echo boom >&2; exit 1", "port": freePort(t)})
	expectCode(t, m, wire.CodePreviewFailed)
	if !strings.Contains(m.Error.Message, "boom") || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v after %s", m.Error, time.Since(start))
	}
	if s := decode[preview.Status](t, h.call(map[string]any{"op": "preview_status"})); s.Running {
		t.Fatalf("%+v", s)
	}
}

func TestPreviewThatNeverListensIsKilled(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	old := preview.ReadyTimeout
	preview.ReadyTimeout = time.Second
	defer func() { preview.ReadyTimeout = old }()
	arg := uniqueSleep()
	m := h.call(map[string]any{"op": "preview_start", "command": "echo waiting; exec sleep " + arg, "port": freePort(t)})
	expectCode(t, m, wire.CodePreviewFailed)
	if !strings.Contains(m.Error.Message, "waiting") {
		t.Fatalf("%+v", m.Error)
	}
	if p := procsRunning("sleep", arg); len(p) > 0 {
		t.Fatalf("failed preview left %v running", p)
	}
}

// A browser opens several keep-alive connections at once and some of them idle; the static
// preview must serve every request meanwhile, and stopping it must close what is still open.
func TestStaticPreviewServesConcurrentKeepAliveClientsAndStopClosesThem(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	page := strings.Repeat("<p>hello</p>\n", 20_000) // 260 kB: several writes per response
	h.mustWrite(t, "index.html", page)
	port := freePort(t)
	decode[preview.Status](t, h.call(map[string]any{"op": "preview_start", "port": port}))
	idle, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)) // connected, never sends a request
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}, Timeout: 10 * time.Second}
	var wg sync.WaitGroup
	var failures atomic.Int64
	for c := 0; c < 32; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				resp, err := client.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/")
				if err != nil {
					failures.Add(1)
					continue
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || string(body) != page {
					failures.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := failures.Load(); n > 0 {
		t.Fatalf("%d of 640 requests failed", n)
	}
	if probe, err := net.Listen("tcp6", "[::1]:0"); err == nil { // the host has IPv6: so does the preview
		probe.Close()
		resp, err := client.Get("http://[::1]:" + strconv.Itoa(port) + "/")
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("over IPv6: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	decode[map[string]bool](t, h.call(map[string]any{"op": "preview_stop"}))
	idle.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := idle.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("an open connection survived preview_stop: %v", err)
	}
}
