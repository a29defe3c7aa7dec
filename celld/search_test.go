package main

import (
	"os"
	"strings"
	"testing"

	"workcell.dev/celld/internal/fileops"
	"workcell.dev/celld/internal/wire"
)

type searchResult struct {
	Hits      []fileops.SearchHit `json:"hits"`
	Truncated bool                `json:"truncated"`
}

func TestSearchSkipsAndLimits(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "src/a.go", "package a\n// Needle here\nnothing\nNEEDLE again\r\n")
	h.mustWrite(t, "src/b.txt", "one needle\n")
	for _, d := range []string{"node_modules/x", ".git", "dist", "build", ".next", "src/node_modules"} {
		h.mustWrite(t, d+"/hidden.txt", "needle")
	}
	h.mustWrite(t, "big.txt", strings.Repeat("needle\n", fileops.MaxSearchFileSize/7+1))
	h.mustWrite(t, "bin.dat", "needle\x00\x01")
	h.mustWrite(t, "latin1.txt", "needle caf\xe9")
	h.mustWrite(t, "long.txt", "needle"+strings.Repeat("é", 1000))

	r := decode[searchResult](t, h.call(map[string]any{"op": "search", "query": "nEEdle"}))
	want := []fileops.SearchHit{{Path: "long.txt", Line: 1, Text: ""}, {Path: "src/a.go", Line: 2, Text: "// Needle here"}, {Path: "src/a.go", Line: 4, Text: "NEEDLE again"}, {Path: "src/b.txt", Line: 1, Text: "one needle"}}
	if len(r.Hits) != len(want) || r.Truncated {
		t.Fatalf("hits %+v truncated %v", r.Hits, r.Truncated)
	}
	for i, w := range want {
		got := r.Hits[i]
		if got.Path != w.Path || got.Line != w.Line || (w.Text != "" && got.Text != w.Text) {
			t.Errorf("hit %d = %+v, want %+v", i, got, w)
		}
	}
	if n := len([]rune(r.Hits[0].Text)); n != fileops.MaxSearchLine {
		t.Errorf("long line kept %d characters", n)
	}

	sub := decode[searchResult](t, h.call(map[string]any{"op": "search", "path": "src/b.txt", "query": "NEEDLE"}))
	if len(sub.Hits) != 1 || sub.Hits[0].Path != "src/b.txt" {
		t.Fatalf("single-file search: %+v", sub)
	}

	var many strings.Builder
	for i := 0; i < 150; i++ {
		many.WriteString("x needle x\n")
	}
	os.WriteFile(h.path("src/many.txt"), []byte(many.String()), 0o644)
	capped := decode[searchResult](t, h.call(map[string]any{"op": "search", "path": "src", "query": "needle"}))
	if len(capped.Hits) != fileops.MaxSearchHits || !capped.Truncated {
		t.Fatalf("%d hits, truncated=%v", len(capped.Hits), capped.Truncated)
	}
	five := decode[searchResult](t, h.call(map[string]any{"op": "search", "query": "needle", "maxHits": 5}))
	if len(five.Hits) != 5 || !five.Truncated {
		t.Fatalf("%d hits, truncated=%v", len(five.Hits), five.Truncated)
	}
	expectCode(t, h.call(map[string]any{"op": "search", "query": ""}), wire.CodeInvalidArgument)
	expectCode(t, h.call(map[string]any{"op": "search", "query": "x", "path": "nope"}), wire.CodeNotFound)
}
