package main

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"syscall"
)

// openParent resolves the parent directory of a mutation target refusing every symlink, so the
// final *at syscall acts on a name inside a directory the kernel proved is beneath root.
func (s *server) openParent(p string) (int, string, error) {
	if p == "." {
		return -1, "", errf(codeInvalidArgument, "refusing to modify the workspace root itself")
	}
	dir, name := splitParent(p)
	fd, err := s.root.open(dir, oPath|syscall.O_DIRECTORY, 0, noSymlinks)
	if err != nil {
		return -1, "", fsError(err, dir)
	}
	return fd, name, nil
}

// writeTarget is what write and write_bytes share besides their content.
type writeTarget struct {
	Path            string  `json:"path"`
	ExpectedVersion *string `json:"expectedVersion"`
	CreateParents   bool    `json:"createParents"`
	Mode            *uint32 `json:"mode"`
}

type writeArgs struct {
	writeTarget
	Content *string `json:"content"`
}

type writeBytesArgs struct {
	writeTarget
	Data *string `json:"data"`
}

type mkdirArgs struct {
	Path    string `json:"path"`
	Parents bool   `json:"parents"`
}

type deleteArgs struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
}

type moveArgs struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (s *server) write(req *writeArgs) (any, error) {
	p, perr := cleanPath(req.Path)
	if perr != nil {
		return nil, perr
	}
	if req.Content == nil {
		return nil, errf(codeInvalidArgument, "content is required")
	}
	if len(*req.Content) > maxFileBytes {
		return nil, errf(codeFileTooLarge, "content exceeds %d bytes", maxFileBytes)
	}
	return s.writeFile(p, &req.writeTarget, []byte(*req.Content))
}

func (s *server) writeBytes(req *writeBytesArgs) (any, error) {
	p, perr := cleanPath(req.Path)
	if perr != nil {
		return nil, perr
	}
	if req.Data == nil {
		return nil, errf(codeInvalidArgument, "data is required")
	}
	if base64.StdEncoding.DecodedLen(len(*req.Data)) > maxFileBytes+2 {
		return nil, errf(codeFileTooLarge, "data exceeds %d bytes", maxFileBytes)
	}
	data, err := base64.StdEncoding.DecodeString(*req.Data)
	if err != nil {
		return nil, errf(codeInvalidArgument, "data is not valid base64: %v", err)
	}
	if len(data) > maxFileBytes {
		return nil, errf(codeFileTooLarge, "data exceeds %d bytes", maxFileBytes)
	}
	return s.writeFile(p, &req.writeTarget, data)
}

// writeFile replaces p (already clean) with data, atomically, as write and write_bytes do.
func (s *server) writeFile(p string, req *writeTarget, data []byte) (any, error) {
	if req.Mode != nil && *req.Mode > 0o777 {
		return nil, errf(codeInvalidArgument, "mode must be permission bits 0..0777")
	}
	if p == "." {
		return nil, errf(codeIsADirectory, "the workspace root is a directory")
	}
	if req.CreateParents {
		if dir, _ := splitParent(p); dir != "." {
			if _, err := s.mkdirAll(dir); err != nil {
				return nil, err
			}
		}
	}
	pfd, name, err := s.openParent(p)
	if err != nil {
		return nil, err
	}
	parentHeld := false // handed to the after-reply work on success
	defer func() {
		if !parentHeld {
			syscall.Close(pfd)
		}
	}()

	perm := uint32(0o644)
	if cur, exists, err := lstatTarget(pfd, name, p); err != nil {
		return nil, err
	} else if exists {
		perm = cur.Mode & 0o777
	}
	if req.Mode != nil {
		perm = *req.Mode
	}
	tmp, st, err := writeTemp(pfd, data, perm)
	if err != nil {
		return nil, fsError(err, p)
	}
	// Only the version check and the rename are serialised, so a slow fsync never blocks other writes.
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	cur, exists, err := lstatTarget(pfd, name, p)
	if err == nil && req.ExpectedVersion != nil {
		if !exists {
			err = &opError{Code: codeConflict, Message: p + ": file no longer exists"}
		} else if v := versionOf(&cur); v != *req.ExpectedVersion {
			err = &opError{Code: codeConflict, Message: p + ": file changed since it was read",
				Details: map[string]any{"currentVersion": v}}
		}
	}
	replaced := -1
	if err == nil && exists {
		// Pins the file about to be replaced, so freeing its blocks (a journal update, and a discard
		// on some mounts) happens at our close after the reply instead of inside the rename.
		replaced, _ = openat(pfd, name, oPath|syscall.O_NOFOLLOW, 0)
	}
	if err == nil {
		err = renameat2(pfd, tmp, pfd, name, 0) // rename replaces a link itself, never its target
	}
	if err != nil {
		closeIfOpen(replaced)
		unlinkat(pfd, tmp, 0)
		return nil, fsError(err, p)
	}
	parentHeld = true
	result := map[string]any{"version": versionOf(&st), "size": st.Size}
	// The content was fsynced before the rename, so a crash leaves the old file or the new one,
	// never a torn one; syncing the directory (the rename's durability) needs no caller waiting.
	return afterReply{result, func() {
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
	st, err := lstatAt(pfd, name)
	switch {
	case err == syscall.ENOENT:
		return st, false, nil
	case err != nil:
		return st, false, fsError(err, p)
	case isType(&st, syscall.S_IFDIR):
		return st, true, errf(codeIsADirectory, "%s: is a directory", p)
	case isType(&st, syscall.S_IFLNK):
		return st, true, errf(codePathEscape, "%s: is a symlink; writes never follow links", p)
	case !isType(&st, syscall.S_IFREG):
		return st, true, errf(codeNotRegularFile, "%s: not a regular file", p)
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
		if err := randomRead(rnd[:]); err != nil {
			return "", st, err
		}
		tmp = ".celld-tmp-" + hex.EncodeToString(rnd[:])
		var err error
		fd, err = openat(pfd, tmp, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_NOFOLLOW, perm)
		if err == syscall.EEXIST && i < 8 {
			continue
		}
		if err != nil {
			return "", st, err
		}
	}
	defer syscall.Close(fd)
	fail := func(err error) (string, syscall.Stat_t, error) {
		unlinkat(pfd, tmp, 0)
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
	if st, err = fstat(fd); err != nil {
		return fail(err)
	}
	return tmp, st, nil
}

// fsyncDir makes a rename durable; O_PATH fds cannot be fsynced, so open "." for reading.
func fsyncDir(pfd int) {
	if dfd, err := openat(pfd, ".", syscall.O_RDONLY|syscall.O_DIRECTORY, 0); err == nil {
		syscall.Fsync(dfd)
		syscall.Close(dfd)
	}
}

func (s *server) mkdir(path string, parents bool) (any, error) {
	p, perr := cleanPath(path)
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
		if oe, ok := err.(*opError); ok && oe.Code == codeInvalidArgument {
			return nil, errf(codeAlreadyExists, "the workspace root already exists")
		}
		return nil, err
	}
	defer syscall.Close(pfd)
	if err := syscall.Mkdirat(pfd, name, 0o755); err != nil {
		return nil, fsError(err, p)
	}
	return map[string]bool{"created": true}, nil
}

// mkdirAll creates each missing component; every step re-resolves from root without links.
func (s *server) mkdirAll(p string) (bool, error) {
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
			return false, fsError(err, prefix)
		}
	}
	// Whatever already existed must be a real directory, not a link or a file.
	fd, err := s.root.open(p, oPath|syscall.O_DIRECTORY, 0, noSymlinks)
	if err != nil {
		return false, fsError(err, p)
	}
	syscall.Close(fd)
	return created, nil
}

