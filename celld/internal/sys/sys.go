// Package sys wraps the raw Linux syscalls package syscall lacks on some architectures (openat2,
// renameat2, faccessat2, pidfd_*, getrandom); the numbers are per GOARCH in sysnum_*.go.
package sys

import (
	"syscall"
	"unsafe"
)

// Thin wrappers over the *at syscalls that the standard library does not expose on every arch.

const (
	ResolveNoMagiclinks = 0x02
	ResolveNoSymlinks   = 0x04
	ResolveBeneath      = 0x08

	OPath               = 0x200000 // O_PATH, missing from package syscall
	AtFdcwd             = -100
	AtSymlinkNofollow   = 0x100
	AtRemovedir         = 0x200
	AtEaccess           = 0x200
	RenameNoreplace     = 0x1
	RenameExchange      = 0x2
	PrSetChildSubreaper = 36
)

// openHow mirrors struct open_how from <linux/openat2.h>.
type openHow struct {
	flags   uint64
	mode    uint64
	resolve uint64
}

func Openat2(dirfd int, path string, flags int, mode uint32, resolve uint64) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	how := openHow{flags: uint64(flags), resolve: resolve}
	if flags&syscall.O_CREAT != 0 {
		how.mode = uint64(mode)
	}
	for {
		fd, _, e := syscall.Syscall6(sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(p)),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
}

func Openat(dirfd int, path string, flags int, mode uint32) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, path, flags|syscall.O_CLOEXEC, mode)
		if err == syscall.EINTR {
			continue
		}
		return fd, err
	}
}

func Fstatat(dirfd int, path string, st *syscall.Stat_t, flags int) error {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	_, _, e := syscall.Syscall6(sysFstatat, uintptr(dirfd), uintptr(unsafe.Pointer(p)),
		uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

func LstatAt(dirfd int, name string) (syscall.Stat_t, error) {
	var st syscall.Stat_t
	err := Fstatat(dirfd, name, &st, AtSymlinkNofollow)
	return st, err
}

func Fstat(fd int) (syscall.Stat_t, error) {
	var st syscall.Stat_t
	err := syscall.Fstat(fd, &st)
	return st, err
}

func Unlinkat(dirfd int, path string, flags int) error {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return err
	}
	_, _, e := syscall.Syscall(sysUnlinkat, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags))
	if e != 0 {
		return e
	}
	return nil
}

func Renameat2(olddirfd int, oldpath string, newdirfd int, newpath string, flags uint) error {
	o, err := syscall.BytePtrFromString(oldpath)
	if err != nil {
		return err
	}
	n, err := syscall.BytePtrFromString(newpath)
	if err != nil {
		return err
	}
	_, _, e := syscall.Syscall6(sysRenameat2, uintptr(olddirfd), uintptr(unsafe.Pointer(o)),
		uintptr(newdirfd), uintptr(unsafe.Pointer(n)), uintptr(flags), 0)
	if e != 0 {
		return e
	}
	return nil
}

// Readlinkat with an empty path reads the link an O_PATH|O_NOFOLLOW fd refers to (no race).
func Readlinkat(dirfd int, path string) (string, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return "", err
	}
	buf := make([]byte, 4096)
	n, _, e := syscall.Syscall6(sysReadlinkat, uintptr(dirfd), uintptr(unsafe.Pointer(p)),
		uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0)
	if e != 0 {
		return "", e
	}
	if int(n) >= len(buf) {
		return "", syscall.ENAMETOOLONG
	}
	return string(buf[:n]), nil
}

func SetChildSubreaper() error {
	return Prctl(PrSetChildSubreaper, 1)
}

// PidfdOpen returns a descriptor (close-on-exec) that keeps referring to pid's process even if
// the number is reused.
func PidfdOpen(pid int) (int, error) {
	fd, _, e := syscall.Syscall(sysPidfdOpen, uintptr(pid), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

func PidfdSendSignal(fd int, sig syscall.Signal) error {
	_, _, e := syscall.Syscall6(sysPidfdSendSignal, uintptr(fd), uintptr(sig), 0, 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// Prctl is for the options that hold for the whole process (per-thread ones go through allThreads).
func Prctl(option, arg uintptr) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, option, arg, 0)
	if e != 0 {
		return e
	}
	return nil
}

// Executable reports whether celld's file identity (the workload user's in a sandbox) may execute
// p: faccessat2 with AT_EACCESS checks the filesystem ids, where access(2) would check celld's real
// ones. Kernels before 5.8 lack it; there access(2) is the same answer outside a sandbox.
func Executable(p string) bool {
	b, err := syscall.BytePtrFromString(p)
	if err != nil {
		return false
	}
	dirfd := AtFdcwd
	_, _, e := syscall.Syscall6(sysFaccessat2, uintptr(dirfd), uintptr(unsafe.Pointer(b)), 1, AtEaccess, 0, 0)
	if e == syscall.ENOSYS {
		return syscall.Access(p, 1) == nil
	}
	return e == 0
}

func IsType(st *syscall.Stat_t, t uint32) bool { return st.Mode&syscall.S_IFMT == t }

// RandomRead fills b from the kernel's CSPRNG (getrandom(2)); crypto/rand would bring math/big
// and its ~0.1 MB into a binary that is resident in every sandbox.
func RandomRead(b []byte) error {
	for off := 0; off < len(b); {
		n, _, e := syscall.Syscall(sysGetrandom, uintptr(unsafe.Pointer(&b[off])), uintptr(len(b)-off), 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return e
		}
		off += int(n)
	}
	return nil
}
