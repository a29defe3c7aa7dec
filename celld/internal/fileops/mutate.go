package fileops

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"syscall"
	"unicode/utf8"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
	"workcell.dev/celld/internal/wire"
)

// openParent resolves the parent directory of a mutation target refusing every symlink, so the
// final *at syscall acts on a name inside a directory the kernel proved is beneath root.
func (s *Files) openParent(p string) (int, string, error) {
	if p == "." {
		return -1, "", wire.Errf(wire.CodeInvalidArgument, "refusing to modify the workspace root itself")
	}
	dir, name := confine.SplitParent(p)
	fd, err := s.root.Open(dir, sys.OPath|syscall.O_DIRECTORY, 0, confine.NoSymlinks)
	if err != nil {
		return -1, "", wire.FSError(err, dir)
	}
	return fd, name, nil
}

// WriteTarget is what write and write_bytes share besides their content.
type WriteTarget struct {
	Path            string  `json:"path"`
	ExpectedVersion *string `json:"expectedVersion"`
	CreateParents   bool    `json:"createParents"`
	Mode            *uint32 `json:"mode"`
}

type WriteArgs struct {
	WriteTarget
	Content *string `json:"content"`
	// Raw is the content when it came raw after the request's JSON (a bulk request frame), never from JSON.
	Raw []byte `json:"-"`
}

type WriteBytesArgs struct {
	WriteTarget
	Data *string `json:"data"`
	Raw  []byte  `json:"-"` // as WriteArgs.Raw
}

type MkdirArgs struct {
	Path    string `json:"path"`
	Parents bool   `json:"parents"`
}

type DeleteArgs struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
}

type MoveArgs struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (s *Files) Write(req *WriteArgs) (any, error) {
	p, perr := confine.CleanPath(req.Path)
	if perr != nil {
		return nil, perr
	}
	if req.Raw != nil {
		// Raw text skipped the frame's UTF-8 check: a write of text stays text, as one in JSON is.
		data, err := rawData(req.Content, req.Raw, "content")
		if err == nil && !utf8.Valid(data) {
			err = wire.Errf(wire.CodeNotUTF8, "content is not valid UTF-8 (use write_bytes)")
		}
		if err != nil {
			return nil, err
		}
		return s.writeFile(p, &req.WriteTarget, data)
	}
	if req.Content == nil {
		return nil, wire.Errf(wire.CodeInvalidArgument, "content is required")
	}
	if len(*req.Content) > MaxFileBytes {
		return nil, wire.Errf(wire.CodeFileTooLarge, "content exceeds %d bytes", MaxFileBytes)
	}
	return s.writeFile(p, &req.WriteTarget, []byte(*req.Content))
}

// rawData checks a request's raw bytes: the field must not be in the JSON as well, and they hold
// at most MaxFileBytes bytes.
func rawData(inJSON *string, raw []byte, field string) ([]byte, error) {
	if inJSON != nil {
		return nil, wire.Errf(wire.CodeInvalidArgument, "%s is both in the JSON and raw after it", field)
	}
	if len(raw) > MaxFileBytes {
		return nil, wire.Errf(wire.CodeFileTooLarge, "%s exceeds %d bytes", field, MaxFileBytes)
	}
	return raw, nil
}

func (s *Files) WriteBytes(req *WriteBytesArgs) (any, error) {
	p, perr := confine.CleanPath(req.Path)
	if perr != nil {
		return nil, perr
	}
	data, err := decodeData(req.Data, req.Raw)
	if err != nil {
		return nil, err
	}
	return s.writeFile(p, &req.WriteTarget, data)
}

// decodeData decodes a request's base64 data of at most MaxFileBytes bytes, or checks its raw bytes
// (non-nil when they came after the JSON).
func decodeData(b64 *string, raw []byte) ([]byte, error) {
	if raw != nil {
		return rawData(b64, raw, "data")
	}
	if b64 == nil {
		return nil, wire.Errf(wire.CodeInvalidArgument, "data is required")
	}
	if base64.StdEncoding.DecodedLen(len(*b64)) > MaxFileBytes+2 {
		return nil, wire.Errf(wire.CodeFileTooLarge, "data exceeds %d bytes", MaxFileBytes)
	}
	data, err := base64.StdEncoding.DecodeString(*b64)
	if err != nil {
		return nil, wire.Errf(wire.CodeInvalidArgument, "data is not valid base64: %v", err)
	}
	if len(data) > MaxFileBytes {
		return nil, wire.Errf(wire.CodeFileTooLarge, "data exceeds %d bytes", MaxFileBytes)
	}
	return data, nil
}

