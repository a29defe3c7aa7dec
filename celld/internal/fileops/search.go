package fileops

import (
	"bytes"
	"context"
	"strings"

	"workcell.dev/celld/internal/confine"
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
	cut, err := s.walkText(ctx, p, "search", skipDirs, func(string) bool { return true }, sr.scan)
	if err != nil {
		return nil, err
	}
	return map[string]any{"hits": sr.hits, "truncated": sr.truncated || cut}, nil
}

// scan adds the file's lines that hold the needle, any case; true once the hit bound is reached.
func (sr *searcher) scan(data []byte, rel string) bool {
	lower := bytes.ToLower(data)
	if !bytes.Contains(lower, sr.needle) {
		return false
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
			return true
		}
		sr.hits = append(sr.hits, SearchHit{Path: rel, Line: line, Text: clipRunes(strings.TrimSuffix(string(or), "\r"), MaxSearchLine)})
	}
	return false
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
