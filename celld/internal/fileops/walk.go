package fileops

import (
	"bytes"
	"context"
	"sort"
	"syscall"
	"unicode/utf8"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

// treeWalk visits a directory tree in name order through fds opened O_NOFOLLOW, never following a
// link, within 50,000 entries and depth 64. search, grep and glob use it.
type treeWalk struct {
	ctx       context.Context
	skip      map[string]bool // directory names never descended into
	entries   int
	truncated bool // a walk limit was hit
	stop      bool // the visitor has enough
}

// visitFn sees every entry (lstat of the name in dfd); for a directory, false means "do not descend".
type visitFn func(dfd int, name, rel string, st *syscall.Stat_t) bool

func (w *treeWalk) done() bool { return w.stop || w.truncated || w.ctx.Err() != nil }

func (w *treeWalk) walk(dfd int, rel string, depth int, visit visitFn) {
	if depth > maxSearchDepth {
		w.truncated = true
		return
	}
	names, err := ReadNames(dfd, nil)
	if err != nil {
		return
	}
	sort.Strings(names)
	for _, name := range names {
		if w.done() {
			return
		}
		st, err := sys.LstatAt(dfd, name)
		if err != nil {
			continue
		}
		if w.entries++; w.entries > maxSearchFiles {
			w.truncated = true
			return
		}
		child := name
		if rel != "." {
			child = rel + "/" + name
		}
		descend := visit(dfd, name, child, &st)
		if sys.IsType(&st, syscall.S_IFDIR) && descend && !w.skip[name] && !w.done() {
			fd, err := sys.Openat(dfd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
			if err != nil {
				continue
			}
			w.walk(fd, child, depth+1, visit)
			syscall.Close(fd)
		}
	}
}

// walkText hands scan the text of each file at or below p: p itself when it is a file, else every
// regular file the walk reaches (skip's directories aside) whose name keep accepts. Files over
// MaxSearchFileSize, unreadable or binary are passed over. scan returns true once its result bound is
// reached, which ends the walk; walkText reports whether the walk's own bounds cut it short. search
// and grep differ only in what they skip, keep and look for.
func (s *Files) walkText(ctx context.Context, p, what string, skip map[string]bool, keep func(name string) bool,
	scan func(data []byte, rel string) bool) (bool, error) {
	fd, dir, st, err := s.openStart(p)
	if err != nil {
		return false, err
	}
	w := &treeWalk{ctx: ctx, skip: skip}
	if dir {
		w.walk(fd, p, 0, func(dfd int, name, rel string, st *syscall.Stat_t) bool {
			if !sys.IsType(st, syscall.S_IFREG) || st.Size > MaxSearchFileSize || !keep(name) {
				return true
			}
			if ffd, fst, ok := openFileAt(dfd, name); ok {
				if data, ok := readText(ffd, &fst); ok {
					w.stop = scan(data, rel)
				}
				syscall.Close(ffd)
			}
			return true
		})
	} else if data, ok := readText(fd, &st); ok {
		scan(data, p)
	}
	syscall.Close(fd)
	if ctx.Err() != nil {
		return false, wire.Errf(wire.CodeCancelled, "%s cancelled", what)
	}
	return w.truncated, nil
}

// readText reads a whole file of at most MaxSearchFileSize bytes; false when it is unreadable, grew
// past the limit, or is binary (a NUL byte, or not UTF-8).
func readText(fd int, st *syscall.Stat_t) ([]byte, bool) {
	if st.Size > MaxSearchFileSize {
		return nil, false
	}
	data, complete, err := ReadUpTo(fd, 0, MaxSearchFileSize, st.Size)
	if err != nil || !complete || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return nil, false
	}
	return data, true
}

// openFileAt opens name in dfd for reading if it is (still) a regular file: no link is followed and
// a FIFO swapped in after the lstat never blocks the open.
func openFileAt(dfd int, name string) (int, syscall.Stat_t, bool) {
	fd, err := sys.Openat(dfd, name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY, 0)
	if err != nil {
		return -1, syscall.Stat_t{}, false
	}
	st, err := sys.Fstat(fd)
	if err != nil || !sys.IsType(&st, syscall.S_IFREG) {
		syscall.Close(fd)
		return -1, st, false
	}
	return fd, st, true
}

// openStart resolves the start path of a walk (links followed only beneath the root) and reports
// whether it is a directory (fd readable) or a regular file (fd opened for reading).
func (s *Files) openStart(p string) (fd int, dir bool, st syscall.Stat_t, err error) {
	probe, err := s.root.Open(p, sys.OPath, 0, confine.FollowBeneath)
	if err != nil {
		return -1, false, st, wire.FSError(err, p)
	}
	st, err = sys.Fstat(probe)
	if err != nil {
		syscall.Close(probe)
		return -1, false, st, wire.FSError(err, p)
	}
	switch {
	case sys.IsType(&st, syscall.S_IFDIR):
		fd, err := sys.Openat(probe, ".", syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		syscall.Close(probe)
		if err != nil {
			return -1, false, st, wire.FSError(err, p)
		}
		return fd, true, st, nil
	case sys.IsType(&st, syscall.S_IFREG):
		syscall.Close(probe)
		fd, fst, err := s.openRegular(p)
		return fd, false, fst, err
	default:
		syscall.Close(probe)
		return -1, false, st, wire.Errf(wire.CodeNotRegularFile, "%s: not a file or directory", p)
	}
}

// clampResults applies the grep/glob result bound: 1..1000, default 50.
func clampResults(n *int) (int, error) {
	if n == nil || *n == 0 {
		return 50, nil
	}
	if *n < 1 || *n > 1000 {
		return 0, wire.Errf(wire.CodeInvalidArgument, "maxResults must be 1..1000")
	}
	return *n, nil
}
