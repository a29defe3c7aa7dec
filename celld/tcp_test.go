package main

import (
	"bytes"
	"encoding/base64"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"workcell.dev/celld/internal/tcpstream"
)

// portStream drives one tcp_open: output is collected as it arrives, acknowledged unless noAck.
type portStream struct {
	t     *testing.T
	h     *client
	id    int64
	ch    chan msg
	out   bytes.Buffer
	final *msg
	noAck bool
}

func openPort(t *testing.T, h *client, port int) *portStream {
	t.Helper()
	id, ch := h.send(map[string]any{"op": "tcp_open", "port": port})
	ps := &portStream{t: t, h: h, id: id, ch: ch}
	select {
	case m := <-ch:
		if m.Event != "tcp_connected" {
			t.Fatalf("expected tcp_connected, got %+v", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no tcp_connected")
	}
	return ps
}

func (ps *portStream) write(data []byte, eof bool) msg {
	ps.t.Helper()
	return ps.h.call(map[string]any{"op": "tcp_write", "stream": ps.id, "data": base64.StdEncoding.EncodeToString(data), "eof": eof})
}

// take handles one frame; false when none came within d.
func (ps *portStream) take(d time.Duration) bool {
	select {
	case m := <-ps.ch:
		if m.Event == "" {
			ps.final = &m
			return true
		}
		data, err := base64.StdEncoding.DecodeString(m.Data)
		if m.Event != "tcp_output" || err != nil {
			ps.t.Fatalf("unexpected frame %+v", m)
		}
		ps.out.Write(data)
		if !ps.noAck {
			ps.h.call(map[string]any{"op": "tcp_ack", "stream": ps.id, "bytes": len(data)})
		}
		return true
	case <-time.After(d):
		return false
	}
}

func (ps *portStream) end() tcpstream.Result {
	ps.t.Helper()
	for ps.final == nil {
		if !ps.take(20 * time.Second) {
			ps.t.Fatal("the stream did not end")
		}
	}
	return decode[tcpstream.Result](ps.t, *ps.final)
}

// listen serves one connection per accept with handle, on IPv4 loopback unless network says tcp6.
func listen(t *testing.T, network, addr string, handle func(net.Conn)) int {
	t.Helper()
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("cannot listen on %s %s: %v", network, addr, err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go handle(c)
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}

// closedPort is a loopback port nothing listens on (just released).
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func TestPortStreamRelaysARequestAndTheAnswerBothWaysThenEnds(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	port := listen(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		defer c.Close()
		body, _ := io.ReadAll(c) // until the caller's half-close
		c.Write([]byte("echo:" + string(body)))
	})
	ps := openPort(t, h.client, port)
	if r := ps.write([]byte("hello "), false); !r.OK {
		t.Fatalf("write: %+v", r.Error)
	}
	if r := ps.write([]byte("world"), true); !r.OK {
		t.Fatalf("write: %+v", r.Error)
	}
	res := ps.end()
	if got := ps.out.String(); got != "echo:hello world" || !res.EOF || res.Closed {
		t.Fatalf("got %q %+v", got, res)
	}
	// The stream is gone once its request answered.
	expectCode(t, h.call(map[string]any{"op": "tcp_write", "stream": ps.id, "data": "eA=="}), "not_found")
}

func TestPortStreamReachesAServerOnIPv6LoopbackOnly(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	port := listen(t, "tcp6", "[::1]:0", func(c net.Conn) { c.Write([]byte("six")); c.Close() })
	ps := openPort(t, h.client, port)
	if res := ps.end(); ps.out.String() != "six" || !res.EOF {
		t.Fatalf("got %q %+v", ps.out.String(), res)
	}
}

func TestPortStreamRefusesPortsOutsideTheRangeAndSaysWhenNothingListens(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	for _, port := range []any{0, -1, 65536, 1 << 40} {
		expectCode(t, h.call(map[string]any{"op": "tcp_open", "port": port}), "invalid_argument")
	}
	expectCode(t, h.call(map[string]any{"op": "tcp_open", "port": "80"}), "invalid_argument")
	expectCode(t, h.call(map[string]any{"op": "tcp_open", "port": 80, "window": 1}), "invalid_argument")
	refused := h.callWithin(map[string]any{"op": "tcp_open", "port": closedPort(t)}, 10*time.Second)
	expectCode(t, refused, "connection_refused")
	if !strings.Contains(refused.Error.Message, "Connection refused: localhost:") {
		t.Fatalf("message %q", refused.Error.Message)
	}
}

func TestPortStreamRefusesOversizedOrBrokenWritesAndUnknownStreams(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	got := make(chan int, 1)
	port := listen(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		n, _ := io.Copy(io.Discard, c)
		got <- int(n)
	})
	ps := openPort(t, h.client, port)
	big := base64.StdEncoding.EncodeToString(make([]byte, tcpstream.MaxWrite+1))
	expectCode(t, h.call(map[string]any{"op": "tcp_write", "stream": ps.id, "data": big}), "invalid_argument")
	expectCode(t, h.call(map[string]any{"op": "tcp_write", "stream": ps.id, "data": "not base64!"}), "invalid_argument")
	expectCode(t, h.call(map[string]any{"op": "tcp_ack", "stream": ps.id, "bytes": 0}), "invalid_argument")
	expectCode(t, h.call(map[string]any{"op": "tcp_ack", "stream": 999, "bytes": 10}), "not_found")
	expectCode(t, h.call(map[string]any{"op": "tcp_close", "stream": 999}), "not_found")
	// After the refusals the stream still works: only the valid write reaches the server.
	if r := ps.write(make([]byte, tcpstream.MaxWrite), true); !r.OK {
		t.Fatalf("a full-size write: %+v", r.Error)
	}
	if n := <-got; n != tcpstream.MaxWrite {
		t.Fatalf("server got %d bytes, only the valid write should arrive", n)
	}
	ps.end()
}

func TestPortStreamHoldsOutputToTheWindowUntilAcknowledged(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	const total = 2 << 20
	port := listen(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		defer c.Close()
		c.Write(bytes.Repeat([]byte("x"), total))
	})
	ps := openPort(t, h.client, port)
	ps.noAck = true
	for ps.take(500 * time.Millisecond) {
	}
	if ps.out.Len() != tcpstream.DefaultWindow || ps.final != nil {
		t.Fatalf("without acks celld sent %d bytes (window %d), final %v", ps.out.Len(), tcpstream.DefaultWindow, ps.final)
	}
	ps.noAck = false
	h.call(map[string]any{"op": "tcp_ack", "stream": ps.id, "bytes": ps.out.Len()})
	if res := ps.end(); ps.out.Len() != total || !res.EOF {
		t.Fatalf("after acks %d of %d bytes, %+v", ps.out.Len(), total, res)
	}
}

