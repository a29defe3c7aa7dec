package fileops

import (
	"context"
	"path"
	"strings"
	"syscall"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

const maxGlobPattern = 1000

type GlobMatch struct {
	Path    string `json:"path"`
	Type    string `json:"type"`
	Size    int64  `json:"size"`
	MtimeMs int64  `json:"mtimeMs"`
}

// globPattern is a pattern split at '/': "**" segments match any number of directories, other
// segments match one name with path.Match ('*', '?', '[..]').
type globPattern []string

func compileGlob(p string) (globPattern, error) {
	if p == "" || len(p) > maxGlobPattern || strings.IndexByte(p, 0) >= 0 {
		return nil, wire.Errf(wire.CodeInvalidPattern, "pattern must be 1..%d bytes without NUL", maxGlobPattern)
	}
	if strings.HasPrefix(p, "/") {
		return nil, wire.Errf(wire.CodeInvalidPattern, "pattern must be relative")
	}
	segs := strings.Split(strings.TrimSuffix(p, "/"), "/")
	var out globPattern
	for _, seg := range segs {
		if seg == "" {
			return nil, wire.Errf(wire.CodeInvalidPattern, "pattern has an empty segment")
		}
		if seg == "**" {
			if len(out) > 0 && out[len(out)-1] == "**" {
				continue // a/**/**/b is a/**/b
			}
		} else if _, err := path.Match(seg, ""); err != nil {
			return nil, wire.Errf(wire.CodeInvalidPattern, "bad segment %q: %v", seg, err)
		}
		out = append(out, seg)
	}
	return out, nil
}

// match reports whether a relative path matches, by dynamic programming over (pattern, path)
// segment positions: linear in their product, whatever the number of "**".
func (g globPattern) match(rel string) bool {
	names := strings.Split(rel, "/")
	// ok[j]: pattern prefix g[:i] matches names[:j]
	ok := make([]bool, len(names)+1)
	ok[0] = true
	for _, seg := range g {
		next := make([]bool, len(names)+1)
		if seg == "**" {
			seen := false
			for j := 0; j <= len(names); j++ {
				seen = seen || ok[j]
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(names); j++ {
				if ok[j-1] {
					m, _ := path.Match(seg, names[j-1])
					next[j] = m
				}
			}
		}
		ok = next
	}
	return ok[len(names)]
}

type GlobArgs struct {
	Path       string `json:"path"`
	Pattern    string `json:"pattern"`
	Exclude    string `json:"exclude"`
	Type       string `json:"type"`
	MaxResults *int   `json:"maxResults"`
}

func (s *Files) Glob(ctx context.Context, req *GlobArgs) (any, error) {
	p, perr := confine.CleanPath(req.Path)
	if perr != nil {
		return nil, perr
	}
	pattern, err := compileGlob(req.Pattern)
	if err != nil {
		return nil, err
	}
	var exclude globPattern
	if req.Exclude != "" {
		if exclude, err = compileGlob(req.Exclude); err != nil {
			return nil, err
		}
	}
	kind := req.Type
	if kind == "" {
		kind = "any"
	}
	if kind != "any" && kind != "file" && kind != "directory" {
		return nil, wire.Errf(wire.CodeInvalidArgument, "type must be any, file or directory")
	}
	limit, err := clampResults(req.MaxResults)
	if err != nil {
		return nil, err
	}
	fd, dir, _, err := s.openStart(p)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if !dir {
		return nil, wire.Errf(wire.CodeNotADirectory, "%s: not a directory", p)
	}
	matches := []GlobMatch{}
	truncated := false
	prefix := ""
	if p != "." {
		prefix = p + "/"
	}
	w := &treeWalk{ctx: ctx}
	w.walk(fd, ".", 0, func(dfd int, name, rel string, st *syscall.Stat_t) bool {
		if exclude != nil && exclude.match(rel) {
			return false
		}
		isDir := sys.IsType(st, syscall.S_IFDIR)
		wanted := kind == "any" || (kind == "directory" && isDir) || (kind == "file" && sys.IsType(st, syscall.S_IFREG))
		if wanted && pattern.match(rel) {
			if len(matches) == limit {
				truncated = true
				w.stop = true
				return false
			}
			matches = append(matches, GlobMatch{Path: prefix + rel, Type: fileType(st), Size: st.Size,
				MtimeMs: st.Mtim.Sec*1000 + st.Mtim.Nsec/1_000_000})
		}
		return true
	})
	if ctx.Err() != nil {
		return nil, wire.Errf(wire.CodeCancelled, "glob cancelled")
	}
	return map[string]any{"matches": matches, "truncated": truncated || w.truncated}, nil
}
