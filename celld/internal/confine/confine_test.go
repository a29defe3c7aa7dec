package confine

import (
	"strings"
	"testing"

	"workcell.dev/celld/internal/wire"
)

func TestCleanPathRules(t *testing.T) {
	ok := map[string]string{"": ".", ".": ".", "a": "a", "a/b.txt": "a/b.txt", "ä/ü": "ä/ü", ".hidden": ".hidden", "a..b": "a..b"}
	for in, want := range ok {
		got, err := CleanPath(in)
		if err != nil || got != want {
			t.Errorf("cleanPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{"/etc/passwd", "../x", "a/../b", "a/..", "..", "a\\b", "a\x00b", "a//b", "a/", "./a", "a/./b",
		strings.Repeat("a", 1025), strings.Repeat("a/", 512) + "bc"}
	for _, in := range bad {
		if _, err := CleanPath(in); err == nil || err.Code != wire.CodeInvalidPath {
			t.Errorf("cleanPath(%q) = %v; want invalid_path", in, err)
		}
	}
	if _, err := CleanPath(strings.Repeat("a", 1024)); err != nil {
		t.Errorf("1024 bytes must be accepted: %v", err)
	}
}
