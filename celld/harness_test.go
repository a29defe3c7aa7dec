package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/framing"
	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/wire"
)

// binPath is the celld binary built once by TestMain (before the reaper claims wait4 for this
// process; after that, tests start children only through reaper().start).
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("/tmp", "celld-test-bin-")
	if err != nil {
		panic(err)
	}
	os.Chmod(dir, 0o755)
	binPath = filepath.Join(dir, "celld")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", binPath, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOPROXY=off")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building celld:", err)
		os.Exit(1)
	}
	// The in-process servers start shells as the binary does (notifyStop), also when the tests
	// were started with SIGINT ignored; a developer's Ctrl-C still ends them otherwise.
	if signal.Ignored(syscall.SIGINT) || signal.Ignored(syscall.SIGHUP) {
		notifyStop()
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// msg is any frame celld sends: an output event or a final reply.
type msg struct {
	ID     int64           `json:"id"`
	OK     bool            `json:"ok"`
	Event  string          `json:"event"`
	Stream string          `json:"stream"`
	Data   string          `json:"data"`
	Pid    int             `json:"pid"`
	Result json.RawMessage `json:"result"`
	Error  *wire.OpError   `json:"error"`
	at     time.Time
	bulk   bool // came as a bulk frame (bytes raw after the JSON)
}

func (m msg) code() string {
	if m.Error == nil {
		return ""
	}
	return m.Error.Code
}

// client speaks the frame protocol to a server, routing frames to per-id channels.
type client struct {
	t      *testing.T
	w      io.WriteCloser
	wmu    sync.Mutex
	mu     sync.Mutex
	nextID int64
	routes map[int64]chan msg
	orphan chan msg // frames for unknown ids (id 0)
	closed chan struct{}
}

func newClient(t *testing.T, w io.WriteCloser, r io.Reader) *client {
	c := &client{t: t, w: w, routes: map[int64]chan msg{}, orphan: make(chan msg, 16), closed: make(chan struct{})}
	go func() {
		defer close(c.closed)
		for {
			body, err := framing.ReadFrame(r)
			bulk := err == nil && body[0] == 0
			if err == nil {
				body, err = framing.DecodeBulk(body)
			}
			if err != nil {
				return
			}
			var m msg
			if err := json.Unmarshal(body, &m); err != nil {
				t.Errorf("celld sent invalid JSON: %v: %s", err, body)
				return
			}
			m.at = time.Now()
			m.bulk = bulk
			c.mu.Lock()
			ch, ok := c.routes[m.ID]
			c.mu.Unlock()
			if ok {
				ch <- m
			} else {
				c.orphan <- m
			}
		}
	}()
	return c
}

func (c *client) sendRaw(body []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	var hdr [4]byte
	hdr[0], hdr[1], hdr[2], hdr[3] = byte(len(body)>>24), byte(len(body)>>16), byte(len(body)>>8), byte(len(body))
	c.w.Write(append(hdr[:], body...))
}

// route takes the next request id and the channel its frames will arrive on.
func (c *client) route() (int64, chan msg) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nextID++
	ch := make(chan msg, 4096)
	c.routes[c.nextID] = ch
	return c.nextID, ch
}

// send issues a request and returns its id and the channel its frames arrive on.
func (c *client) send(req map[string]any) (int64, chan msg) {
	id, ch := c.route()
	req["id"] = id
	body, _ := json.Marshal(req)
	c.sendRaw(body)
	return id, ch
}

// wait collects events until the final reply on ch.
func (c *client) wait(ch chan msg, timeout time.Duration) ([]msg, msg) {
	c.t.Helper()
	var events []msg
	deadline := time.After(timeout)
	for {
		select {
		case m := <-ch:
			if m.Event != "" {
				events = append(events, m)
				continue
			}
			return events, m
		case <-deadline:
			c.t.Fatalf("no reply within %s", timeout)
			return nil, msg{}
		}
	}
}

// call sends a request and waits (30 s) for its final reply.
func (c *client) call(req map[string]any) msg {
	c.t.Helper()
	_, ch := c.send(req)
	_, final := c.wait(ch, 30*time.Second)
	return final
}

// callWithin is call with a hard deadline: it proves an op cannot hang (FIFOs).
func (c *client) callWithin(req map[string]any, d time.Duration) msg {
	c.t.Helper()
	_, ch := c.send(req)
	_, final := c.wait(ch, d)
	return final
}

func decode[T any](t *testing.T, m msg) T {
	t.Helper()
	var v T
	if !m.OK {
		t.Fatalf("expected ok, got error %+v", m.Error)
	}
	if err := json.Unmarshal(m.Result, &v); err != nil {
		t.Fatalf("decoding %s: %v", m.Result, err)
	}
	return v
}

func expectCode(t *testing.T, m msg, code string) {
	t.Helper()
	if m.OK || m.code() != code {
		t.Fatalf("expected error %s, got ok=%v error=%+v result=%s", code, m.OK, m.Error, m.Result)
	}
}

type harness struct {
	*client
	s        *server
	root     string
	served   chan struct{} // closed when serve returns
	serveErr error
}

type harnessOpts struct {
	walk      bool // force the openat2-less fallback
	maxOutput int
}

// newHarness runs an in-process server over pipes against a fresh temp root.
func newHarness(t *testing.T, o harnessOpts) *harness {
	t.Helper()
	return newHarnessAt(t, t.TempDir(), o)
}

func newHarnessAt(t *testing.T, dir string, o harnessOpts) *harness {
	t.Helper()
	r, err := confine.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if o.walk {
		r.Openat2 = false
	} else if !r.Openat2 {
		t.Fatal("this kernel should have openat2")
	}
	if o.maxOutput == 0 {
		o.maxOutput = 50_000
	}
	procs.Reaper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := newServer(r, o.maxOutput, outW)
	h := &harness{s: s, root: dir, served: make(chan struct{})}
	go func() { h.serveErr = s.serve(inR); outW.Close(); inR.Close(); close(h.served) }()
	h.client = newClient(t, inW, outR)
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-h.served:
		case <-time.After(20 * time.Second):
			t.Error("server did not shut down")
		}
	})
	return h
}

// replied finishes a handler's result as dispatch does once the reply is sent.
func replied(res any, err error) (any, error) {
	reply, then := wire.SplitReply(res)
	then()
	return reply, err
}

func (h *harness) path(rel string) string { return filepath.Join(h.root, rel) }

func (h *harness) mustWrite(t *testing.T, rel, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(h.path(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.path(rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func bothModes(t *testing.T, f func(t *testing.T, o harnessOpts)) {
	t.Run("openat2", func(t *testing.T) { f(t, harnessOpts{}) })
	t.Run("walk", func(t *testing.T) { f(t, harnessOpts{walk: true}) })
}
