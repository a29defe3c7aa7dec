// Package ports lists the TCP ports listening inside the sandbox, for Open Terminal's GET /ports
// (decision 0020). celld runs in the sandbox's network namespace, so its /proc/net/tcp and tcp6 are
// the sandbox's own view: no other sandbox's sockets are in them.
package ports

import (
	"bufio"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Port is one listening port. PID and Process stay null: the owning process is found through
// /proc/<pid>/fd, which celld (its own user, decision 0007) may not read; upstream answers null too
// when it cannot tell.
type Port struct {
	Port    int     `json:"port"`
	PID     *int    `json:"pid"`
	Process *string `json:"process"`
}

// maxPorts bounds the answer (a sandbox's pids limit bounds its sockets anyway).
const maxPorts = 1024

// List reads /proc/net/tcp and /proc/net/tcp6; sockets owned by celld's own uid (its static preview
// server) are left out: they are not the user's.
func List() (map[string]any, error) {
	return list(os.Getuid())
}

func list(own int) (map[string]any, error) {
	seen := map[int]bool{}
	for _, path := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(path)
		if os.IsNotExist(err) { // a kernel without IPv6
			continue
		}
		if err != nil {
			return nil, err
		}
		err = listening(f, own, seen)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	out := make([]Port, 0, len(seen))
	for port := range seen {
		out = append(out, Port{Port: port})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Port < out[j].Port })
	return map[string]any{"ports": out}, nil
}

// listening adds the ports of the table's listening sockets (state 0A), except port 0 and sockets
// of the uid skipUID.
func listening(table io.Reader, skipUID int, seen map[int]bool) error {
	lines := bufio.NewScanner(table)
	lines.Scan() // the header
	for lines.Scan() {
		fields := strings.Fields(lines.Text())
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ...
		if len(fields) < 8 || fields[3] != "0A" {
			continue
		}
		colon := strings.LastIndexByte(fields[1], ':')
		if colon < 0 {
			continue
		}
		port, err := strconv.ParseUint(fields[1][colon+1:], 16, 16)
		if err != nil || port == 0 {
			continue
		}
		if uid, err := strconv.Atoi(fields[7]); err == nil && uid == skipUID {
			continue
		}
		if len(seen) >= maxPorts {
			break
		}
		seen[int(port)] = true
	}
	return lines.Err()
}
