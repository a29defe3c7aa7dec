// Package tcpstream relays a TCP connection to a port listening inside the sandbox, for Open
// Terminal's /proxy/{port} (decision 0020). celld runs in the sandbox's network namespace, so it
// dials 127.0.0.1 (then ::1) of that sandbox only: a request names a port, never an address.
//
// A stream is one tcp_open request in flight, as a terminal is one pty_open (decision 0017): its id
// names the stream in tcp_write, tcp_ack and tcp_close; tcp_output events carry what the socket
// sends; the final reply comes after the last of it. Backpressure is the terminal's credit: celld
// sends at most a window of output the caller has not acknowledged and otherwise stops reading the
// socket, so the server inside blocks in write(2) and nothing grows in celld.
package tcpstream

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"sync"
	"syscall"
	"time"

	"workcell.dev/celld/internal/framing"
	"workcell.dev/celld/internal/tcpsock"
	"workcell.dev/celld/internal/wire"
)

const (
	MaxStreams     = 16
	DefaultWindow  = 256 << 10
	minWindow      = 4 << 10
	maxWindow      = 4 << 20
	chunk          = 32 << 10
	MaxWrite       = 256 << 10
	ConnectTimeout = 5 * time.Second
	writeTimeout   = 30 * time.Second
)

type stream struct {
	conn *os.File // a socket on the netpoller (package tcpsock: celld does without net)
	kill context.CancelFunc
	wake chan struct{}
	inMu sync.Mutex // writes of one stream in order

	mu     sync.Mutex
	credit int
}

// Manager holds the open streams of one channel.
type Manager struct {
	out *framing.Writer

	mu      sync.Mutex
	streams map[int64]*stream
}

func New(out *framing.Writer) *Manager {
	return &Manager{out: out, streams: map[int64]*stream{}}
}

// OpenArgs: port 1..65535 on the sandbox's loopback; window is the output credit in bytes.
type OpenArgs struct {
	Port   int `json:"port"`
	Window int `json:"window"`
}

type connected struct {
	ID    int64  `json:"id"`
	Event string `json:"event"`
}

type output struct {
	ID    int64  `json:"id"`
	Event string `json:"event"`
	Data  string `json:"data"` // base64, as a terminal's
}

// Result is the final reply: the server ended its side (eof) or the caller closed the stream.
type Result struct {
	EOF    bool `json:"eof"`
	Closed bool `json:"closed"`
}

// Open connects and relays until the server closes its side or the stream is closed.
func (m *Manager) Open(ctx context.Context, id int64, a *OpenArgs) (any, error) {
	if a.Port < 1 || a.Port > 65535 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "port must be 1..65535")
	}
	window := a.Window
	if window == 0 {
		window = DefaultWindow
	}
	if window < minWindow || window > maxWindow {
		return nil, wire.Errf(wire.CodeInvalidArgument, "window must be %d..%d bytes", minWindow, maxWindow)
	}
	ctx, kill := context.WithCancel(ctx)
	defer kill()
	st := &stream{kill: kill, wake: make(chan struct{}, 1), credit: window}
	m.mu.Lock()
	if len(m.streams) >= MaxStreams {
		m.mu.Unlock()
		return nil, wire.Errf(wire.CodeTooManyProcesses, "%d port streams are open; close one", MaxStreams)
	}
	m.streams[id] = st // reserved before the connect, so concurrent opens cannot exceed the cap
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.streams, id)
		m.mu.Unlock()
	}()

	conn, err := m.connect(ctx, a.Port)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	m.mu.Lock()
	st.conn = conn // now tcp_write and the others find it
	m.mu.Unlock()
	if err := m.out.Send(connected{ID: id, Event: "tcp_connected"}); err != nil {
		return nil, err
	}
	done := make(chan bool, 1)
	go func() { done <- m.pump(ctx, id, st) }()
	select {
	case eof := <-done:
		return Result{EOF: eof, Closed: !eof}, nil
	case <-ctx.Done():
		conn.Close() // wakes a pump blocked in read
		<-done
		return Result{Closed: true}, nil
	}
}

// connect dials the port on IPv4 loopback, then IPv6 loopback when nothing listens there.
func (m *Manager) connect(ctx context.Context, port int) (*os.File, error) {
	dctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	for _, addr := range []syscall.Sockaddr{tcpsock.Loopback4(port), tcpsock.Loopback6(port)} {
		c, err := tcpsock.Connect(dctx, addr)
		if err == nil {
			return c, nil
		}
		if err != syscall.ECONNREFUSED && err != syscall.EADDRNOTAVAIL && err != syscall.EAFNOSUPPORT {
			break
		}
	}
	switch {
	case ctx.Err() != nil:
		return nil, wire.Errf(wire.CodeCancelled, "the stream was closed while connecting")
	case dctx.Err() != nil:
		return nil, wire.Errf(wire.CodeTimeout, "Timeout connecting to localhost:%d", port)
	default:
		return nil, wire.Errf(wire.CodeConnectionRefused, "Connection refused: localhost:%d", port)
	}
}

