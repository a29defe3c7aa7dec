package identity

import (
	"testing"
)

func TestParseIDs(t *testing.T) {
	if got, err := ParseIDs("999:998"); err != nil || got != (ids{999, 998}) {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"", "999", "999:", ":1", "a:b", "-1:1", "1:2:3", "4294967296:1"} {
		if _, err := ParseIDs(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
