// Package confine validates workspace paths and opens them beneath the root: openat2 with
// RESOLVE_BENEATH, or a component walk over O_NOFOLLOW fds where the kernel has no openat2.
package confine

import (
	"strings"
	"syscall"

	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

const maxPathBytes = 1024

// resolveMode says how symlinks inside a workspace path are treated.
type resolveMode int

const (
	// FollowBeneath: read-only ops may follow links as long as resolution stays beneath root.
	FollowBeneath resolveMode = iota
	// NoSymlinks: anything that changes the filesystem refuses every link in the path.
	NoSymlinks
)

// Root is the workspace directory, held open once so every lookup is relative to this handle.
type Root struct {
	fd      int
	path    string
	Openat2 bool // the kernel has openat2 (tests clear it to force the walk)
}

func OpenRoot(path string) (*Root, error) {
	fd, err := sys.Openat(sys.AtFdcwd, path, sys.OPath|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	r := &Root{fd: fd, path: path}
	// Probe openat2: ENOSYS on old kernels, EPERM under old seccomp profiles; both mean "walk".
	if pfd, err := sys.Openat2(fd, ".", sys.OPath|syscall.O_CLOEXEC, 0, sys.ResolveBeneath); err == nil {
		syscall.Close(pfd)
		r.Openat2 = true
	}
	return r, nil
}

// CleanPath validates a request path and returns it in canonical form ("." for the root).
// Rules: ≤ 1024 bytes, relative, no NUL, no backslash, no empty, "." or ".." segments.
func CleanPath(p string) (string, *wire.OpError) {
	if p == "" || p == "." {
		return ".", nil
	}
	if len(p) > maxPathBytes {
		return "", wire.Errf(wire.CodeInvalidPath, "path is longer than %d bytes", maxPathBytes)
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", wire.Errf(wire.CodeInvalidPath, "path contains NUL")
	}
	if strings.IndexByte(p, '\\') >= 0 {
		return "", wire.Errf(wire.CodeInvalidPath, "path contains a backslash")
	}
	if p[0] == '/' {
		return "", wire.Errf(wire.CodeInvalidPath, "path must be relative to the workspace")
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			return "", wire.Errf(wire.CodeInvalidPath, "path has an empty segment")
		case ".", "..":
			return "", wire.Errf(wire.CodeInvalidPath, "path has a %q segment", seg)
		}
	}
	return p, nil
}

// SplitParent returns the parent ("." for top level) and final name of a clean, non-root path.
func SplitParent(p string) (string, string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ".", p
	}
	return p[:i], p[i+1:]
}

// open resolves a clean path beneath root and opens it with flags; the kernel enforces confinement.
func (r *Root) Open(p string, flags int, mode uint32, m resolveMode) (int, error) {
	if r.Openat2 {
		res := uint64(sys.ResolveBeneath | sys.ResolveNoMagiclinks)
		if m == NoSymlinks {
			res |= sys.ResolveNoSymlinks
		}
		for i := 0; ; i++ {
			fd, err := sys.Openat2(r.fd, p, flags|syscall.O_CLOEXEC, mode, res)
			// EAGAIN: the kernel saw a concurrent rename and could not prove ".." safety; retry a little.
			if err == syscall.EAGAIN && i < 16 {
				continue
			}
			if err == syscall.EAGAIN {
				err = syscall.EXDEV
			}
			return fd, err
		}
	}
	return r.walk(p, flags, mode, m)
}

const maxLinkHops = 40

// walk is the openat2-less fallback: one O_NOFOLLOW|O_PATH openat per component, links resolved
// by hand (or refused for mutations) with a stack of directory fds so ".." can never pass root.
func (r *Root) walk(p string, flags int, mode uint32, m resolveMode) (int, error) {
	stack := []int{r.fd}
	defer func() {
		for _, fd := range stack[1:] {
			syscall.Close(fd)
		}
	}()
	var queue []string
	if p != "." {
		queue = strings.Split(p, "/")
	}
	hops := 0
	followLink := func(target string) ([]string, error) {
		if m == NoSymlinks {
			return nil, syscall.ELOOP
		}
		if hops++; hops > maxLinkHops {
			return nil, syscall.ELOOP
		}
		if target == "" || target[0] == '/' {
			return nil, syscall.EXDEV
		}
		return strings.Split(target, "/"), nil
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		last := len(queue) == 0
		cur := stack[len(stack)-1]
		switch name {
		case "", ".":
			continue
		case "..":
			if len(stack) == 1 {
				return -1, syscall.EXDEV
			}
			syscall.Close(cur)
			stack = stack[:len(stack)-1]
			continue
		}
		if last {
			fd, isLink, err := openFinal(cur, name, flags, mode)
			if !isLink {
				return fd, err
			}
			if flags&syscall.O_NOFOLLOW != 0 {
				return -1, syscall.ELOOP
			}
			target, err := sys.Readlinkat(cur, name)
			if err != nil {
				return -1, err
			}
			if queue, err = followLink(target); err != nil {
				return -1, err
			}
			continue
		}
		fd, err := sys.Openat(cur, name, sys.OPath|syscall.O_NOFOLLOW, 0)
		if err != nil {
			return -1, err
		}
		st, err := sys.Fstat(fd)
		if err != nil {
			syscall.Close(fd)
			return -1, err
		}
		switch {
		case sys.IsType(&st, syscall.S_IFDIR):
			stack = append(stack, fd)
		case sys.IsType(&st, syscall.S_IFLNK):
			target, err := sys.Readlinkat(fd, "")
			syscall.Close(fd)
			if err != nil {
				return -1, err
			}
			more, err := followLink(target)
			if err != nil {
				return -1, err
			}
			queue = append(more, queue...)
		default:
			syscall.Close(fd)
			return -1, syscall.ENOTDIR
		}
	}
	// The path ended on a directory we already hold (root, or after "." / ".." in a link target).
	return sys.Openat(stack[len(stack)-1], ".", flags&^syscall.O_NOFOLLOW, mode)
}

// openFinal opens the last component without following it and reports whether it is a link.
func openFinal(dirfd int, name string, flags int, mode uint32) (int, bool, error) {
	fd, err := sys.Openat(dirfd, name, flags|syscall.O_NOFOLLOW, mode)
	switch {
	case err == syscall.ELOOP:
		return -1, true, nil
	case err == syscall.ENOTDIR && flags&syscall.O_DIRECTORY != 0:
		// O_PATH|O_DIRECTORY|O_NOFOLLOW on a link fails with ENOTDIR rather than ELOOP.
		if st, serr := sys.LstatAt(dirfd, name); serr == nil && sys.IsType(&st, syscall.S_IFLNK) {
			return -1, true, nil
		}
		return -1, false, err
	case err != nil:
		return -1, false, err
	}
	if flags&sys.OPath != 0 && flags&syscall.O_NOFOLLOW == 0 {
		// O_PATH|O_NOFOLLOW opens a link itself; the caller wanted what it points to.
		st, err := sys.Fstat(fd)
		if err != nil {
			syscall.Close(fd)
			return -1, false, err
		}
		if sys.IsType(&st, syscall.S_IFLNK) {
			syscall.Close(fd)
			return -1, true, nil
		}
	}
	return fd, false, nil
}

// FD is the root's O_PATH directory descriptor.
func (r *Root) FD() int { return r.fd }

// Path is the root's absolute path.
func (r *Root) Path() string { return r.path }
