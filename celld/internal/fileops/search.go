package fileops

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

const (
	MaxSearchHits     = 100
	MaxSearchFileSize = 1_000_000
	MaxSearchLine     = 500 // characters kept per hit line
	maxSearchQuery    = 1000
	maxSearchFiles    = 50_000
	maxSearchDepth    = 64
)

// skipDirs are never descended into by search: dependency, VCS and build output trees.
var skipDirs = map[string]bool{"node_modules": true, ".git": true, "dist": true, "build": true, ".next": true}

type SearchHit struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

type SearchArgs struct {
	Path    string `json:"path"`
	Query   string `json:"query"`
	MaxHits *int   `json:"maxHits"`
}

type searcher struct {
	ctx       context.Context
	needle    []byte
	maxHits   int
	hits      []SearchHit
	files     int
	truncated bool
}

func (s *Files) Search(ctx context.Context, path, query string, maxHits *int) (any, error) {
	p, perr := confine.CleanPath(path)
	if perr != nil {
		return nil, perr
	}
	if query == "" || len(query) > maxSearchQuery {
		return nil, wire.Errf(wire.CodeInvalidArgument, "query must be 1..%d bytes", maxSearchQuery)
	}
	limit := MaxSearchHits
	if maxHits != nil && *maxHits != 0 {
		if *maxHits < 0 {
			return nil, wire.Errf(wire.CodeInvalidArgument, "maxHits must be positive")
		}
		if *maxHits < limit {
			limit = *maxHits
		}
	}
	// Probe with O_PATH first so a FIFO or device given as the start path is never opened for I/O.
	probe, err := s.root.Open(p, sys.OPath, 0, confine.FollowBeneath)
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	st, err := sys.Fstat(probe)
	if err != nil {
		syscall.Close(probe)
		return nil, wire.FSError(err, p)
	}
	sr := &searcher{ctx: ctx, needle: bytes.ToLower([]byte(query)), maxHits: limit, hits: []SearchHit{}}
	switch {
	case sys.IsType(&st, syscall.S_IFDIR):
		fd, err := sys.Openat(probe, ".", syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		syscall.Close(probe)
		if err != nil {
			return nil, wire.FSError(err, p)
		}
		sr.walk(fd, p, 0)
		syscall.Close(fd)
	case sys.IsType(&st, syscall.S_IFREG):
		syscall.Close(probe)
		fd, fst, err := s.openRegular(p)
		if err != nil {
			return nil, err
		}
		sr.scanFile(fd, &fst, p)
		syscall.Close(fd)
	default:
		syscall.Close(probe)
		return nil, wire.Errf(wire.CodeNotRegularFile, "%s: not a file or directory", p)
	}
	if ctx.Err() != nil {
		return nil, wire.Errf(wire.CodeCancelled, "search cancelled")
	}
	return map[string]any{"hits": sr.hits, "truncated": sr.truncated}, nil
}

func (sr *searcher) done() bool { return sr.truncated || sr.ctx.Err() != nil }

// walk visits a directory in name order through fds opened O_NOFOLLOW; links are skipped.
func (sr *searcher) walk(dfd int, rel string, depth int) {
	if depth > maxSearchDepth {
		sr.truncated = true
		return
	}
	names, err := ReadNames(dfd, nil)
	if err != nil {
		return
	}
	sort.Strings(names)
	for _, name := range names {
		if sr.done() {
			return
		}
		st, err := sys.LstatAt(dfd, name)
		if err != nil {
			continue
		}
		child := name
		if rel != "." {
			child = rel + "/" + name
		}
		switch {
		case sys.IsType(&st, syscall.S_IFDIR):
			if skipDirs[name] {
				continue
			}
			fd, err := sys.Openat(dfd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
			if err != nil {
				continue
			}
			sr.walk(fd, child, depth+1)
			syscall.Close(fd)
		case sys.IsType(&st, syscall.S_IFREG) && st.Size <= MaxSearchFileSize:
			if sr.files++; sr.files > maxSearchFiles {
				sr.truncated = true
				return
			}
			fd, err := sys.Openat(dfd, name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0)
			if err != nil {
				continue
			}
			if fst, err := sys.Fstat(fd); err == nil && sys.IsType(&fst, syscall.S_IFREG) {
				sr.scanFile(fd, &fst, child)
			}
			syscall.Close(fd)
		}
	}
}

func (sr *searcher) scanFile(fd int, st *syscall.Stat_t, rel string) {
	if st.Size > MaxSearchFileSize {
		return
	}
	data, complete, err := ReadUpTo(fd, 0, MaxSearchFileSize, st.Size)
	if err != nil || !complete || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return // unreadable, grew past the limit, or binary
	}
	lower := bytes.ToLower(data)
	if !bytes.Contains(lower, sr.needle) {
		return
	}
	// Lower-casing may change byte lengths but never the number of '\n', so walk both in step.
	orig := data
	for line := 1; len(lower) > 0 || len(orig) > 0; line++ {
		lo, lrest := cutLine(lower)
		or, orest := cutLine(orig)
		lower, orig = lrest, orest
		if !bytes.Contains(lo, sr.needle) {
			continue
		}
		if len(sr.hits) == sr.maxHits {
			sr.truncated = true
			return
		}
		sr.hits = append(sr.hits, SearchHit{Path: rel, Line: line, Text: clipRunes(strings.TrimSuffix(string(or), "\r"), MaxSearchLine)})
	}
}

func cutLine(b []byte) ([]byte, []byte) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}