// writeFile replaces p (already clean) with data, atomically, as write and write_bytes do.
func (s *Files) writeFile(p string, req *WriteTarget, data []byte) (any, error) {
	pfd, name, perm, err := s.openTarget(p, req)
	if err != nil {
		return nil, err
	}
	tmp, st, err := writeTemp(pfd, data, perm)
	if err != nil {
		syscall.Close(pfd)
		return nil, wire.FSError(err, p)
	}
	return s.replaceWith(pfd, tmp, name, p, req, &st)
}

// openTarget checks a write's target, creates its parents when asked and opens its parent folder
// (the caller owns the fd). perm is the new file's mode: the request's, else the replaced file's, else 0644.
func (s *Files) openTarget(p string, req *WriteTarget) (int, string, uint32, error) {
	if req.Mode != nil && *req.Mode > 0o777 {
		return -1, "", 0, wire.Errf(wire.CodeInvalidArgument, "mode must be permission bits 0..0777")
	}
	if p == "." {
		return -1, "", 0, wire.Errf(wire.CodeIsADirectory, "the workspace root is a directory")
	}
	if req.CreateParents {
		if dir, _ := confine.SplitParent(p); dir != "." {
			if _, err := s.mkdirAll(dir); err != nil {
				return -1, "", 0, err
			}
		}
	}
	pfd, name, err := s.openParent(p)
	if err != nil {
		return -1, "", 0, err
	}
	perm := uint32(0o644)
	if cur, exists, err := lstatTarget(pfd, name, p); err != nil {
		syscall.Close(pfd)
		return -1, "", 0, err
	} else if exists {
		perm = cur.Mode & 0o777
	}
	if req.Mode != nil {
		perm = *req.Mode
	}
	return pfd, name, perm, nil
}

// replaceWith renames tmp (complete and fsynced, st its stat) over name in pfd after the version
// check; it takes over pfd (closed after the reply on success, at once on failure) and removes tmp
// on failure.
func (s *Files) replaceWith(pfd int, tmp, name, p string, req *WriteTarget, st *syscall.Stat_t) (any, error) {
	// Only the version check and the rename are serialised, so a slow fsync never blocks other writes.
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	cur, exists, err := lstatTarget(pfd, name, p)
	if err == nil && req.ExpectedVersion != nil {
		if !exists {
			err = &wire.OpError{Code: wire.CodeConflict, Message: p + ": file no longer exists"}
		} else if v := versionOf(&cur); v != *req.ExpectedVersion {
			err = &wire.OpError{Code: wire.CodeConflict, Message: p + ": file changed since it was read",
				Details: map[string]any{"currentVersion": v}}
		}
	}
	replaced := -1
	if err == nil && exists {
		// Pins the file about to be replaced, so freeing its blocks (a journal update, and a discard
		// on some mounts) happens at our close after the reply instead of inside the rename.
		replaced, _ = sys.Openat(pfd, name, sys.OPath|syscall.O_NOFOLLOW, 0)
	}
	if err == nil {
		err = sys.Renameat2(pfd, tmp, pfd, name, 0) // rename replaces a link itself, never its target
	}
	if err != nil {
		closeIfOpen(replaced)
		sys.Unlinkat(pfd, tmp, 0)
		syscall.Close(pfd)
		return nil, wire.FSError(err, p)
	}
	result := map[string]any{"version": versionOf(st), "size": st.Size}
	// The content was fsynced before the rename, so a crash leaves the old file or the new one,
	// never a torn one; syncing the directory (the rename's durability) needs no caller waiting.
	return wire.AfterReply{Result: result, Then: func() {
		closeIfOpen(replaced)
		fsyncDir(pfd)
		syscall.Close(pfd)
	}}, nil
}

func closeIfOpen(fd int) {
	if fd >= 0 {
		syscall.Close(fd)
	}
}

