package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"syscall"

	"workcell.dev/celld/internal/framing"
)

// With --connect, frames travel over a unix socket that sandbox-service listens on (a directory
// mounted read-only into the sandbox) instead of the exec's stdin/stdout, which Docker relays
// through dockerd and the shim: one hop less on every request. Whoever connects first is not
// trusted: celld proves itself with the one-time token sandbox-service wrote on its stdin.

const maxTokenChars = 128

// readToken reads the first line of stdin byte by byte, so nothing after it is consumed.
func readToken(r io.Reader) (string, error) {
	var token []byte
	var b [1]byte
	for {
		n, err := r.Read(b[:])
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			token = append(token, b[0])
			if len(token) > maxTokenChars {
				return "", fmt.Errorf("token line longer than %d characters", maxTokenChars)
			}
			continue
		}
		if err != nil {
			return "", fmt.Errorf("no token on stdin: %v", err)
		}
	}
	if _, err := hex.DecodeString(string(token)); err != nil || len(token) < 32 {
		return "", fmt.Errorf("the token on stdin is not hex of at least 16 bytes")
	}
	return string(token), nil
}

// dialCaller connects to the caller's socket and sends the hello frame with the token.
func dialCaller(path, token string) (*os.File, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socket: %v", err)
	}
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("connect %s: %v", path, err)
	}
	conn := pollable(fd, path)
	hello, err := framing.EncodeFrame(map[string]string{"hello": token})
	if err == nil {
		_, err = conn.Write(hello)
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("hello: %v", err)
	}
	return conn, nil
}

// pollable wraps fd as a non-blocking file on Go's netpoller. A blocking fd ties a thread in
// read(2) while holding celld's only P, and every request then waited for sysmon to take the P
// back before it could run (tens to hundreds of µs, seen with strace). Should the flag not take,
// os.NewFile falls back to blocking reads, as before.
func pollable(fd int, name string) *os.File {
	syscall.SetNonblock(fd, true)
	return os.NewFile(uintptr(fd), name)
}
