package preview

import (
	"os"
	"syscall"
	"time"
)

// TCP for the preview without package net: celld needs a listener, accept, and a connect probe
// to 127.0.0.1 inside the sandbox. Importing net costs ~0.4 MB of binary, and every byte of the
// binary is resident (page-cache fault-around) in every sandbox's celld.

// listenTCP listens on every address of the sandbox, IPv6 and IPv4 alike (as package net does for
// ":port"), or IPv4 only where the kernel has no IPv6; the file is on Go's netpoller, so Close
// wakes acceptTCP.
func listenTCP(port int) (*os.File, error) {
	fd, err := tcpSocket(syscall.AF_INET6)
	var addr syscall.Sockaddr = &syscall.SockaddrInet6{Port: port}
	if err == nil {
		err = syscall.SetsockoptInt(fd, syscall.IPPROTO_IPV6, syscall.IPV6_V6ONLY, 0)
		if err != nil {
			syscall.Close(fd)
		}
	}
	if err != nil {
		addr = &syscall.SockaddrInet4{Port: port}
		if fd, err = tcpSocket(syscall.AF_INET); err != nil {
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

// tcpSocket is a non-blocking, close-on-exec TCP socket of the family, for Go's netpoller.
func tcpSocket(family int) (int, error) {
	return syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
}

// acceptTCP waits for the next connection; an error means the listener was closed (or broke).
func acceptTCP(ln *os.File) (*os.File, error) {
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

// tcpAccepts tells whether something accepts connections on 127.0.0.1:port within timeout.
func tcpAccepts(port int, timeout time.Duration) bool {
	fd, err := tcpSocket(syscall.AF_INET)
	if err != nil {
		return false
	}
	err = syscall.Connect(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
	// Registered with the netpoller only now: an unconnected socket polls writable, a connecting one does not.
	f := os.NewFile(uintptr(fd), "tcp-probe")
	defer f.Close()
	if err == nil {
		return true
	}
	if err != syscall.EINPROGRESS {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil || f.SetWriteDeadline(time.Now().Add(timeout)) != nil {
		return false
	}
	soErr, waited := -1, false
	err = rc.Write(func(fd uintptr) bool { // writable once the handshake ends, either way
		if !waited {
			waited = true
			return false
		}
		soErr, _ = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_ERROR)
		return true
	})
	return err == nil && soErr == 0
}