// lstatTarget inspects an existing write target: only a regular file may be replaced.
func lstatTarget(pfd int, name, p string) (syscall.Stat_t, bool, error) {
	st, err := sys.LstatAt(pfd, name)
	switch {
	case err == syscall.ENOENT:
		return st, false, nil
	case err != nil:
		return st, false, wire.FSError(err, p)
	case sys.IsType(&st, syscall.S_IFDIR):
		return st, true, wire.Errf(wire.CodeIsADirectory, "%s: is a directory", p)
	case sys.IsType(&st, syscall.S_IFLNK):
		return st, true, wire.Errf(wire.CodePathEscape, "%s: is a symlink; writes never follow links", p)
	case !sys.IsType(&st, syscall.S_IFREG):
		return st, true, wire.Errf(wire.CodeNotRegularFile, "%s: not a regular file", p)
	}
	return st, true, nil
}

// writeTemp writes data to a fresh O_EXCL|O_NOFOLLOW temp file in the target's directory and
// fsyncs it; the caller renames it over the target. Returns the temp name and its stat.
func writeTemp(pfd int, data []byte, perm uint32) (string, syscall.Stat_t, error) {
	var st syscall.Stat_t
	var tmp string
	fd := -1
	for i := 0; fd < 0; i++ {
		var rnd [8]byte
		if err := sys.RandomRead(rnd[:]); err != nil {
			return "", st, err
		}
		tmp = ".celld-tmp-" + hex.EncodeToString(rnd[:])
		var err error
		fd, err = sys.Openat(pfd, tmp, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_NOFOLLOW, perm)
		if err == syscall.EEXIST && i < 8 {
			continue
		}
		if err != nil {
			return "", st, err
		}
	}
	defer syscall.Close(fd)
	fail := func(err error) (string, syscall.Stat_t, error) {
		sys.Unlinkat(pfd, tmp, 0)
		return "", st, err
	}
	if err := syscall.Fchmod(fd, perm); err != nil { // the umask may have masked bits
		return fail(err)
	}
	for off := 0; off < len(data); {
		n, err := syscall.Write(fd, data[off:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fail(err)
		}
		off += n
	}
	if err := syscall.Fsync(fd); err != nil {
		return fail(err)
	}
	var err error
	if st, err = sys.Fstat(fd); err != nil {
		return fail(err)
	}
	return tmp, st, nil
}

// fsyncDir makes a rename durable; O_PATH fds cannot be fsynced, so open "." for reading.
func fsyncDir(pfd int) {
	if dfd, err := sys.Openat(pfd, ".", syscall.O_RDONLY|syscall.O_DIRECTORY, 0); err == nil {
		syscall.Fsync(dfd)
		syscall.Close(dfd)
	}
}

func (s *Files) Mkdir(path string, parents bool) (any, error) {
	p, perr := confine.CleanPath(path)
	if perr != nil {
		return nil, perr
	}
	if parents {
		created, err := s.mkdirAll(p)
		if err != nil {
			return nil, err
		}
		return map[string]bool{"created": created}, nil
	}
	pfd, name, err := s.openParent(p)
	if err != nil {
		if oe, ok := err.(*wire.OpError); ok && oe.Code == wire.CodeInvalidArgument {
			return nil, wire.Errf(wire.CodeAlreadyExists, "the workspace root already exists")
		}
		return nil, err
	}
	defer syscall.Close(pfd)
	if err := syscall.Mkdirat(pfd, name, 0o755); err != nil {
		return nil, wire.FSError(err, p)
	}
	return map[string]bool{"created": true}, nil
}

// mkdirAll creates each missing component; every step re-resolves from root without links.
func (s *Files) mkdirAll(p string) (bool, error) {
	if p == "." {
		return false, nil
	}
	created := false
	parts := strings.Split(p, "/")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		pfd, name, err := s.openParent(prefix)
		if err != nil {
			return false, err
		}
		err = syscall.Mkdirat(pfd, name, 0o755)
		syscall.Close(pfd)
		switch {
		case err == nil:
			created = i == len(parts)-1
		case err == syscall.EEXIST:
			created = false
		default:
			return false, wire.FSError(err, prefix)
		}
	}
	// Whatever already existed must be a real directory, not a link or a file.
	fd, err := s.root.Open(p, sys.OPath|syscall.O_DIRECTORY, 0, confine.NoSymlinks)
	if err != nil {
		return false, wire.FSError(err, p)
	}
	syscall.Close(fd)
	return created, nil
}

