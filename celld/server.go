package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// request carries every op's arguments; unknown fields are ignored, absent optionals stay nil.
type request struct {
	ID              int64             `json:"id"`
	Op              string            `json:"op"`
	Target          int64             `json:"target"`
	Path            string            `json:"path"`
	From            string            `json:"from"`
	To              string            `json:"to"`
	Content         *string           `json:"content"`
	Data            *string           `json:"data"`
	ExpectedVersion *string           `json:"expectedVersion"`
	CreateParents   bool              `json:"createParents"`
	Mode            *uint32           `json:"mode"`
	Parents         bool              `json:"parents"`
	Recursive       bool              `json:"recursive"`
	Offset          *int64            `json:"offset"`
	Limit           *int64            `json:"limit"`
	Query           string            `json:"query"`
	MaxHits         *int              `json:"maxHits"`
	Command         string            `json:"command"`
	TimeoutSec      *int              `json:"timeoutSec"`
	Cwd             string            `json:"cwd"`
	Env             map[string]string `json:"env"`
	Stdin           *string           `json:"stdin"`
	Port            int               `json:"port"`
	ProcID          string            `json:"processId"`
	WaitMs          *int64            `json:"waitMs"`
	Tail            *int              `json:"tail"`
	Force           bool              `json:"force"`
	Regex           bool              `json:"regex"`
	CaseInsensitive bool              `json:"caseInsensitive"`
	Include         string            `json:"include"`
	MatchPerLine    bool              `json:"matchPerLine"`
	MaxResults      *int              `json:"maxResults"`
	Pattern         string            `json:"pattern"`
	Exclude         string            `json:"exclude"`
	Type            string            `json:"type"`
	Quiet           bool              `json:"quiet"`
	MaxOutput       *int              `json:"maxOutput"`
}

// server multiplexes concurrent requests from one frame stream.
type server struct {
	root      *Root
	maxOutput int
	out       *frameWriter
	jobs      *jobTable
	preview   *previewManager
	procs     *procTable
	writeMu   sync.Mutex // makes expectedVersion check + rename atomic with respect to other celld writes

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

func newServer(root *Root, maxOutput int, w io.Writer) *server {
	s := &server{
		root:      root,
		maxOutput: maxOutput,
		out:       &frameWriter{w: w},
		jobs:      newJobTable(),
		inflight:  map[int64]context.CancelFunc{},
		procs:     newProcTable(),
	}
	s.preview = newPreviewManager(s)
	return s
}

// errMalformed ends the stream: celld answers id 0 and exits non-zero so the caller restarts it.
type errMalformed struct{ msg string }

func (e errMalformed) Error() string { return "malformed frame: " + e.msg }

// serve reads frames until EOF (nil) or a protocol violation (errMalformed), then shuts down.
func (s *server) serve(r io.Reader) error {
	defer s.shutdown()
	for {
		body, err := readFrame(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return s.malformed(err.Error())
		}
		if !utf8.Valid(body) {
			return s.malformed("frame is not valid UTF-8")
		}
		// One parse on the hot path; only a frame that does not decode is parsed again, to tell a
		// protocol violation (no object, no valid id: the stream ends) from bad arguments (an error reply).
		var req request
		if err := json.Unmarshal(body, &req); err != nil || req.ID <= 0 {
			id, _, perr := parseHeader(body)
			if perr != "" {
				return s.malformed(perr)
			}
			s.out.sendError(id, errf(codeInvalidArgument, "bad arguments: %v", err))
			continue
		}
		id, op := req.ID, req.Op
		if op == "cancel" {
			// Handled inline so a cancel is never queued behind the work it cancels.
			s.out.sendResult(id, map[string]bool{"cancelled": s.cancel(req.Target)})
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		s.mu.Lock()
		if _, dup := s.inflight[id]; dup {
			s.mu.Unlock()
			cancel()
			s.out.sendError(id, errf(codeInvalidArgument, "id %d is already in flight", id))
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
			s.dispatch(ctx, &req)
		}()
	}
}

func (s *server) malformed(msg string) error {
	s.out.sendError(0, errf(codeInvalidArgument, "malformed frame: %s", msg))
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

// afterReply is a result whose finishing work (durability, releasing resources) runs once the
// reply is on its way: it matters to the sandbox, not to the caller's latency.
type afterReply struct {
	result any
	then   func()
}

// splitReply separates a handler's result into the reply and the work that follows it.
func splitReply(res any) (any, func()) {
	if a, ok := res.(afterReply); ok {
		return a.result, a.then
	}
	return res, func() {}
}

func (s *server) dispatch(ctx context.Context, req *request) {
	res, err := s.handle(ctx, req)
	if err != nil {
		s.out.sendError(req.ID, fsError(err, "request"))
		return
	}
	reply, then := splitReply(res)
	s.out.sendResult(req.ID, reply)
	then()
}

func (s *server) handle(ctx context.Context, req *request) (any, error) {
	switch req.Op {
	case "ping":
		return map[string]any{"version": version, "pid": pid()}, nil
	case "list":
		return s.list(req.Path)
	case "stat":
		return s.stat(req.Path)
	case "read":
		return s.read(req.Path)
	case "read_bytes":
		return s.readBytes(req.Path, req.Offset, req.Limit)
	case "write", "write_bytes":
		return s.write(req)
	case "mkdir":
		return s.mkdir(req.Path, req.Parents)
	case "delete":
		return s.delete(req.Path, req.Recursive)
	case "move":
		return s.move(req.From, req.To)
	case "search":
		return s.search(ctx, req.Path, req.Query, req.MaxHits)
	case "exec":
		return s.exec(ctx, req)
	case "proc_start":
		return s.procStart(ctx, req)
	case "proc_status":
		return s.procStatus(ctx, req)
	case "proc_input":
		return s.procInput(req)
	case "proc_kill":
		return s.procKill(ctx, req)
	case "proc_list":
		return s.procList()
	case "grep":
		return s.grep(ctx, req)
	case "glob":
		return s.glob(ctx, req)
	case "preview_start":
		return s.preview.start(ctx, req.Command, req.Port)
	case "preview_stop":
		return s.preview.stop()
	case "preview_status":
		return s.preview.status(), nil
	case "":
		return nil, errf(codeInvalidArgument, "missing op")
	default:
		return nil, errf(codeInvalidArgument, "unknown op %q", req.Op)
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
	s.preview.stop()
	s.killAllProcs()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		fmt.Fprintln(stderr, "celld: handlers did not finish within 10s of shutdown")
	}
	s.jobs.killAll()
}
