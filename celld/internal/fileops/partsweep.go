package fileops

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"workcell.dev/celld/internal/confine"
	"workcell.dev/celld/internal/sys"
)

// Abandoned part files. An upload in parts that is never finished (the caller died, the user gave
// up) leaves its .celld-part-<upload> beside the target, and a write cut short by celld's own death
// leaves a .celld-tmp-<hex>. Nothing ever renamed them, so they would stay in the user's files for
// good. The sweeper removes those untouched for PartMaxAge (every part rewrites its part file, so an
// upload in progress is never old), looking only in the folders where an upload started:
//   - in memory, the set of those folders; a timer runs while the set is not empty and lists each
//     one (a readdir, an lstat per celld name), dropping a folder once it holds no part or temp file.
//     Idle, with no upload started, there is no timer and no work at all.
//   - on disk, PartDirsFile at the root: each folder is appended once when it joins the set, the file
//     is rewritten by a sweep and removed when the set empties. A celld that starts (after a crash,
//     a restart of its sandbox) reads it and sweeps those folders once, so parts a previous celld
//     was tracking are not forgotten. Without the file, starting costs one failed open.
// No tree is ever walked. The file is the sandbox's to change: it only names folders, which are
// opened confined beneath the root without links, and only celld's own names in them are removed.

// PartDirsFile lists, one JSON string a line, the folders where uploads in parts started. Its name
// starts with PartPrefix, so readers that skip part files (the mirror) skip it too; it is never a
// part file itself (no upload id has "dirs" in it).
const PartDirsFile = PartPrefix + "dirs"

// PartMaxAge: a part or temp file untouched this long belongs to an abandoned upload or write.
const PartMaxAge = time.Hour

// partSweepEvery: how often the folders are looked at while some are tracked.
const partSweepEvery = 10 * time.Minute

// maxPartDirs bounds the set (and the file): folders past it are not tracked.
const maxPartDirs = 10000

// maxPartDirsBytes bounds what is read of the file at start.
const maxPartDirsBytes = 4 << 20

const tmpPrefix = ".celld-tmp-"

type partSweeper struct {
	root   *confine.Root
	lock   *sync.Mutex // Files.writeMu: a sweep never unlinks between a last part's checks and its rename
	now    func() time.Time
	maxAge time.Duration
	every  time.Duration

	mu    sync.Mutex
	dirs  map[string]struct{}
	timer *time.Timer
}

func newPartSweeper(root *confine.Root, lock *sync.Mutex) *partSweeper {
	return &partSweeper{root: root, lock: lock, now: time.Now, maxAge: PartMaxAge, every: partSweepEvery,
		dirs: map[string]struct{}{}}
}

// resume loads the folders a previous celld was tracking and, if there are any, sweeps them now.
func (w *partSweeper) resume() {
	dirs := w.readDirsFile()
	if len(dirs) == 0 {
		return
	}
	w.mu.Lock()
	for _, d := range dirs {
		if len(w.dirs) < maxPartDirs {
			w.dirs[d] = struct{}{}
		}
	}
	w.mu.Unlock()
	if w.Sweep() > 0 {
		w.mu.Lock()
		if w.timer == nil {
			w.timer = time.AfterFunc(w.every, w.tick)
		}
		w.mu.Unlock()
	}
}

// started records that an upload in parts began in dir (a clean path); the first time, the folder is
// appended to the file and the timer armed.
func (w *partSweeper) started(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.dirs[dir]; ok || len(w.dirs) >= maxPartDirs {
		return
	}
	w.dirs[dir] = struct{}{}
	line, _ := json.Marshal(dir)
	w.appendDirsFile(append(line, '\n'))
	if w.timer == nil {
		w.timer = time.AfterFunc(w.every, w.tick)
	}
}

func (w *partSweeper) tick() {
	left := w.Sweep()
	w.mu.Lock()
	defer w.mu.Unlock()
	if left > 0 {
		w.timer = time.AfterFunc(w.every, w.tick)
	} else {
		w.timer = nil
	}
}

