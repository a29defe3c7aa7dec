package procs

import (
	"strconv"
	"strings"
	"syscall"

	"workcell.dev/celld/internal/sys"
)

// Direct exec: `bash -c "prog arg …"` costs a bash start (~3.5 ms in a Firecracker VM) only to
// exec prog in the same process. For commands where bash could do nothing but that, celld execs
// prog itself with the environment bash would have passed. Anything bash might interpret
// differently (expansions, builtins, functions or options imported from the environment, unusual
// PATH results) goes to bash, and so does any failure to exec, so messages and 126/127 stay bash's.

// bashWords are the bash 5.2 keywords and builtins (`compgen -k`, `enable -a`): a first word among
// them is never looked up in PATH.
var bashWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if then else elif fi case esac for select while until do done in
		function time { } ! [[ ]] coproc
		. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare
		dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill
		let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt
		source suspend test times trap true type typeset ulimit umask unalias unset wait`) {
		m[w] = true
	}
	return m
}()

// noopPrograms stand in for the builtins whose only effect, without arguments, is an exit status.
var noopPrograms = map[string][]string{
	"true":  {"/usr/bin/true", "/bin/true"},
	"false": {"/usr/bin/false", "/bin/false"},
}

// safeWordByte is the charset of a word bash takes literally: no quoting, expansion, globbing,
// redirection, comments, history, or list syntax.
func safeWordByte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("_./:@%+,=-", c) >= 0
}

// splitSimpleCommand returns the words of command if it is a plain list of safe words separated by
// spaces or tabs.
func splitSimpleCommand(command string) ([]string, bool) {
	words := strings.FieldsFunc(command, func(r rune) bool { return r == ' ' || r == '\t' })
	if len(words) == 0 {
		return nil, false
	}
	for i := 0; i < len(command); i++ {
		if c := command[i]; c != ' ' && c != '\t' && !safeWordByte(c) {
			return nil, false
		}
	}
	// `X=1 cmd` is an assignment; `%1` is a job spec (bash runs fg).
	if strings.ContainsAny(words[0], "=%") || bashWords[words[0]] && !isNoop(words) {
		return nil, false
	}
	return words, true
}

func isNoop(words []string) bool { return len(words) == 1 && noopPrograms[words[0]] != nil }

// directCmd is a program to exec in place of `bash -c command`.
type directCmd struct {
	path string   // file to execve
	argv []string // argv[0] is the word as typed, like bash passes it
	env  []string
}

// CwdInfo is the command's working directory: the path given to chdir, the kernel's name for it
// (what getcwd returns) and its identity.
type CwdInfo struct {
	dir, physical string
	dev, ino      uint64
}

// DirectCommand decides whether command can skip bash; env is the environment bash would get
// (without CELLD_JOB, which the job table appends to either).
func DirectCommand(command string, env []string, cwd CwdInfo) (*directCmd, bool) {
	words, ok := splitSimpleCommand(command)
	if !ok || cwd.physical == "" {
		return nil, false
	}
	vars := make(map[string]int, len(env)) // name -> index in env
	for i, kv := range env {
		eq := strings.IndexByte(kv, '=')
		if eq <= 0 {
			return nil, false // bash's treatment of such entries is not worth mirroring
		}
		name := kv[:eq]
		if _, dup := vars[name]; dup || BashReadsAtStart(name) {
			return nil, false
		}
		vars[name] = i
	}
	get := func(name string) (string, bool) {
		if i, ok := vars[name]; ok {
			return env[i][len(name)+1:], true
		}
		return "", false
	}

	var path string
	switch {
	case isNoop(words):
		for _, p := range noopPrograms[words[0]] {
			if executableFile(p) {
				path = p
				break
			}
		}
	case strings.IndexByte(words[0], '/') >= 0:
		p := words[0]
		if p[0] != '/' {
			p = cwd.dir + "/" + p // not cleaned: `..` after a symlink must resolve like the kernel does
		}
		if executableFile(p) {
			path = p
		}
	default:
		pathVar, ok := get("PATH")
		if !ok {
			return nil, false // bash would search its built-in default PATH
		}
		path = searchPath(words[0], pathVar)
	}
	if path == "" {
		return nil, false
	}

	// The variables bash itself exports: PWD, SHLVL (incremented at start, decremented again for
	// the exec of the last command) and _ (the program's path as bash found it).
	pwd := cwd.physical
	if v, ok := get("PWD"); ok && v != "" && v[0] == '/' && sameFile(v, cwd) {
		if !isCleanAbs(v) {
			return nil, false // bash canonicalizes it; leave that to bash
		}
		pwd = v
	}
	shlvl := 0
	if v, ok := get("SHLVL"); ok && v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n >= 999 || len(v) > 3 || strings.IndexByte(v, '+') >= 0 {
			return nil, false // bash warns about the level or parses it more liberally
		}
		if n > 0 {
			shlvl = n
		}
	}
	if v, ok := get("OLDPWD"); ok && !isDir(v) {
		return nil, false // bash drops an OLDPWD that is not a directory
	}
	underscore := path
	if strings.IndexByte(words[0], '/') >= 0 {
		underscore = words[0]
	}
	out := make([]string, 0, len(env)+3)
	for _, kv := range env {
		switch kv[:strings.IndexByte(kv, '=')] {
		case "PWD", "SHLVL", "_":
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "PWD="+pwd, "SHLVL="+strconv.Itoa(shlvl), "_="+underscore)
	return &directCmd{path: path, argv: words, env: out}, true
}

// BashReadsAtStart lists environment variables that make a non-interactive bash run startup
// files, import functions or options, or search commands differently.
func BashReadsAtStart(name string) bool {
	if strings.HasPrefix(name, "BASH") {
		return true // BASH_ENV, BASH_FUNC_*%%, BASHOPTS, BASH_COMPAT, …
	}
	switch name {
	case "ENV", "SHELLOPTS", "POSIXLY_CORRECT", "EXECIGNORE", "SSH_CLIENT", "SSH2_CLIENT":
		return true
	}
	return false
}

// searchPath finds name like bash does for the ordinary case: the first PATH entry holding it must
// be a regular executable file. Relative or empty entries and any other find are bash's to handle.
func searchPath(name, pathVar string) string {
	for _, d := range strings.Split(pathVar, ":") {
		if d == "" || d[0] != '/' {
			return ""
		}
		p := strings.TrimSuffix(d, "/") + "/" + name
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			if err == syscall.ENOENT || err == syscall.ENOTDIR {
				continue
			}
			return ""
		}
		if sys.IsType(&st, syscall.S_IFREG) && sys.Executable(p) {
			return p
		}
		return ""
	}
	return ""
}

func executableFile(p string) bool {
	var st syscall.Stat_t
	return syscall.Stat(p, &st) == nil && sys.IsType(&st, syscall.S_IFREG) && sys.Executable(p)
}

func isDir(p string) bool {
	var st syscall.Stat_t
	return syscall.Stat(p, &st) == nil && sys.IsType(&st, syscall.S_IFDIR)
}

func sameFile(p string, cwd CwdInfo) bool {
	var st syscall.Stat_t
	return syscall.Stat(p, &st) == nil && uint64(st.Dev) == cwd.dev && uint64(st.Ino) == cwd.ino
}

// isCleanAbs reports whether an absolute path has no empty, "." or ".." segments and no trailing
// slash, so bash's canonicalization would leave it as it is.
func isCleanAbs(p string) bool {
	if p == "/" {
		return true
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}