func (s *Files) Delete(path string, recursive bool) (any, error) {
	p, perr := confine.CleanPath(path)
	if perr != nil {
		return nil, perr
	}
	pfd, name, err := s.openParent(p)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(pfd)
	st, err := sys.LstatAt(pfd, name)
	if err != nil {
		return nil, wire.FSError(err, p)
	}
	if !sys.IsType(&st, syscall.S_IFDIR) {
		// unlinkat removes a symlink itself, never its target.
		if err = sys.Unlinkat(pfd, name, 0); err != syscall.EISDIR {
			if err != nil {
				return nil, wire.FSError(err, p)
			}
			return map[string]bool{"deleted": true}, nil
		}
	}
	if !recursive {
		// Any directory, empty or not, needs the explicit flag: deleting one is never implied.
		return nil, wire.Errf(wire.CodeDirectoryNotEmpty, "%s: is a directory; pass recursive to delete it", p)
	}
	if err := removeTree(pfd, name, 0); err != nil {
		return nil, wire.FSError(err, p)
	}
	return map[string]bool{"deleted": true}, nil
}

const maxDeleteDepth = 512

// removeTree deletes name under dirfd through directory fds opened O_NOFOLLOW, so a link swapped
// in anywhere is unlinked as a link and never traversed.
func removeTree(dirfd int, name string, depth int) error {
	if depth > maxDeleteDepth {
		return wire.Errf(wire.CodeInternal, "directory tree deeper than %d levels", maxDeleteDepth)
	}
	for attempt := 0; attempt < 5; attempt++ {
		fd, err := sys.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
		if err == syscall.ELOOP || err == syscall.ENOTDIR {
			err = sys.Unlinkat(dirfd, name, 0)
			if err == syscall.ENOENT {
				return nil
			}
			return err
		}
		if err == syscall.ENOENT {
			return nil
		}
		if err != nil {
			return err
		}
		names, err := ReadNames(fd, nil)
		if err == nil {
			for _, n := range names {
				e := sys.Unlinkat(fd, n, 0)
				if e == syscall.EISDIR {
					e = removeTree(fd, n, depth+1)
				}
				if e != nil && e != syscall.ENOENT {
					err = e
					break
				}
			}
		}
		syscall.Close(fd)
		if err != nil {
			return err
		}
		err = sys.Unlinkat(dirfd, name, sys.AtRemovedir)
		if err == nil || err == syscall.ENOENT {
			return nil
		}
		if err != syscall.ENOTEMPTY {
			return err
		}
		// Something was created concurrently; go round again.
	}
	return syscall.ENOTEMPTY
}

func (s *Files) Move(from, to string) (any, error) {
	f, perr := confine.CleanPath(from)
	if perr != nil {
		return nil, perr
	}
	t, perr := confine.CleanPath(to)
	if perr != nil {
		return nil, perr
	}
	if f == "." || t == "." {
		return nil, wire.Errf(wire.CodeInvalidArgument, "cannot move the workspace root or onto it")
	}
	if t == f || strings.HasPrefix(t, f+"/") {
		return nil, wire.Errf(wire.CodeInvalidArgument, "cannot move %s into itself", f)
	}
	fpfd, fname, err := s.openParent(f)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fpfd)
	tpfd, tname, err := s.openParent(t)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(tpfd)
	// RENAME_NOREPLACE makes "never overwrite" atomic in the kernel, not a check-then-rename.
	switch err := sys.Renameat2(fpfd, fname, tpfd, tname, sys.RenameNoreplace); err {
	case nil:
	case syscall.EEXIST, syscall.ENOTEMPTY:
		return nil, wire.Errf(wire.CodeAlreadyExists, "%s: already exists", t)
	case syscall.ENOENT:
		return nil, wire.Errf(wire.CodeNotFound, "%s: no such file or directory", f)
	case syscall.EINVAL:
		return nil, wire.Errf(wire.CodeInvalidArgument, "cannot move %s to %s", f, t)
	case syscall.EXDEV:
		return nil, wire.Errf(wire.CodeInvalidArgument, "cannot move across filesystems")
	default:
		return nil, wire.FSError(err, f)
	}
	fsyncDir(tpfd)
	return map[string]bool{"moved": true}, nil
}
