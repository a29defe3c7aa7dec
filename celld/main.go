// Command celld runs inside a sandbox container and serves file, command and preview requests
// from sandbox-service over length-prefixed JSON frames on stdin/stdout. See README.md.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"syscall"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/identity"
	"workcell.dev/celld/internal/procs"
)

const version = "0.1.0"

var stderr io.Writer = os.Stderr

func pid() int { return os.Getpid() }

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) > 0 && args[0] == "serve" {
		args = args[1:]
	}
	fs := flag.NewFlagSet("celld", flag.ContinueOnError)
	root := fs.String("root", "/workspace", "workspace directory every path is confined beneath")
	maxOutput := fs.Int("max-output-chars", 50_000, "per-stream cap on exec output kept in the result")
	showVersion := fs.Bool("version", false, "print the version and exit")
	connect := fs.String("connect", "", "serve on this unix socket (after a token line on stdin) instead of stdin/stdout")
	user := fs.String("user", "", "UID:GID celld drops to from root before serving (with --workload-user)")
	workloadUser := fs.String("workload-user", "", "UID:GID every command runs as and every file operation acts as (with --user)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *showVersion {
		fmt.Println("celld " + version)
		return 0
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "celld: unexpected arguments %v\n", fs.Args())
		return 2
	}
	if *maxOutput < 100 {
		fmt.Fprintln(stderr, "celld: --max-output-chars must be at least 100")
		return 2
	}
	if (*user == "") != (*workloadUser == "") {
		fmt.Fprintln(stderr, "celld: --user and --workload-user go together")
		return 2
	}
	if *user != "" {
		self, err := identity.ParseIDs(*user)
		work, werr := identity.ParseIDs(*workloadUser)
		if err == nil {
			err = werr
		}
		if err != nil {
			fmt.Fprintf(stderr, "celld: --user, --workload-user: %v\n", err)
			return 2
		}
		// Before anything else: nothing is read or opened with root's rights.
		if err := identity.BecomeSupervisor(self, work); err != nil {
			fmt.Fprintf(stderr, "celld: %v\n", err)
			return 1
		}
	}
	// A small heap target keeps idle RSS low; big reads are transient.
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(64 << 20)
	// celld waits on pipes and processes; one P is plenty, and every extra P keeps its own span
	// caches, GC worker and threads resident (~300 kB idle RSS per P). GOMAXPROCS still overrides.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}

	abs, err := filepath.Abs(*root)
	if err != nil {
		fmt.Fprintf(stderr, "celld: %v\n", err)
		return 1
	}
	r, err := confine.OpenRoot(abs)
	if err != nil {
		fmt.Fprintf(stderr, "celld: cannot open root %s: %v\n", abs, err)
		return 1
	}
	if !r.Openat2 {
		fmt.Fprintln(stderr, "celld: openat2 unavailable; using the O_NOFOLLOW component walk")
	}
	procs.Reaper()
	// With SIGPIPE notified, a vanished caller makes writes fail with EPIPE instead of killing
	// celld before it can clean up; handled signals revert to default in children.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)

	var in io.Reader
	var out io.Writer
	stop := make(chan error, 2)
	if *connect == "" {
		in, out = pollable(0, "/dev/stdin"), pollable(1, "/dev/stdout")
	} else {
		token, err := readToken(os.Stdin)
		if err != nil {
			fmt.Fprintf(stderr, "celld: %v\n", err)
			return 2
		}
		conn, err := dialCaller(*connect, token)
		if err != nil {
			fmt.Fprintf(stderr, "celld: %v\n", err)
			return 1
		}
		in, out = conn, conn
		// The exec stays attached: EOF on stdin still means the caller is done with this celld.
		go func() { io.Copy(io.Discard, os.Stdin); stop <- nil }()
	}
	term := notifyStop() // before the first shell can start
	s := newServer(r, *maxOutput, out)
	// A failed write means the caller is gone: clean up and leave (a blocked read cannot be
	// interrupted, so do not wait for serve).
	s.out.OnFail = func(error) { stop <- nil }
	go func() { stop <- s.serve(in) }()
	select {
	case err = <-stop:
	case <-term:
		err = nil
	}
	s.shutdown()
	if _, bad := err.(errMalformed); bad {
		fmt.Fprintf(stderr, "celld: %v\n", err)
		return 3
	}
	return 0
}

// notifyStop delivers the signals that end celld. It also gives every process celld starts those
// signals' default action: started with SIGINT or SIGHUP ignored (a background job of a script),
// Go would leave them ignored and every shell would inherit that, so Ctrl-C in a terminal would not
// stop its command; once notified, Go handles them, and exec resets handled signals to the default.
func notifyStop() chan os.Signal {
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	return term
}
