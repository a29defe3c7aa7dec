// Package identity: in a sandbox celld is started as root and at once becomes a supervisor
// user of its own, so the workload (another uid) can neither signal, ptrace nor read it. It keeps exactly the capabilities
// supervision needs, acts on files as the workload user, and starts every command as that user
// without capabilities. See docs/decisions/0007-celld-own-user.md.
package identity

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"workcell.dev/celld/internal/sys"
)

const (
	capKill   = 5
	capSetgid = 6
	capSetuid = 7
	// supervisorCaps: CAP_SETUID and CAP_SETGID start commands as the workload user (and set the
	// filesystem ids below), CAP_KILL ends what the workload leaves behind.
	supervisorCaps = 1<<capKill | 1<<capSetgid | 1<<capSetuid

	prSetDumpable   = 4
	prSetKeepcaps   = 8
	prSetNoNewPrivs = 38
	capVersion3     = 0x20080522
)

// ids is a numeric uid:gid pair.
type ids struct{ uid, gid int }

func (i ids) String() string { return fmt.Sprintf("%d:%d", i.uid, i.gid) }

// ParseIDs reads "UID:GID" (numbers only: a sandbox image need not have /etc/passwd).
func ParseIDs(s string) (ids, error) {
	u, g, ok := strings.Cut(s, ":")
	uid, uerr := strconv.ParseUint(u, 10, 31)
	gid, gerr := strconv.ParseUint(g, 10, 31)
	if !ok || uerr != nil || gerr != nil {
		return ids{}, fmt.Errorf("%q is not UID:GID", s)
	}
	return ids{int(uid), int(gid)}, nil
}

// Workload is who commands run as; nil outside a sandbox, where they run as celld itself.
var Workload *syscall.Credential

// capHdr and capSets mirror the capset(2) structures; package level, so never on a moving stack.
var (
	capHdr struct {
		version uint32
		pid     int32
	}
	capSets [2]struct{ effective, permitted, inheritable uint32 }
)

// BecomeSupervisor turns a root celld into self, keeping only supervisorCaps, with work as the
// filesystem identity of every thread and the identity of every command it starts. celld must not
// serve anything before this returns nil.
func BecomeSupervisor(self, work ids) error {
	if os.Getuid() != 0 || os.Geteuid() != 0 {
		return errors.New("--user needs celld to start as root")
	}
	if self.uid == 0 || self.gid == 0 || self.uid == work.uid || work.uid == 0 || work.gid == 0 {
		return fmt.Errorf("--user %v and --workload-user %v must be two distinct non-root users", self, work)
	}
	rootHome := PasswdHome(0)
	steps := []struct {
		what string
		do   func() error
	}{
		// Inherited by every command: no execve may gain privileges (Docker sets it too).
		{"no_new_privs", func() error { return allThreads(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0) }},
		// Commands inherit the (empty) list; an exec as root brings root's groups.
		{"setgroups", func() error { return syscall.Setgroups(nil) }},
		{"keepcaps", func() error { return allThreads(syscall.SYS_PRCTL, prSetKeepcaps, 1, 0) }},
		{"setresgid", func() error { return syscall.Setresgid(self.gid, self.gid, self.gid) }},
		{"setresuid", func() error { return syscall.Setresuid(self.uid, self.uid, self.uid) }},
		{"capset", setSupervisorCaps},
		{"keepcaps off", func() error { return allThreads(syscall.SYS_PRCTL, prSetKeepcaps, 0, 0) }},
		// File access as the workload user: what celld creates is theirs, and it can reach exactly
		// what they can. Thread-local in the kernel, hence on every thread (new ones inherit it).
		{"setfsgid", func() error { return setFsID(syscall.SYS_SETFSGID, work.gid) }},
		{"setfsuid", func() error { return setFsID(syscall.SYS_SETFSUID, work.uid) }},
		// Last: every credential change above resets it. Makes /proc/<celld>/* root's and refuses ptrace.
		{"dumpable", func() error { return sys.Prctl(prSetDumpable, 0) }},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			return fmt.Errorf("dropping to %v: %s: %w", self, s.what, err)
		}
	}
	if os.Getuid() != self.uid || os.Geteuid() != self.uid || os.Getgid() != self.gid || os.Getegid() != self.gid {
		return fmt.Errorf("dropping to %v left uid %d/%d gid %d/%d", self, os.Getuid(), os.Geteuid(), os.Getgid(), os.Getegid())
	}
	Workload = &syscall.Credential{Uid: uint32(work.uid), Gid: uint32(work.gid)}
	// An exec as root was given root's HOME when the container sets none; commands get the one the
	// engine would have given the workload user.
	if home := os.Getenv("HOME"); home == "" || home == rootHome {
		os.Setenv("HOME", PasswdHome(work.uid))
	}
	return nil
}

func setSupervisorCaps() error {
	capHdr.version = capVersion3
	capSets[0].effective, capSets[0].permitted, capSets[0].inheritable = supervisorCaps, supervisorCaps, 0
	capSets[1].effective, capSets[1].permitted, capSets[1].inheritable = 0, 0, 0
	return allThreads(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&capHdr)), uintptr(unsafe.Pointer(&capSets[0])), 0)
}

// setFsID sets the filesystem uid or gid of every thread; the syscall answers the previous id,
// so success is checked by asking again (an invalid id changes nothing and answers the current).
func setFsID(trap uintptr, id int) error {
	if _, _, e := syscall.AllThreadsSyscall(trap, uintptr(id), 0, 0); e != 0 {
		return e
	}
	if cur, _, _ := syscall.RawSyscall(trap, 0xFFFFFFFF, 0, 0); int(cur) != id {
		return fmt.Errorf("still %d", cur)
	}
	return nil
}

func allThreads(trap, a1, a2, a3 uintptr) error {
	if _, _, e := syscall.AllThreadsSyscall(trap, a1, a2, a3); e != 0 {
		return e
	}
	return nil
}

// PasswdHome is the home the engine gives a user without HOME in the container's environment:
// its /etc/passwd entry's, else "/".
func PasswdHome(uid int) string {
	f, err := os.Open("/etc/passwd")
	if err != nil {
		return "/"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) >= 6 && fields[2] == strconv.Itoa(uid) && fields[5] != "" {
			return fields[5]
		}
	}
	return "/"
}
