package fileops

import (
	"bytes"
	"context"
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
	needle    []byte
	maxHits   int
	hits      []SearchHit
	truncated bool // the hit bound was reached
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
	sr := &searcher{needle: bytes.ToLower([]byte(query)), maxHits: limit, hits: []SearchHit{}}
	fd, dir, st, err := s.openStart(p)
	if err != nil {
		return nil, err
	}
	w := &treeWalk{ctx: ctx, skip: skipDirs}
	if dir {
		w.walk(fd, p, 0, func(dfd int, name, rel string, st *syscall.Stat_t) bool {
			if !sys.IsType(st, syscall.S_IFREG) || st.Size > MaxSearchFileSize {
				return true
			}
			if ffd, fst, ok := openFileAt(dfd, name); ok {
				sr.scanFile(ffd, &fst, rel)
				syscall.Close(ffd)
			}
			w.stop = sr.truncated
			return true
		})
	} else {
		sr.scanFile(fd, &st, p)
	}
	syscall.Close(fd)
	if ctx.Err() != nil {
		return nil, wire.Errf(wire.CodeCancelled, "search cancelled")
	}
	return map[string]any{"hits": sr.hits, "truncated": sr.truncated || w.truncated}, nil
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
