package main

import (
	"os"
	"sort"
	"strings"
	"testing"

	"workcell.dev/celld/internal/procs"
	"workcell.dev/celld/internal/testenv"
)

// normalized makes env output comparable: bash exports variables in hash order, and CELLD_JOB
// differs per job by design.
func normalized(stdout string, isEnv bool) string {
	if !isEnv {
		return stdout
	}
	var keep []string
	for _, l := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(l, procs.JobEnv+"=") {
			keep = append(keep, l)
		}
	}
	sort.Strings(keep)
	return strings.Join(keep, "\n")
}

func TestDirectExecIsIndistinguishableFromBash(t *testing.T) {
	testenv.Hermetic(t, procs.BashReadsAtStart)
	h := newHarness(t, harnessOpts{})
	h.mustWrite(t, "sub/a.txt", "a")
	h.mustWrite(t, "sub/b.txt", "b")
	h.mustWrite(t, "sub/prog", "#!/bin/sh\necho \"prog $1 in $PWD\"; echo to-stderr >&2; exit 4\n")
	h.mustWrite(t, "sub/noshebang", "echo \"no shebang: $0 $1\"\n")
	h.mustWrite(t, "sub/noexec", "#!/bin/sh\necho never\n")
	for _, f := range []string{"sub/prog", "sub/noshebang"} {
		if err := os.Chmod(h.path(f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(h.path("sub"), h.path("link")); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name, command, cwd string
		env                map[string]string
		stdin              string
		decide             bool // directCommand accepts it
		direct             bool // and the exec succeeded (no fallback)
		code               int
		stdout, stderr     string // substrings the result must contain
	}{
		{name: "ls of cwd", command: "ls -a", cwd: "sub", decide: true, direct: true, stdout: "a.txt\nb.txt\n"},
		{name: "env", command: "env", cwd: "sub", env: map[string]string{"FOO": "bar", "SHLVL": "3"}, decide: true, direct: true,
			stdout: "PWD=" + h.path("sub")},
		{name: "env with a PWD naming the cwd through a link", command: "env", cwd: "sub",
			env: map[string]string{"PWD": h.path("link")}, decide: true, direct: true, stdout: "PWD=" + h.path("link") + "\n"},
		{name: "env with a foreign PWD and odd SHLVL", command: "env", cwd: "sub",
			env: map[string]string{"PWD": "/", "SHLVL": "-4", "OLDPWD": "/"}, decide: true, direct: true, stdout: "SHLVL=0\n"},
		{name: "env with an absolute path", command: "/usr/bin/env", decide: true, direct: true, stdout: "_=/usr/bin/env\n"},
		{name: "relative program", command: "./prog one", cwd: "sub", decide: true, direct: true, code: 4,
			stdout: "prog one in " + h.path("sub"), stderr: "to-stderr"},
		{name: "program through a relative path with ..", command: "../link/prog two", cwd: "sub", decide: true, direct: true, code: 4,
			stdout: "prog two in "},
		{name: "stdin reaches the program", command: "cat", stdin: "piped", decide: true, direct: true, stdout: "piped"},
		{name: "true", command: "true", decide: true, direct: true},
		{name: "false", command: "false", decide: true, direct: true, code: 1},
		{name: "script without shebang", command: "./noshebang x", cwd: "sub", decide: true, code: 0, stdout: "no shebang: ./noshebang x"},
		{name: "echo builtin", command: "echo hi", stdout: "hi\n"},
		{name: "true with arguments is the builtin", command: "true --help"},
		{name: "exit builtin", command: "exit 3", code: 3},
		{name: "glob", command: "ls *.txt", cwd: "sub", stdout: "a.txt\nb.txt\n"},
		{name: "missing program", command: "no-such-program-x1 arg", code: 127, stderr: "no-such-program-x1: command not found"},
		{name: "not executable", command: "./noexec", cwd: "sub", code: 126, stderr: "Permission denied"},
		{name: "a directory", command: "./sub", code: 126, stderr: "Is a directory"},
		{name: "assignment prefix", command: "X=1 env", stdout: "X=1\n"},
		{name: "job spec", command: "%1", code: 1},
		{name: "BASH_ENV in the environment", command: "env", env: map[string]string{"BASH_ENV": "/dev/null"}, stdout: "BASH_ENV=/dev/null"},
		{name: "variable", command: "ls $HOME", code: -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, err := procs.ExecEnv(c.env)
			if err != nil {
				t.Fatal(err)
			}
			cwd, err := h.s.procs.ResolveCwdInfo(c.cwd, true)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := procs.DirectCommand(c.command, env, cwd); ok != c.decide {
				t.Fatalf("directCommand(%q) = %v, want %v", c.command, ok, c.decide)
			}
			run := func(command string) procs.ExecResult {
				req := map[string]any{"op": "exec", "command": command, "cwd": c.cwd}
				if c.env != nil {
					req["env"] = c.env
				}
				if c.stdin != "" {
					req["stdin"] = c.stdin
				}
				return decode[procs.ExecResult](t, h.call(req))
			}
			before := procs.DirectStarts.Load()
			got := run(c.command)
			if direct := procs.DirectStarts.Load() > before; direct != c.direct {
				t.Fatalf("ran directly: %v, want %v", direct, c.direct)
			}
			if c.code >= 0 && got.ExitCode != c.code {
				t.Errorf("exit code %d, want %d (%+v)", got.ExitCode, c.code, got)
			}
			if !strings.Contains(got.Stdout, c.stdout) || !strings.Contains(got.Stderr, c.stderr) {
				t.Errorf("stdout %q stderr %q, want them to contain %q and %q", got.Stdout, got.Stderr, c.stdout, c.stderr)
			}
			if !c.decide {
				return
			}
			// The same command with its first word quoted is bash's to run, with identical meaning.
			first, rest, _ := strings.Cut(c.command, " ")
			before = procs.DirectStarts.Load()
			want := run("'" + first + "' " + rest)
			if procs.DirectStarts.Load() != before {
				t.Fatal("the quoted command did not go through bash")
			}
			isEnv := strings.HasSuffix(first, "env")
			if got.ExitCode != want.ExitCode || normalized(got.Stdout, isEnv) != normalized(want.Stdout, isEnv) || got.Stderr != want.Stderr {
				t.Errorf("direct:\n%+v\nbash:\n%+v", got, want)
			}
		})
	}
}

func TestDirectExecKillsSetsidDescendants(t *testing.T) {
	testenv.Hermetic(t, procs.BashReadsAtStart)
	h := newHarness(t, harnessOpts{})
	for _, prefix := range []string{"", "env -u CELLD_JOB "} {
		arg := uniqueSleep()
		before := procs.DirectStarts.Load()
		r := decode[procs.ExecResult](t, h.call(map[string]any{"op": "exec", "command": prefix + "setsid sleep " + arg}))
		if procs.DirectStarts.Load() == before || r.ExitCode != 0 {
			t.Fatalf("%q: direct %v, %+v", prefix, procs.DirectStarts.Load() > before, r)
		}
		if p := procsRunning("sleep", arg); len(p) > 0 {
			t.Errorf("%q: the setsid child outlived its command: %v", prefix, p)
		}
	}
}
