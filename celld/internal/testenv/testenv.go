// Package testenv holds what tests of several celld packages share.
package testenv

import (
	"os"
	"strings"
	"testing"
)

// Hermetic removes, for the duration of a test, the variables that would send every command to
// bash: those bashReads names (a developer's SSH_CLIENT, exported functions) and a stale OLDPWD.
// The caller passes procs.BashReadsAtStart; taking it as a parameter keeps procs' own tests free
// of an import cycle.
func Hermetic(t *testing.T, bashReads func(name string) bool) {
	t.Helper()
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if bashReads(name) || name == "OLDPWD" {
			os.Unsetenv(name)
			t.Cleanup(func() { os.Setenv(name, value) })
		}
	}
}
