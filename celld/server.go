package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/framing"
	"workcell.dev/celld/internal/ports"
	"workcell.dev/celld/internal/preview"
	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/tcpstream"
	"workcell.dev/celld/internal/wire"
)

// envelope is what every request frame carries; the op's own arguments sit beside it in the same
// object and are decoded into that op's struct (unknown fields are ignored, absent optionals stay nil).
type envelope struct {
	ID int64  `json:"id"`
	Op string `json:"op"`
	// Bulk names the argument that follows the JSON raw (a bulk request frame), see bulkFields.
	Bulk *string `json:"bulk"`
}

// bulkFields is the argument each op accepts raw after its JSON: a write's content skips JSON
// escaping (up to six-fold) and base64 (4/3) in both the caller and celld.
var bulkFields = map[string]string{"write": "content", "write_bytes": "data", "write_part": "data"}

// checkBulk refuses a bulk request frame for an op or field that takes no raw bytes, and a plain
// frame naming a bulk field (its bytes would be missing).
func checkBulk(env *envelope, raw []byte) *wire.OpError {
	switch {
	case raw == nil && env.Bulk != nil:
		return wire.Errf(wire.CodeInvalidArgument, "bulk names a field but the frame carries no raw bytes")
	case raw == nil:
		return nil
	case env.Bulk == nil || bulkFields[env.Op] == "" || *env.Bulk != bulkFields[env.Op]:
		return wire.Errf(wire.CodeInvalidArgument, "op %q takes no raw field %q", env.Op, deref(env.Bulk))
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

type cancelArgs struct {
	Target int64 `json:"target"`
}

// handler is a request whose arguments are decoded, ready to run in its own goroutine.
type handler func(ctx context.Context) (any, error)

// server multiplexes concurrent requests from one frame stream.
type server struct {
	out     *framing.Writer
	files   *fileops.Files
	procs   *procs.Manager
	preview *preview.Manager
	tcp     *tcpstream.Manager

	mu       sync.Mutex
	inflight map[int64]context.CancelFunc
	wg       sync.WaitGroup
	stopOnce sync.Once
	trim     *time.Timer
}

// scheduleTrim returns freed heap to the OS shortly after celld goes idle: the background
// scavenger alone takes minutes to shrink RSS back after a 2 MB read or a chatty exec.
func (s *server) scheduleTrim() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.trim == nil {
		s.trim = time.AfterFunc(2*time.Second, func() {
			s.mu.Lock()
			busy := len(s.inflight) > 0
			s.mu.Unlock()
			if !busy {
				debug.FreeOSMemory()
			}
		})
		return
	}
	s.trim.Reset(2 * time.Second)
}

func newServer(root *confine.Root, maxOutput int, w io.Writer) *server {
	out := framing.NewWriter(w)
	runner := procs.New(root, maxOutput, out)
	return &server{
		out:      out,
		files:    fileops.New(root),
		procs:    runner,
		preview:  preview.New(root, runner),
		tcp:      tcpstream.New(out),
		inflight: map[int64]context.CancelFunc{},
	}
}

// errMalformed ends the stream: celld answers id 0 and exits non-zero so the caller restarts it.
type errMalformed struct{ msg string }

func (e errMalformed) Error() string { return "malformed frame: " + e.msg }

// serve reads frames until EOF (nil) or a protocol violation (errMalformed), then shuts down.
func (s *server) serve(r io.Reader) error {
	defer s.shutdown()
	for {
		body, err := framing.ReadFrame(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return s.malformed(err.Error())
		}
		var raw []byte // a bulk request's raw bytes, a slice of the frame: never copied, never UTF-8 checked here
		if body[0] == 0 {
			if body, raw, err = framing.SplitBulk(body); err != nil {
				return s.malformed(err.Error())
			}
		}
		if !utf8.Valid(body) {
			return s.malformed("frame is not valid UTF-8")
		}
		// One parse on the hot path; only a frame that does not decode is parsed again, to tell a
		// protocol violation (no object, no valid id: the stream ends) from bad arguments (an error reply).
		var env envelope
		if err := json.Unmarshal(body, &env); err != nil || env.ID <= 0 {
			id, _, perr := parseHeader(body)
			if perr != "" {
				return s.malformed(perr)
			}
			s.out.SendError(id, badArguments(err))
			continue
		}
		id := env.ID
		if berr := checkBulk(&env, raw); berr != nil {
			s.out.SendError(id, berr)
			continue
		}
		if env.Op == "cancel" {
			// Handled inline so a cancel is never queued behind the work it cancels.
			var a cancelArgs
			if err := decodeArgs(body, &a); err != nil {
				s.out.SendError(id, err)
				continue
			}
			s.out.SendResult(id, map[string]bool{"cancelled": s.cancel(a.Target)})
			continue
		}
		run, aerr := s.bind(id, env.Op, body, raw)
		if aerr != nil {
			s.out.SendError(id, aerr)
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		s.mu.Lock()
		if _, dup := s.inflight[id]; dup {
			s.mu.Unlock()
			cancel()
			s.out.SendError(id, wire.Errf(wire.CodeInvalidArgument, "id %d is already in flight", id))
			continue
		}
		s.inflight[id] = cancel
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.inflight, id)
				idle := len(s.inflight) == 0
				s.mu.Unlock()
				cancel()
				if idle {
					s.scheduleTrim()
				}
			}()
			s.dispatch(ctx, id, run)
		}()
	}
}