// Sweep removes the part and temp files older than maxAge in the tracked folders, forgets the
// folders left with none (and folders that are gone), rewrites the file, and returns how many
// folders are still tracked.
func (w *partSweeper) Sweep() int {
	w.mu.Lock()
	dirs := make([]string, 0, len(w.dirs))
	for d := range w.dirs {
		dirs = append(dirs, d)
	}
	w.mu.Unlock()
	var done []string
	for _, d := range dirs {
		if !w.sweepDir(d) {
			done = append(done, d)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range done {
		delete(w.dirs, d)
	}
	w.rewriteDirsFile()
	return len(w.dirs)
}

// sweepDir removes the old celld files of one folder; true while it still holds some.
func (w *partSweeper) sweepDir(dir string) bool {
	fd, err := w.root.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY, 0, confine.NoSymlinks)
	if err != nil {
		return false // gone, or no longer a folder: nothing of ours to find there
	}
	defer syscall.Close(fd)
	names, err := ReadNames(fd, func(n []string) []string { return celldNames(n) })
	if err != nil {
		return true // try again on the next sweep
	}
	cutoff := w.now().Add(-w.maxAge)
	left := false
	w.lock.Lock()
	defer w.lock.Unlock()
	for _, name := range names {
		st, err := sys.LstatAt(fd, name)
		if err != nil {
			continue
		}
		if !sys.IsType(&st, syscall.S_IFREG) || time.Unix(st.Mtim.Sec, st.Mtim.Nsec).After(cutoff) {
			left = true
			continue
		}
		if err := sys.Unlinkat(fd, name, 0); err != nil && err != syscall.ENOENT {
			left = true
		}
	}
	return left
}

// celldNames keeps the names of part files and temp files (as ReadNames' filter, so a huge folder
// holds only those in memory).
func celldNames(names []string) []string {
	kept := names[:0]
	for _, n := range names {
		if isPartName(n) || isTmpName(n) {
			kept = append(kept, n)
		}
	}
	return kept
}

func isPartName(n string) bool {
	return strings.HasPrefix(n, PartPrefix) && validUpload(n[len(PartPrefix):])
}

func isTmpName(n string) bool {
	if !strings.HasPrefix(n, tmpPrefix) || len(n) != len(tmpPrefix)+16 {
		return false
	}
	for _, c := range n[len(tmpPrefix):] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// openDirsFile opens the file at the root: never through a link, and O_NONBLOCK so a FIFO put in its
// place cannot block celld (it is then refused as not a regular file).
func (w *partSweeper) openDirsFile(flags int) (*os.File, error) {
	fd, err := sys.Openat(w.root.FD(), PartDirsFile, flags|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), PartDirsFile), nil
}

func (w *partSweeper) appendDirsFile(line []byte) {
	f, err := w.openDirsFile(syscall.O_WRONLY | syscall.O_CREAT | syscall.O_APPEND)
	if err != nil {
		return // tracked in memory still; only a restart of celld would forget it
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		f.Write(line)
	}
}

// rewriteDirsFile (w.mu held) writes the tracked folders, or removes the file when there are none.
func (w *partSweeper) rewriteDirsFile() {
	if len(w.dirs) == 0 {
		sys.Unlinkat(w.root.FD(), PartDirsFile, 0)
		return
	}
	var buf bytes.Buffer
	for d := range w.dirs {
		line, _ := json.Marshal(d)
		buf.Write(append(line, '\n'))
	}
	f, err := w.openDirsFile(syscall.O_WRONLY | syscall.O_CREAT)
	if err != nil {
		return
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		f.Truncate(0)
		f.WriteAt(buf.Bytes(), 0)
	}
}

// readDirsFile returns the clean folder paths in the file (nothing when it is missing or not a
// regular file); lines that are not a clean path are ignored.
func (w *partSweeper) readDirsFile() []string {
	f, err := w.openDirsFile(syscall.O_RDONLY)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	var dirs []string
	lines := bufio.NewScanner(io.LimitReader(f, maxPartDirsBytes))
	lines.Buffer(make([]byte, 0, 4096), 8192)
	for lines.Scan() {
		var d string
		if json.Unmarshal(lines.Bytes(), &d) != nil {
			continue
		}
		if clean, perr := confine.CleanPath(d); perr == nil && clean == d {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
