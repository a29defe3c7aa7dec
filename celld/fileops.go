package main

import (
	"encoding/base64"
	"fmt"
	"sort"
	"syscall"
	"unicode/utf8"
)

const (
	maxFileBytes   = 2_000_000
	maxListEntries = 1000
)

// pathArgs are the arguments of list, stat and read.
type pathArgs struct {
	Path string `json:"path"`
}

type readBytesArgs struct {
	Path   string `json:"path"`
	Offset *int64 `json:"offset"`
	Limit  *int64 `json:"limit"`
}

type entry struct {
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

func toEntry(name string, st *syscall.Stat_t) entry {
	return entry{
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

// readNames returns every name in an open directory (without "." and "..").
func readNames(fd int, keep func([]string) []string) ([]string, error) {
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

func (s *server) list(path string) (any, error) {
	p, perr := cleanPath(path)
	if perr != nil {
		return nil, perr
	}
	fd, err := s.root.open(p, syscall.O_RDONLY|syscall.O_DIRECTORY, 0, followBeneath)
	if err != nil {
		return nil, fsError(err, p)
	}
	defer syscall.Close(fd)
	truncated := false
	// Keep only the smallest names as we go so a huge directory cannot balloon memory.
	names, err := readNames(fd, func(n []string) []string {
		if len(n) > 2*maxListEntries {
			sort.Strings(n)
			n, truncated = n[:maxListEntries], true
		}
		return n
	})
	if err != nil {
		return nil, fsError(err, p)
	}
	sort.Strings(names)
	if len(names) > maxListEntries {
		names, truncated = names[:maxListEntries], true
	}
	entries := make([]entry, 0, len(names))
	for _, name := range names {
		st, err := lstatAt(fd, name)
		if err != nil {
			continue // vanished between getdents and fstatat
		}
		entries = append(entries, toEntry(name, &st))
	}
	return map[string]any{"entries": entries, "truncated": truncated}, nil
}

// stat reports the final component itself (lstat); earlier links are followed beneath root.
func (s *server) stat(path string) (any, error) {
	p, perr := cleanPath(path)
	if perr != nil {
		return nil, perr
	}
	fd, err := s.root.open(p, oPath|syscall.O_NOFOLLOW, 0, followBeneath)
	if err != nil {
		return nil, fsError(err, p)
	}
	defer syscall.Close(fd)
	st, err := fstat(fd)
	if err != nil {
		return nil, fsError(err, p)
	}
	_, name := splitParent(p)
	e := toEntry(name, &st)
	e.Version = versionOf(&st)
	return e, nil
}

// openRegular opens a file for reading without ever opening a FIFO, socket or device for I/O:
// an O_PATH probe refuses them first, and O_NONBLOCK plus a second fstat cover a swap in between.
func (s *server) openRegular(p string) (int, syscall.Stat_t, error) {
	var st syscall.Stat_t
	check := func(fd int) error {
		var err error
		if st, err = fstat(fd); err != nil {
			return err
		}
		if isType(&st, syscall.S_IFDIR) {
			return errf(codeIsADirectory, "%s: is a directory", p)
		}
		if !isType(&st, syscall.S_IFREG) {
			return errf(codeNotRegularFile, "%s: not a regular file", p)
		}
		return nil
	}
	probe, err := s.root.open(p, oPath, 0, followBeneath)
	if err != nil {
		return -1, st, fsError(err, p)
	}
	err = check(probe)
	syscall.Close(probe)
	if err != nil {
		return -1, st, fsError(err, p)
	}
	fd, err := s.root.open(p, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0, followBeneath)
	if err != nil {
		return -1, st, fsError(err, p)
	}
	if err := check(fd); err != nil {
		syscall.Close(fd)
		return -1, st, fsError(err, p)
	}
	return fd, st, nil
}

// readUpTo reads from offset until EOF or limit bytes; complete=false means more data followed.
func readUpTo(fd int, offset, limit, sizeHint int64) ([]byte, bool, error) {
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

func (s *server) read(path string) (any, error) {
	p, perr := cleanPath(path)
	if perr != nil {
		return nil, perr
	}
	fd, st, err := s.openRegular(p)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	if st.Size > maxFileBytes {
		return nil, errf(codeFileTooLarge, "%s: %d bytes exceeds %d", p, st.Size, maxFileBytes)
	}
	data, complete, err := readUpTo(fd, 0, maxFileBytes, st.Size)
	if err != nil {
		return nil, fsError(err, p)
	}
	if !complete {
		return nil, errf(codeFileTooLarge, "%s: exceeds %d bytes", p, maxFileBytes)
	}
	if !utf8.Valid(data) {
		return nil, errf(codeNotUTF8, "%s: not valid UTF-8; use read_bytes", p)
	}
	return map[string]any{"content": string(data), "size": len(data), "version": versionOf(&st)}, nil
}

func (s *server) readBytes(path string, offset, limit *int64) (any, error) {
	p, perr := cleanPath(path)
	if perr != nil {
		return nil, perr
	}
	off, lim := int64(0), int64(maxFileBytes)
	if offset != nil {
		off = *offset
	}
	if limit != nil {
		lim = *limit
	}
	if off < 0 || lim < 1 || lim > maxFileBytes {
		return nil, errf(codeInvalidArgument, "offset must be ≥ 0 and limit 1..%d", maxFileBytes)
	}
	fd, st, err := s.openRegular(p)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	data, complete, err := readUpTo(fd, off, lim, st.Size)
	if err != nil {
		return nil, fsError(err, p)
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