func (s *server) malformed(msg string) error {
	s.out.SendError(0, wire.Errf(wire.CodeInvalidArgument, "malformed frame: %s", msg))
	return errMalformed{msg}
}

// parseHeader insists on a JSON object with a positive integer id and returns its op (may be "").
func parseHeader(body []byte) (int64, string, string) {
	var hdr map[string]json.RawMessage
	if err := json.Unmarshal(body, &hdr); err != nil || hdr == nil {
		return 0, "", "not a JSON object"
	}
	raw, ok := hdr["id"]
	if !ok {
		return 0, "", "missing id"
	}
	id, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || id <= 0 {
		return 0, "", "id must be a positive 64-bit integer"
	}
	var op string
	if r, ok := hdr["op"]; ok {
		if json.Unmarshal(r, &op) != nil {
			op = ""
		}
	}
	return id, op, ""
}

func (s *server) cancel(target int64) bool {
	s.mu.Lock()
	c, ok := s.inflight[target]
	s.mu.Unlock()
	if ok {
		c()
	}
	return ok
}

func (s *server) dispatch(ctx context.Context, id int64, run handler) {
	res, err := run(ctx)
	if err != nil {
		s.out.SendError(id, wire.FSError(err, "request"))
		return
	}
	reply, then := wire.SplitReply(res)
	s.out.SendResult(id, reply)
	then()
}

// badArguments is the reply to arguments of the wrong JSON type. A type error names the struct it
// was decoding into; every op's is called "request", as when one struct carried all arguments.
func badArguments(err error) *wire.OpError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Struct != "" {
		named := *te
		named.Struct = "request"
		err = &named
	}
	return wire.Errf(wire.CodeInvalidArgument, "bad arguments: %v", err)
}

// decodeArgs decodes a request frame's arguments into one op's struct.
func decodeArgs(body []byte, args any) *wire.OpError {
	if err := json.Unmarshal(body, args); err != nil {
		return badArguments(err)
	}
	return nil
}

// bindArgs decodes an op's arguments into args (a new pointer to its struct) now, so bad ones are
// answered before the request is in flight. P is a pointer type, so one instantiation serves every
// op (a struct type parameter costs one per op: 37 kB of binary, which is resident memory).
func bindArgs[P any](body []byte, args P, run func(ctx context.Context, a P) (any, error)) (handler, *wire.OpError) {
	if err := decodeArgs(body, args); err != nil {
		return nil, err
	}
	return func(ctx context.Context) (any, error) { return run(ctx, args) }, nil
}

