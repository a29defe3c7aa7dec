package ports

import (
	"net"
	"os"
	"strings"
	"testing"
)

const table = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 101 1 0000000000000000 100 0 0 10 0
   1: 00000000:104D 00000000:0000 0A 00000000:00000000 00:00000000 00000000   999        0 102 1 0000000000000000 100 0 0 10 0
   2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 103 1 0000000000000000 20 4 30 10 -1
   3: 00000000:0000 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 104 1 0000000000000000 100 0 0 10 0
`

func TestListeningTakesListenStateOnlyAndSkipsTheGivenUID(t *testing.T) {
	seen := map[int]bool{}
	if err := listening(strings.NewReader(table), 999, seen); err != nil {
		t.Fatal(err)
	}
	// 0x1F90 = 8080 listening (uid 1000); 0x104D = 4173 is uid 999's (skipped); the connection and port 0 are not listeners.
	if len(seen) != 1 || !seen[8080] {
		t.Fatalf("want only 8080, got %v", seen)
	}
}

func TestListFindsAPortListeningOnLoopbackAndForgetsItWhenClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if !listed(t, port, -1) {
		t.Fatalf("port %d is not listed", port)
	}
	if listed(t, port, os.Getuid()) {
		t.Fatalf("port %d of celld's own uid is listed", port)
	}
	ln.Close()
	if listed(t, port, -1) {
		t.Fatalf("port %d still listed after close", port)
	}
}

func listed(t *testing.T, port, skipUID int) bool {
	answer, err := list(skipUID)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range answer["ports"].([]Port) {
		if p.Port == port {
			return true
		}
	}
	return false
}