// pump sends what the socket delivers while there is credit; true when the server ended its side.
func (m *Manager) pump(ctx context.Context, id int64, st *stream) bool {
	buf := make([]byte, chunk)
	for {
		limit := st.waitCredit(ctx)
		if limit == 0 {
			return false
		}
		if limit > len(buf) {
			limit = len(buf)
		}
		n, err := st.conn.Read(buf[:limit])
		if n > 0 {
			st.mu.Lock()
			st.credit -= n
			st.mu.Unlock()
			if m.out.Send(output{ID: id, Event: "tcp_output", Data: base64.StdEncoding.EncodeToString(buf[:n])}) != nil {
				return false
			}
		}
		if err != nil {
			return ctx.Err() == nil
		}
	}
}

func (st *stream) waitCredit(ctx context.Context) int {
	for {
		st.mu.Lock()
		c := st.credit
		st.mu.Unlock()
		if c > 0 {
			return c
		}
		select {
		case <-st.wake:
		case <-ctx.Done():
			return 0
		}
	}
}

func (m *Manager) stream(id int64) (*stream, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.streams[id]
	if !ok || st.conn == nil {
		return nil, wire.Errf(wire.CodeNotFound, "no port stream %d", id)
	}
	return st, nil
}

// WriteArgs: data (base64, at most MaxWrite bytes) goes to the server; eof then ends the caller's
// side of the connection (a half-close: the server still answers).
type WriteArgs struct {
	Stream int64  `json:"stream"`
	Data   string `json:"data"`
	EOF    bool   `json:"eof"`
}

// Write sends data in order; it returns once the kernel took all of it, which is the caller's credit.
func (m *Manager) Write(a *WriteArgs) (any, error) {
	st, err := m.stream(a.Stream)
	if err != nil {
		return nil, err
	}
	if base64.StdEncoding.DecodedLen(len(a.Data)) > MaxWrite+2 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "data must be base64 of at most %d bytes", MaxWrite)
	}
	data, derr := base64.StdEncoding.DecodeString(a.Data)
	if derr != nil || len(data) > MaxWrite {
		return nil, wire.Errf(wire.CodeInvalidArgument, "data must be base64 of at most %d bytes", MaxWrite)
	}
	st.inMu.Lock()
	defer st.inMu.Unlock()
	st.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	n, werr := st.conn.Write(data)
	if werr != nil {
		if errors.Is(werr, syscall.EPIPE) || errors.Is(werr, syscall.ECONNRESET) || errors.Is(werr, os.ErrClosed) {
			return nil, wire.Errf(wire.CodeProcessExited, "port stream %d is closed", a.Stream)
		}
		if errors.Is(werr, os.ErrDeadlineExceeded) {
			return nil, wire.Errf(wire.CodeTimeout, "the server did not take its input within %s (%d of %d bytes written)", writeTimeout, n, len(data))
		}
		return nil, wire.Errf(wire.CodeProcessExited, "port stream %d: %v", a.Stream, werr)
	}
	if a.EOF {
		tcpsock.CloseWrite(st.conn)
	}
	return map[string]int{"written": n}, nil
}

type AckArgs struct {
	Stream int64 `json:"stream"`
	Bytes  int   `json:"bytes"`
}

// Ack returns credit: the caller has passed on bytes of output.
func (m *Manager) Ack(a *AckArgs) (any, error) {
	st, err := m.stream(a.Stream)
	if err != nil {
		return nil, err
	}
	if a.Bytes < 1 || a.Bytes > maxWindow {
		return nil, wire.Errf(wire.CodeInvalidArgument, "bytes must be 1..%d", maxWindow)
	}
	st.mu.Lock()
	st.credit += a.Bytes
	st.mu.Unlock()
	select {
	case st.wake <- struct{}{}:
	default:
	}
	return struct{}{}, nil
}

type CloseArgs struct {
	Stream int64 `json:"stream"`
}

// Close ends the stream; its tcp_open request then answers closed.
func (m *Manager) Close(a *CloseArgs) (any, error) {
	m.mu.Lock()
	st, ok := m.streams[a.Stream]
	m.mu.Unlock()
	if !ok {
		return nil, wire.Errf(wire.CodeNotFound, "no port stream %d", a.Stream)
	}
	st.kill()
	return map[string]bool{"closed": true}, nil
}