// bind decodes the arguments of op and returns the handler that runs it. An unknown or missing op
// is still a handler (its error reply comes from the goroutine, like every other op's). raw is a
// write's content when it came after the JSON (checkBulk allowed it for op), else nil.
func (s *server) bind(id int64, op string, body []byte, raw []byte) (handler, *wire.OpError) {
	switch op {
	case "ping":
		// bulkRequests: this celld reads bulk request frames (a caller sends them only then).
		return func(context.Context) (any, error) {
			return map[string]any{"version": version, "pid": pid(), "bulkRequests": true}, nil
		}, nil
	case "list":
		return bindArgs(body, new(fileops.PathArgs), func(_ context.Context, a *fileops.PathArgs) (any, error) { return s.files.List(a.Path) })
	case "stat":
		return bindArgs(body, new(fileops.PathArgs), func(_ context.Context, a *fileops.PathArgs) (any, error) { return s.files.Stat(a.Path) })
	case "read":
		return bindArgs(body, new(fileops.PathArgs), func(_ context.Context, a *fileops.PathArgs) (any, error) { return s.files.Read(a.Path) })
	case "read_bytes":
		return bindArgs(body, new(fileops.ReadBytesArgs), func(_ context.Context, a *fileops.ReadBytesArgs) (any, error) {
			return s.files.ReadBytes(a.Path, a.Offset, a.Limit)
		})
	case "write":
		return bindArgs(body, &fileops.WriteArgs{Raw: raw}, func(_ context.Context, a *fileops.WriteArgs) (any, error) { return s.files.Write(a) })
	case "write_bytes":
		return bindArgs(body, &fileops.WriteBytesArgs{Raw: raw}, func(_ context.Context, a *fileops.WriteBytesArgs) (any, error) {
			return s.files.WriteBytes(a)
		})
	case "write_part":
		return bindArgs(body, &fileops.WritePartArgs{Raw: raw}, func(_ context.Context, a *fileops.WritePartArgs) (any, error) { return s.files.WritePart(a) })
	case "mkdir":
		return bindArgs(body, new(fileops.MkdirArgs), func(_ context.Context, a *fileops.MkdirArgs) (any, error) { return s.files.Mkdir(a.Path, a.Parents) })
	case "delete":
		return bindArgs(body, new(fileops.DeleteArgs), func(_ context.Context, a *fileops.DeleteArgs) (any, error) {
			return s.files.Delete(a.Path, a.Recursive)
		})
	case "move":
		return bindArgs(body, new(fileops.MoveArgs), func(_ context.Context, a *fileops.MoveArgs) (any, error) { return s.files.Move(a.From, a.To) })
	case "search":
		return bindArgs(body, new(fileops.SearchArgs), func(ctx context.Context, a *fileops.SearchArgs) (any, error) {
			return s.files.Search(ctx, a.Path, a.Query, a.MaxHits)
		})
	case "exec":
		return bindArgs(body, new(procs.ExecArgs), func(ctx context.Context, a *procs.ExecArgs) (any, error) { return s.procs.Exec(ctx, id, a) })
	case "proc_start":
		return bindArgs(body, new(procs.ProcStartArgs), s.procs.ProcStart)
	case "proc_status":
		return bindArgs(body, new(procs.ProcStatusArgs), s.procs.ProcStatus)
	case "proc_input":
		return bindArgs(body, new(procs.ProcInputArgs), func(_ context.Context, a *procs.ProcInputArgs) (any, error) { return s.procs.ProcInput(a) })
	case "proc_kill":
		return bindArgs(body, new(procs.ProcKillArgs), s.procs.ProcKill)
	case "proc_list":
		return func(context.Context) (any, error) { return s.procs.ProcList() }, nil
	case "pty_open":
		return bindArgs(body, new(procs.PTYOpenArgs), func(ctx context.Context, a *procs.PTYOpenArgs) (any, error) { return s.procs.PTYOpen(ctx, id, a) })
	case "pty_input":
		return bindArgs(body, new(procs.PTYInputArgs), func(_ context.Context, a *procs.PTYInputArgs) (any, error) { return s.procs.PTYInput(a) })
	case "pty_resize":
		return bindArgs(body, new(procs.PTYResizeArgs), func(_ context.Context, a *procs.PTYResizeArgs) (any, error) { return s.procs.PTYResize(a) })
	case "pty_ack":
		return bindArgs(body, new(procs.PTYAckArgs), func(_ context.Context, a *procs.PTYAckArgs) (any, error) { return s.procs.PTYAck(a) })
	case "pty_close":
		return bindArgs(body, new(procs.PTYCloseArgs), func(_ context.Context, a *procs.PTYCloseArgs) (any, error) { return s.procs.PTYClose(a) })
	case "grep":
		return bindArgs(body, new(fileops.GrepArgs), s.files.Grep)
	case "glob":
		return bindArgs(body, new(fileops.GlobArgs), s.files.Glob)
	case "preview_start":
		return bindArgs(body, new(preview.StartArgs), func(ctx context.Context, a *preview.StartArgs) (any, error) {
			return s.preview.Start(ctx, a.Command, a.Port)
		})
	case "ports":
		return func(context.Context) (any, error) { return ports.List() }, nil
	case "tcp_open":
		return bindArgs(body, new(tcpstream.OpenArgs), func(ctx context.Context, a *tcpstream.OpenArgs) (any, error) { return s.tcp.Open(ctx, id, a) })
	case "tcp_write":
		return bindArgs(body, new(tcpstream.WriteArgs), func(_ context.Context, a *tcpstream.WriteArgs) (any, error) { return s.tcp.Write(a) })
	case "tcp_ack":
		return bindArgs(body, new(tcpstream.AckArgs), func(_ context.Context, a *tcpstream.AckArgs) (any, error) { return s.tcp.Ack(a) })
	case "tcp_close":
		return bindArgs(body, new(tcpstream.CloseArgs), func(_ context.Context, a *tcpstream.CloseArgs) (any, error) { return s.tcp.Close(a) })
	case "preview_stop":
		return func(context.Context) (any, error) { return s.preview.Stop() }, nil
	case "preview_status":
		return func(context.Context) (any, error) { return s.preview.Status(), nil }, nil
	case "":
		return func(context.Context) (any, error) { return nil, wire.Errf(wire.CodeInvalidArgument, "missing op") }, nil
	default:
		return func(context.Context) (any, error) {
			return nil, wire.Errf(wire.CodeInvalidArgument, "unknown op %q", op)
		}, nil
	}
}

// shutdown cancels in-flight work, stops the preview and kills every job's processes.
func (s *server) shutdown() { s.stopOnce.Do(s.doShutdown) }

func (s *server) doShutdown() {
	s.mu.Lock()
	for _, c := range s.inflight {
		c()
	}
	s.mu.Unlock()
	s.preview.Stop()
	s.procs.KillAllProcs()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		fmt.Fprintln(stderr, "celld: handlers did not finish within 10s of shutdown")
	}
	s.procs.KillAllJobs()
}
