package procs

import (
	"strings"
	"testing"
)

func TestKeepBothSharesTheCap(t *testing.T) {
	fill := func(n int) *headTail {
		h := newHeadTail(10)
		h.Write([]byte(strings.Repeat("x", n)))
		return h
	}
	for _, c := range []struct{ out, err, keptOut, keptErr int }{
		{4, 6, 4, 6},  // fits
		{3, 30, 3, 7}, // a small stream keeps all of itself
		{30, 2, 8, 2},
		{30, 30, 5, 5}, // both large: half each
	} {
		out, errText, trunc := keepBoth(fill(c.out), fill(c.err), 10)
		count := func(s string) int { return strings.Count(s, "x") }
		if count(out) != c.keptOut || count(errText) != c.keptErr || trunc != (c.out+c.err > 10) {
			t.Errorf("%+v: kept %d and %d (truncated %v): %q %q", c, count(out), count(errText), trunc, out, errText)
		}
	}
}

func TestHeadTailBuffer(t *testing.T) {
	h := newHeadTail(10)
	for _, s := range []string{"ab", "cdefgh", "ijklmnop", "qrstuvwxyz"} {
		h.Write([]byte(s))
	}
	got, trunc := h.String()
	if !trunc || got != "abcde\n[... 16 bytes truncated ...]\nvwxyz" {
		t.Fatalf("%q", got)
	}
	h = newHeadTail(10)
	h.Write([]byte("0123456789"))
	if got, trunc := h.String(); trunc || got != "0123456789" {
		t.Fatalf("%q %v", got, trunc)
	}
	// Multi-byte characters are never split at the cut points.
	h = newHeadTail(10)
	h.Write([]byte(strings.Repeat("é", 20)))
	got, _ = h.String()
	if !strings.HasPrefix(got, "éé\n") || !strings.HasSuffix(got, "\néé") {
		t.Fatalf("%q", got)
	}
}
