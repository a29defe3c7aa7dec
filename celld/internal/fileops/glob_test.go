package fileops

import (
	"testing"
)

func TestGlobMatcher(t *testing.T) {
	cases := []struct {
		pattern, path string
		want          bool
	}{
		{"**", "a/b/c", true}, {"**/c", "c", true}, {"a/**/c", "a/c", true}, {"a/**/c", "a/x/y/c", true},
		{"a/*/c", "a/x/y/c", false}, {"*.go", "dir/x.go", false}, {"**/**/*.go", "x.go", true}, {"a?", "ab", true},
	}
	for _, c := range cases {
		g, err := compileGlob(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.match(c.path); got != c.want {
			t.Errorf("%s ~ %s = %v", c.pattern, c.path, got)
		}
	}
}
