package fileops

import (
	"syscall"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

// WritePartArgs is one part of a file written in parts (restores of large files): the parts go,
// in order, into a hidden part file beside the target, and the last one renames it over the target,
// so the target is the old file or the whole new one, never a torn one. celld keeps no state
// between parts: the part file's name comes from the caller's upload id. An upload never finished
// leaves its part file, which the sweeper (partsweep.go) removes once untouched for PartMaxAge.
type WritePartArgs struct {
	WriteTarget
	Upload string  `json:"upload"`
	Offset int64   `json:"offset"`
	Data   *string `json:"data"`
	Last   bool    `json:"last"`
	Raw    []byte  `json:"-"` // as WriteArgs.Raw
}

// PartPrefix starts the name of a part file; the mirror skips such names.
const PartPrefix = ".celld-part-"

// WritePart writes data at offset into the upload's part file (offset 0 starts it afresh; a later
// offset must not be past what the part file holds, so a resent part is harmless) and cuts the
// file there; the last part fsyncs it and renames it over the target.
func (s *Files) WritePart(req *WritePartArgs) (any, error) {
	p, perr := confine.CleanPath(req.Path)
	if perr != nil {
		return nil, perr
	}
	if !validUpload(req.Upload) {
		return nil, wire.Errf(wire.CodeInvalidArgument, "upload must be 16..64 lowercase hex digits")
	}
	if req.Offset < 0 {
		return nil, wire.Errf(wire.CodeInvalidArgument, "offset must be ≥ 0")
	}
	data, err := decodeData(req.Data, req.Raw)
	if err != nil {
		return nil, err
	}
	target := req.WriteTarget
	target.CreateParents = req.CreateParents && req.Offset == 0
	pfd, name, perm, err := s.openTarget(p, &target)
	if err != nil {
		return nil, err
	}
	part := PartPrefix + req.Upload
	fd, err := openPart(pfd, part, req.Offset)
	if err != nil {
		syscall.Close(pfd)
		if err == syscall.ENOENT {
			return nil, wire.Errf(wire.CodeNotFound, "%s: upload %s has no part file (it must start at offset 0)", p, req.Upload)
		}
		return nil, wire.FSError(err, p)
	}
	if req.Offset == 0 && !req.Last { // a file in one part leaves no part file behind, even when it fails
		dir, _ := confine.SplitParent(p)
		s.parts.started(dir)
	}
	st, err := appendPart(fd, req.Offset, data, req.Last, perm)
	syscall.Close(fd)
	if err == nil && !req.Last {
		syscall.Close(pfd)
		return map[string]any{"size": st.Size}, nil
	}
	if err != nil {
		if _, conflict := err.(*wire.OpError); !conflict {
			sys.Unlinkat(pfd, part, 0) // a failed write leaves no part file behind
		}
		syscall.Close(pfd)
		return nil, wire.FSError(err, p)
	}
	return s.replaceWith(pfd, part, name, p, &req.WriteTarget, &st)
}

func validUpload(id string) bool {
	if len(id) < 16 || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// openPart opens the part file for writing: at offset 0 a fresh one (whatever had that name is
// removed first), later the existing one, which must be a regular file with no other link (the
// sandbox can create names in its own folders; a link to another file is refused, never written).
func openPart(pfd int, part string, offset int64) (int, error) {
	flags := syscall.O_WRONLY | syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	if offset == 0 {
		if err := sys.Unlinkat(pfd, part, 0); err != nil && err != syscall.ENOENT {
			return -1, err
		}
		flags |= syscall.O_CREAT | syscall.O_EXCL
	}
	fd, err := sys.Openat(pfd, part, flags, 0o600)
	if err != nil {
		return -1, err
	}
	st, err := sys.Fstat(fd)
	if err == nil && (!sys.IsType(&st, syscall.S_IFREG) || st.Nlink != 1) {
		err = wire.Errf(wire.CodeNotRegularFile, "%s: the part file is not a regular file of its own", part)
	}
	if err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// appendPart writes data at offset (at most the part file's size), cuts the file after it and, on
// the last part, gives it perm and fsyncs it. Returns the part file's stat.
func appendPart(fd int, offset int64, data []byte, last bool, perm uint32) (syscall.Stat_t, error) {
	st, err := sys.Fstat(fd)
	if err != nil {
		return st, err
	}
	if offset > st.Size {
		return st, &wire.OpError{Code: wire.CodeConflict, Message: "offset is past the part file's end",
			Details: map[string]any{"size": st.Size}}
	}
	for off := 0; off < len(data); {
		n, err := syscall.Pwrite(fd, data[off:], offset+int64(off))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return st, err
		}
		off += n
	}
	if err := syscall.Ftruncate(fd, offset+int64(len(data))); err != nil {
		return st, err
	}
	if last {
		if err := syscall.Fchmod(fd, perm); err != nil {
			return st, err
		}
		if err := syscall.Fsync(fd); err != nil {
			return st, err
		}
	}
	return sys.Fstat(fd)
}
