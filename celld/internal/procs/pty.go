package procs

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"unsafe"

	"workcell.dev/celld/internal/wire"
)

// Pseudo-terminals with the standard library only: /dev/ptmx, unlock, ask for the pty number, open
// /dev/pts/N. The master is non-blocking so Go's netpoller serves it (reads, writes with a deadline,
// a Close that wakes a blocked Read); the slave stays blocking, as a terminal program expects.

// Upstream Open Terminal gives every process a 80x24 terminal unless told otherwise.
const (
	defaultCols = 80
	defaultRows = 24
	maxWinSize  = 1000
)

func ioctl(fd uintptr, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// openPTY returns a new master (non-blocking, close-on-exec) and its slave. The slave is created
// with celld's filesystem uid, which is the workload user's, so the command owns its terminal.
func openPTY() (master, slave *os.File, err error) {
	mfd, err := syscall.Open("/dev/ptmx", syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, wire.Errf(wire.CodeInternal, "opening /dev/ptmx: %v", err)
	}
	var unlock int32
	var n uint32
	if err := ioctl(uintptr(mfd), syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		syscall.Close(mfd)
		return nil, nil, wire.Errf(wire.CodeInternal, "unlocking the pty: %v", err)
	}
	if err := ioctl(uintptr(mfd), syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		syscall.Close(mfd)
		return nil, nil, wire.Errf(wire.CodeInternal, "pty number: %v", err)
	}
	name := "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
	sfd, err := syscall.Open(name, syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		syscall.Close(mfd)
		return nil, nil, wire.Errf(wire.CodeInternal, "opening %s: %v", name, err)
	}
	return os.NewFile(uintptr(mfd), "/dev/ptmx"), os.NewFile(uintptr(sfd), name), nil
}

type winsize struct{ rows, cols, xpixel, ypixel uint16 }

// setWinSize sets the terminal size; the kernel sends SIGWINCH to the foreground process group.
func setWinSize(master *os.File, cols, rows int) error {
	ws := winsize{rows: uint16(rows), cols: uint16(cols)}
	rc, err := master.SyscallConn()
	if err != nil {
		return err
	}
	var ierr error
	if err := rc.Control(func(fd uintptr) { ierr = ioctl(fd, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)) }); err != nil {
		return err
	}
	return ierr
}

// winSize checks a requested size; 0 (absent) means upstream's 80x24.
func winSize(cols, rows int) (int, int, error) {
	if cols == 0 {
		cols = defaultCols
	}
	if rows == 0 {
		rows = defaultRows
	}
	if cols < 1 || cols > maxWinSize || rows < 1 || rows > maxWinSize {
		return 0, 0, wire.Errf(wire.CodeInvalidArgument, "cols and rows must be 1..%d", maxWinSize)
	}
	return cols, rows, nil
}

// startPTYJob starts cmd as a job whose stdin, stdout and stderr are a new terminal it controls
// (its own session, the slave as controlling tty), so the line discipline turns ^C into SIGINT
// for its foreground process group. The returned run's stdout is the master; stderr is nil.
func (s *Manager) startPTYJob(cmd *exec.Cmd, kind string, cols, rows int) (*JobRun, *os.File, error) {
	master, slave, err := openPTY()
	if err != nil {
		return nil, nil, err
	}
	if err := setWinSize(master, cols, rows); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, wire.Errf(wire.CodeInternal, "setting the terminal size: %v", err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// Ctty is a descriptor number in the child: 0, its stdin. jobs.start adds Setsid.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setctty: true, Ctty: 0}
	j, wait, err := s.jobs.start(cmd, kind)
	slave.Close() // only the command holds it now: when it and its children end, the master reads EIO
	if err != nil {
		master.Close()
		return nil, nil, wire.Errf(wire.CodeInternal, "starting %s: %v", cmd.Path, err)
	}
	return &JobRun{job: j, wait: wait, stdout: master}, master, nil
}