func (s *server) delete(path string, recursive bool) (any, error) {
	p, perr := cleanPath(path)
	if perr != nil {
		return nil, perr
	}
	pfd, name, err := s.openParent(p)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(pfd)
	st, err := lstatAt(pfd, name)
	if err != nil {
		return nil, fsError(err, p)
	}
	if !isType(&st, syscall.S_IFDIR) {
		// unlinkat removes a symlink itself, never its target.
		if err = unlinkat(pfd, name, 0); err != syscall.EISDIR {
			if err != nil {
				return nil, fsError(err, p)
			}
			return map[string]bool{"deleted": true}, nil
		}
	}
	if !recursive {
		// Any directory, empty or not, needs the explicit flag: deleting one is never implied.
		return nil, errf(codeDirectoryNotEmpty, "%s: is a directory; pass recursive to delete it", p)
	}
	if err := removeTree(pfd, name, 0); err != nil {
		return nil, fsError(err, p)
	}
	return map[string]bool{"deleted": true}, nil
}

const maxDeleteDepth = 512

// removeTree deletes name under dirfd through directory fds opened O_NOFOLLOW, so a link swapped
// in anywhere is unlinked as a link and never traversed.
func removeTree(dirfd int, name string, depth int) error {
	if depth > maxDeleteDepth {
		return errf(codeInternal, "directory tree deeper than %d levels", maxDeleteDepth)
	}
	for attempt := 0; attempt < 5; attempt++ {
		fd, err := openat(dirfd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
		if err == syscall.ELOOP || err == syscall.ENOTDIR {
			err = unlinkat(dirfd, name, 0)
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
		names, err := readNames(fd, nil)
		if err == nil {
			for _, n := range names {
				e := unlinkat(fd, n, 0)
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
		err = unlinkat(dirfd, name, atRemovedir)
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

func (s *server) move(from, to string) (any, error) {
	f, perr := cleanPath(from)
	if perr != nil {
		return nil, perr
	}
	t, perr := cleanPath(to)
	if perr != nil {
		return nil, perr
	}
	if f == "." || t == "." {
		return nil, errf(codeInvalidArgument, "cannot move the workspace root or onto it")
	}
	if t == f || strings.HasPrefix(t, f+"/") {
		return nil, errf(codeInvalidArgument, "cannot move %s into itself", f)
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
	switch err := renameat2(fpfd, fname, tpfd, tname, renameNoreplace); err {
	case nil:
	case syscall.EEXIST, syscall.ENOTEMPTY:
		return nil, errf(codeAlreadyExists, "%s: already exists", t)
	case syscall.ENOENT:
		return nil, errf(codeNotFound, "%s: no such file or directory", f)
	case syscall.EINVAL:
		return nil, errf(codeInvalidArgument, "cannot move %s to %s", f, t)
	case syscall.EXDEV:
		return nil, errf(codeInvalidArgument, "cannot move across filesystems")
	default:
		return nil, fsError(err, f)
	}
	fsyncDir(tpfd)
	return map[string]bool{"moved": true}, nil
}
