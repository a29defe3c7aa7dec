package fileops

import (
	"bytes"
	"context"
	"path"
	"regexp"
	"strings"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/wire"
)

// grepSkip: grep looks into build output (unlike search) but never into dependencies or VCS data.
var grepSkip = map[string]bool{"node_modules": true, ".git": true}

type GrepArgs struct {
	Path            string `json:"path"`
	Query           string `json:"query"`
	Regex           bool   `json:"regex"`
	CaseInsensitive bool   `json:"caseInsensitive"`
	Include         string `json:"include"`
	MatchPerLine    bool   `json:"matchPerLine"`
	MaxResults      *int   `json:"maxResults"`
}

type grepper struct {
	re        *regexp.Regexp
	include   string
	perLine   bool
	max       int
	hits      []SearchHit
	truncated bool
}

// grep searches text files with Go's RE2 engine (linear in the input, so no pattern can make it
// backtrack); a literal query is quoted into the same engine.
func (s *Files) Grep(ctx context.Context, req *GrepArgs) (any, error) {
	p, perr := confine.CleanPath(req.Path)
	if perr != nil {
		return nil, perr
	}
	if req.Query == "" || len(req.Query) > maxSearchQuery || strings.IndexByte(req.Query, 0) >= 0 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "query must be 1..%d bytes without NUL", maxSearchQuery)
	}
	expr := req.Query
	if !req.Regex {
		expr = regexp.QuoteMeta(expr)
	}
	if req.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, wire.Errf(wire.CodeInvalidPattern, "%v", err)
	}
	if req.Include != "" {
		if _, err := path.Match(req.Include, ""); err != nil || strings.Contains(req.Include, "/") {
			return nil, wire.Errf(wire.CodeInvalidPattern, "include must be a file-name glob such as *.py")
		}
	}
	limit, err := clampResults(req.MaxResults)
	if err != nil {
		return nil, err
	}
	g := &grepper{re: re, include: req.Include, perLine: req.MatchPerLine, max: limit, hits: []SearchHit{}}
	cut, err := s.walkText(ctx, p, "grep", grepSkip, g.included, g.scan)
	if err != nil {
		return nil, err
	}
	return map[string]any{"matches": g.hits, "truncated": g.truncated || cut}, nil
}

func (g *grepper) included(name string) bool {
	if g.include == "" {
		return true
	}
	ok, _ := path.Match(g.include, name)
	return ok
}

// scan adds the file's matching lines (or its first one); true once the result bound is reached.
func (g *grepper) scan(data []byte, rel string) bool {
	rest := data
	for line := 1; len(rest) > 0; line++ {
		var text []byte
		text, rest = cutLine(rest)
		text = bytes.TrimSuffix(text, []byte{'\r'})
		if !g.re.Match(text) {
			continue
		}
		if len(g.hits) == g.max {
			g.truncated = true
			return true
		}
		g.hits = append(g.hits, SearchHit{Path: rel, Line: line, Text: clipRunes(string(text), MaxSearchLine)})
		if !g.perLine {
			return false
		}
	}
	return false
}