func TestPortStreamCloseAndAVanishingCallerCloseTheConnection(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	ended := make(chan struct{}, 2)
	port := listen(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		io.Copy(io.Discard, c) // returns when celld closes its side
		ended <- struct{}{}
	})
	ps := openPort(t, h.client, port)
	if r := h.call(map[string]any{"op": "tcp_close", "stream": ps.id}); !r.OK {
		t.Fatalf("close: %+v", r.Error)
	}
	if res := ps.end(); !res.Closed || res.EOF {
		t.Fatalf("%+v", res)
	}
	waitEnded(t, ended)

	openPort(t, h.client, port)
	h.client.w.Close() // the caller goes away mid-stream: celld shuts down and drops the connection
	waitEnded(t, ended)
}

func TestPortStreamEndsWithTheChannelWhenAFrameIsTooLarge(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	ended := make(chan struct{}, 1)
	port := listen(t, "tcp", "127.0.0.1:0", func(c net.Conn) {
		io.Copy(io.Discard, c)
		ended <- struct{}{}
	})
	openPort(t, h.client, port)
	h.client.w.Write([]byte{0x7f, 0xff, 0xff, 0xff}) // a 2 GiB frame header: celld refuses it and stops
	waitEnded(t, ended)
	select {
	case <-h.served:
	case <-time.After(10 * time.Second):
		t.Fatal("celld kept serving after an oversized frame")
	}
}

func waitEnded(t *testing.T, ended chan struct{}) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the server's connection was not closed")
	}
}

func TestPortStreamsAreCapped(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	port := listen(t, "tcp", "127.0.0.1:0", func(c net.Conn) { io.Copy(io.Discard, c) })
	for i := 0; i < tcpstream.MaxStreams; i++ {
		openPort(t, h.client, port)
	}
	expectCode(t, h.call(map[string]any{"op": "tcp_open", "port": port}), "too_many_processes")
}
