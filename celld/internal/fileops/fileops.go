// Package fileops implements the file operations (list, stat, read, write, mkdir, delete, move)
// and the tree walks (search, grep, glob), every path confined beneath the root.
package fileops

import (
	"encoding/base64"
	"fmt"
	"sort"
	"sync"
	"syscall"
	"unicode/utf8"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

const (
	MaxFileBytes   = 2_000_000
	maxListEntries = 1000
)

// PathArgs are the arguments of list, stat and read.
type PathArgs struct {
	Path string `json:"path"`
}

type ReadBytesArgs struct {
	Path   string `json:"path"`
	Offset *int64 `json:"offset"`
	Limit  *int64 `json:"limit"`
}

type Entry struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Size    int64  `json:"size"`
	MtimeMs int64  `json:"mtimeMs"`
	Mode    uint32 `json:"mode"`
	Version string `json:"version,omitempty"`
}

func fileType(st *syscall.Stat_t) string {
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return "file"
	case syscall.S_IFDIR:
		return "dir"
	case syscall.S_IFLNK:
		return "symlink"
	default:
		return "other"
	}
}

func toEntry(name string, st *syscall.Stat_t) Entry {
	return Entry{
		Name:    name,
		Type:    fileType(st),
		Size:    st.Size,
		MtimeMs: st.Mtim.Sec*1000 + st.Mtim.Nsec/1_000_000,
		Mode:    st.Mode & 0o7777,
	}
}

// versionOf changes on every celld write: atomic rename always installs a new inode.
func versionOf(st *syscall.Stat_t) string {
	return fmt.Sprintf("%x-%x-%x", st.Size, st.Mtim.Sec*1_000_000_000+st.Mtim.Nsec, st.Ino)
}

// ReadNames returns every name in an open directory (without "." and "..").
func ReadNames(fd int, keep func([]string) []string) ([]string, error) {
	buf := make([]byte, 8192)
	var names []string
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
		if keep != nil {
			names = keep(names)
		}
	}
}

func (s *Files) List(path string) (any, error) {
	p, perr := confine.CleanPath(path)
	if perr != nil {
		return nil, perr
	}
	fd, err := s.root.Open(p, syscall.O_RDONLY|syscall.O_DIRECTORY, 0, confine.FollowBeneath)
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	defer syscall.Close(fd)
	truncated := false
	// Keep only the smallest names as we go so a huge directory cannot balloon memory.
	names, err := ReadNames(fd, func(n []string) []string {
		if len(n) > 2*maxListEntries {
			sort.Strings(n)
			n, truncated = n[:maxListEntries], true
		}
		return n
	})
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	sort.Strings(names)
	if len(names) > maxListEntries {
		names, truncated = names[:maxListEntries], true
	}
	entries := make([]Entry, 0, len(names))
	for _, name := range names {
		st, err := sys.LstatAt(fd, name)
		if err != nil {
			continue // vanished between getdents and fstatat
		}
		entries = append(entries, toEntry(name, &st))
	}
	return map[string]any{"entries": entries, "truncated": truncated}, nil
}

// stat reports the final component itself (lstat); earlier links are followed beneath root.
func (s *Files) Stat(path string) (any, error) {
	p, perr := confine.CleanPath(path)
	if perr != nil {
		return nil, perr
	}
	fd, err := s.root.Open(p, sys.OPath|syscall.O_NOFOLLOW, 0, confine.FollowBeneath)
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	defer syscall.Close(fd)
	st, err := sys.Fstat(fd)
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	_, name := confine.SplitParent(p)
	e := toEntry(name, &st)
	e.Version = versionOf(&st)
	return e, nil
}

