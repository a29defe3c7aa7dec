package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/wire"
)

type grepResult struct {
	Matches   []fileops.SearchHit `json:"matches"`
	Truncated bool                `json:"truncated"`
}

type globResult struct {
	Matches   []fileops.GlobMatch `json:"matches"`
	Truncated bool                `json:"truncated"`
}

func TestGrepRegexLiteralIncludeAndSkips(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "src/a.py", "def foo():\n    return 42\n\nfoo()\r\n")
	h.mustWrite(t, "src/b.txt", "foo(bar)\n")
	h.mustWrite(t, "dist/c.py", "foo = 1\n")
	h.mustWrite(t, "node_modules/x/d.py", "foo\n")
	h.mustWrite(t, ".git/e.py", "foo\n")
	h.mustWrite(t, "bin.py", "foo\x00")
	h.mustWrite(t, "latin1.py", "foo caf\xe9")
	h.mustWrite(t, "big.py", strings.Repeat("foo\n", fileops.MaxSearchFileSize/4+1))

	r := decode[grepResult](t, h.call(map[string]any{"op": "grep", "query": `^foo\b`, "regex": true, "matchPerLine": true, "include": "*.py"}))
	got := []string{}
	for _, m := range r.Matches {
		got = append(got, m.Path+":"+strconv.Itoa(m.Line)+":"+m.Text)
	}
	want := "dist/c.py:1:foo = 1|src/a.py:4:foo()"
	if strings.Join(got, "|") != want || r.Truncated {
		t.Fatalf("got %v", got)
	}
	lit := decode[grepResult](t, h.call(map[string]any{"op": "grep", "query": "FOO(", "caseInsensitive": true, "path": "src", "matchPerLine": false}))
	if len(lit.Matches) != 2 || lit.Matches[0].Path != "src/a.py" || lit.Matches[0].Line != 1 || lit.Matches[1].Path != "src/b.txt" {
		t.Fatalf("%+v", lit.Matches)
	}
	one := decode[grepResult](t, h.call(map[string]any{"op": "grep", "query": "foo", "maxResults": 1, "matchPerLine": true}))
	if len(one.Matches) != 1 || !one.Truncated {
		t.Fatalf("%+v", one)
	}
	expectCode(t, h.call(map[string]any{"op": "grep", "query": "(", "regex": true}), wire.CodeInvalidPattern)
	expectCode(t, h.call(map[string]any{"op": "grep", "query": "x", "include": "[a"}), wire.CodeInvalidPattern)
	expectCode(t, h.call(map[string]any{"op": "grep", "query": "x", "maxResults": 1001}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "grep", "query": "x", "path": "../etc"}), wire.CodeInvalidPath)
}

func TestGrepStaysLinearOnAPathologicalPattern(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	// (a+)+$ against "aaaa…b" backtracks exponentially in a backtracking engine; RE2 is linear.
	h.mustWrite(t, "slow.txt", strings.Repeat("a", 100_000)+"b\n")
	start := time.Now()
	r := decode[grepResult](t, h.callWithin(map[string]any{"op": "grep", "query": "(a+)+$", "regex": true, "matchPerLine": true}, 20*time.Second))
	if len(r.Matches) != 0 {
		t.Fatalf("%+v", r)
	}
	t.Logf("pathological grep over 100 kB: %s", time.Since(start))
}

func TestGlobSegmentsDoubleStarExcludeAndType(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "a.py", "")
	h.mustWrite(t, "src/b.py", "")
	h.mustWrite(t, "src/deep/er/c.py", "")
	h.mustWrite(t, "src/deep/d.txt", "")
	h.mustWrite(t, "node_modules/m.py", "")
	if err := os.Symlink("/etc", h.path("src/link")); err != nil {
		t.Fatal(err)
	}
	paths := func(r globResult) string {
		var out []string
		for _, m := range r.Matches {
			out = append(out, m.Path+"="+m.Type)
		}
		return strings.Join(out, " ")
	}
	r := decode[globResult](t, h.call(map[string]any{"op": "glob", "pattern": "**/*.py", "exclude": "node_modules/**"}))
	if got := paths(r); got != "a.py=file src/b.py=file src/deep/er/c.py=file" {
		t.Fatalf("got %s", got)
	}
	r = decode[globResult](t, h.call(map[string]any{"op": "glob", "path": "src", "pattern": "*", "type": "directory"}))
	if got := paths(r); got != "src/deep=dir" {
		t.Fatalf("got %s", got)
	}
	r = decode[globResult](t, h.call(map[string]any{"op": "glob", "path": "src", "pattern": "**/l?nk"}))
	if got := paths(r); got != "src/link=symlink" {
		t.Fatalf("got %s (links are listed, never followed)", got)
	}
	r = decode[globResult](t, h.call(map[string]any{"op": "glob", "pattern": "src/**/[cd].*", "maxResults": 1}))
	if got := paths(r); got != "src/deep/d.txt=file" || !r.Truncated {
		t.Fatalf("got %s truncated %v", got, r.Truncated)
	}
	expectCode(t, h.call(map[string]any{"op": "glob", "pattern": "[a"}), wire.CodeInvalidPattern)
	expectCode(t, h.call(map[string]any{"op": "glob", "pattern": "/etc/*"}), wire.CodeInvalidPattern)
	expectCode(t, h.call(map[string]any{"op": "glob", "pattern": "*", "path": "src/link"}), wire.CodePathEscape)
	expectCode(t, h.call(map[string]any{"op": "glob", "pattern": "*", "type": "fifo"}), wire.CodeInvalidArgument)
}
