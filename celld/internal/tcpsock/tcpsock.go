// Package tcpsock is TCP without package net: celld listens and accepts for the static preview,
// probes a preview's port, and connects for Open Terminal's /proxy. Importing net costs ~0.4 MB of
// binary, and every byte of the binary is resident (page-cache fault-around) in every sandbox's
// celld. Sockets are non-blocking files on Go's netpoller, so deadlines and Close work as for net.
package tcpsock

import (
	"context"
	"os"
	"sync"
	"syscall"
	"time"
)

// Listen listens on every address of the sandbox, IPv6 and IPv4 alike (as package net does for
// ":port"), or IPv4 only where the kernel has no IPv6; Close wakes Accept.
func Listen(port int) (*os.File, error) {
	fd, err := socket(syscall.AF_INET6)
	var addr syscall.Sockaddr = &syscall.SockaddrInet6{Port: port}
	if err == nil {
		err = syscall.SetsockoptInt(fd, syscall.IPPROTO_IPV6, syscall.IPV6_V6ONLY, 0)
		if err != nil {
			syscall.Close(fd)
		}
	}
	if err != nil {
		addr = &syscall.SockaddrInet4{Port: port}
		if fd, err = socket(syscall.AF_INET); err != nil {
			return nil, os.NewSyscallError("socket", err)
		}
	}
	syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1) // a restarted preview may rebind at once
	if err := syscall.Bind(fd, addr); err != nil {
		syscall.Close(fd)
		return nil, os.NewSyscallError("bind", err)
	}
	if err := syscall.Listen(fd, syscall.SOMAXCONN); err != nil {
		syscall.Close(fd)
		return nil, os.NewSyscallError("listen", err)
	}
	return os.NewFile(uintptr(fd), "tcp-listener"), nil
}

// socket is a non-blocking, close-on-exec TCP socket of the family, for Go's netpoller.
func socket(family int) (int, error) {
	return syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
}

// Accept waits for the next connection; an error means the listener was closed (or broke).
func Accept(ln *os.File) (*os.File, error) {
	rc, err := ln.SyscallConn()
	if err != nil {
		return nil, err
	}
	for {
		nfd, aerr := -1, error(nil)
		err = rc.Read(func(fd uintptr) bool {
			nfd, _, aerr = syscall.Accept4(int(fd), syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC)
			return aerr != syscall.EAGAIN
		})
		if err != nil {
			return nil, err
		}
		switch aerr {
		case nil:
			return os.NewFile(uintptr(nfd), "tcp-conn"), nil
		case syscall.ECONNABORTED, syscall.EINTR: // the peer gave up in the queue: take the next one
			continue
		default:
			return nil, os.NewSyscallError("accept", aerr)
		}
	}
}

// Loopback4 and Loopback6 are the sandbox's own loopback addresses, the only ones celld dials.
func Loopback4(port int) syscall.Sockaddr {
	return &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}
}

func Loopback6(port int) syscall.Sockaddr {
	return &syscall.SockaddrInet6{Port: port, Addr: [16]byte{15: 1}}
}

// Connect opens a connection with TCP_NODELAY. It gives up when ctx ends (ctx.Err()); a refusal
// is the errno itself (syscall.ECONNREFUSED), so callers can tell it from a timeout.
func Connect(ctx context.Context, addr syscall.Sockaddr) (*os.File, error) {
	family := syscall.AF_INET
	if _, v6 := addr.(*syscall.SockaddrInet6); v6 {
		family = syscall.AF_INET6
	}
	fd, err := socket(family)
	if err != nil {
		return nil, err
	}
	syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	err = syscall.Connect(fd, addr)
	f := os.NewFile(uintptr(fd), "tcp-conn")
	if err == nil {
		return f, nil
	}
	if err != syscall.EINPROGRESS {
		f.Close()
		return nil, err
	}
	if err := waitConnected(ctx, f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// waitConnected waits until the handshake ends, either way, or ctx ends.
func waitConnected(ctx context.Context, f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	if dl, ok := ctx.Deadline(); ok {
		f.SetWriteDeadline(dl)
	}
	stop, watcher := make(chan struct{}), sync.WaitGroup{}
	watcher.Add(1)
	go func() { // a cancel without a deadline still wakes the wait below
		defer watcher.Done()
		select {
		case <-ctx.Done():
			f.SetWriteDeadline(time.Unix(1, 0))
		case <-stop:
		}
	}()
	// The state is asked each time, not inferred from a wake-up: the handshake may end before the
	// wait is armed, and that readiness would be lost (as package net does it).
	soErr := 0
	err = rc.Write(func(fd uintptr) bool {
		soErr, _ = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_ERROR)
		if soErr != 0 {
			return true
		}
		_, perr := syscall.Getpeername(int(fd))
		return perr == nil
	})
	close(stop)
	watcher.Wait()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err
	case soErr != 0:
		return syscall.Errno(soErr)
	}
	return f.SetWriteDeadline(time.Time{})
}

// Accepts tells whether something accepts connections on 127.0.0.1:port within timeout.
func Accepts(port int, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	f, err := Connect(ctx, Loopback4(port))
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// CloseWrite ends our side of the connection (a half-close: the peer may still answer).
func CloseWrite(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.Shutdown(int(fd), syscall.SHUT_WR) }); err != nil {
		return err
	}
	return serr
}