// openRegular opens a file for reading without ever opening a FIFO, socket or device for I/O:
// an O_PATH probe refuses them first, and O_NONBLOCK plus a second fstat cover a swap in between.
func (s *Files) openRegular(p string) (int, syscall.Stat_t, error) {
	var st syscall.Stat_t
	check := func(fd int) error {
		var err error
		if st, err = sys.Fstat(fd); err != nil {
			return err
		}
		if sys.IsType(&st, syscall.S_IFDIR) {
			return wire.Errf(wire.CodeIsADirectory, "%s: is a directory", p)
		}
		if !sys.IsType(&st, syscall.S_IFREG) {
			return wire.Errf(wire.CodeNotRegularFile, "%s: not a regular file", p)
		}
		return nil
	}
	probe, err := s.root.Open(p, sys.OPath, 0, confine.FollowBeneath)
	if err != nil {
		return -1, st, wire.FSError(err, p)
	}
	err = check(probe)
	syscall.Close(probe)
	if err != nil {
		return -1, st, wire.FSError(err, p)
	}
	fd, err := s.root.Open(p, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0, confine.FollowBeneath)
	if err != nil {
		return -1, st, wire.FSError(err, p)
	}
	if err := check(fd); err != nil {
		syscall.Close(fd)
		return -1, st, wire.FSError(err, p)
	}
	return fd, st, nil
}

// ReadUpTo reads from offset until EOF or limit bytes; complete=false means more data followed.
func ReadUpTo(fd int, offset, limit, sizeHint int64) ([]byte, bool, error) {
	want := sizeHint - offset
	if want < 0 {
		want = 0
	}
	if want > limit {
		want = limit
	}
	buf := make([]byte, 0, want+1) // +1 so a file that grew past the limit is noticed
	for int64(len(buf)) <= limit {
		if len(buf) == cap(buf) {
			grown := int64(2 * cap(buf))
			if grown > limit+1 {
				grown = limit + 1
			}
			nb := make([]byte, len(buf), grown)
			copy(nb, buf)
			buf = nb
		}
		n, err := syscall.Pread(fd, buf[len(buf):cap(buf)], offset+int64(len(buf)))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		if n == 0 {
			return buf, true, nil
		}
		buf = buf[:len(buf)+n]
	}
	return buf[:limit], false, nil
}

func (s *Files) Read(path string) (any, error) {
	p, perr := confine.CleanPath(path)
	if perr != nil {
		return nil, perr
	}
	fd, st, err := s.openRegular(p)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if st.Size > MaxFileBytes {
		return nil, wire.Errf(wire.CodeFileTooLarge, "%s: %d bytes exceeds %d", p, st.Size, MaxFileBytes)
	}
	data, complete, err := ReadUpTo(fd, 0, MaxFileBytes, st.Size)
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	if !complete {
		return nil, wire.Errf(wire.CodeFileTooLarge, "%s: exceeds %d bytes", p, MaxFileBytes)
	}
	if !utf8.Valid(data) {
		return nil, wire.Errf(wire.CodeNotUTF8, "%s: not valid UTF-8; use read_bytes", p)
	}
	return wire.Bulk{Result: map[string]any{"size": len(data), "version": versionOf(&st)}, Field: "content", Data: data}, nil
}

func (s *Files) ReadBytes(path string, offset, limit *int64) (any, error) {
	p, perr := confine.CleanPath(path)
	if perr != nil {
		return nil, perr
	}
	off, lim := int64(0), int64(MaxFileBytes)
	if offset != nil {
		off = *offset
	}
	if limit != nil {
		lim = *limit
	}
	if off < 0 || lim < 1 || lim > MaxFileBytes {
		return nil, wire.Errf(wire.CodeInvalidArgument, "offset must be ≥ 0 and limit 1..%d", MaxFileBytes)
	}
	fd, st, err := s.openRegular(p)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	data, complete, err := ReadUpTo(fd, off, lim, st.Size)
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	return map[string]any{
		"data":    base64.StdEncoding.EncodeToString(data),
		"offset":  off,
		"length":  len(data),
		"size":    st.Size,
		"eof":     complete,
		"version": versionOf(&st),
	}, nil
}

// Files serves the file operations beneath one root.
type Files struct {
	root    *confine.Root
	writeMu sync.Mutex // makes expectedVersion check + rename atomic with respect to other celld writes
	parts   *partSweeper
}

// New serves files beneath root; it first sweeps the folders where a previous celld saw uploads in
// parts start (PartDirsFile), if any.
func New(root *confine.Root) *Files {
	f := &Files{root: root}
	f.parts = newPartSweeper(root, &f.writeMu)
	f.parts.resume()
	return f
}
