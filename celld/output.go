package main

import (
	"fmt"
	"os"
	"unicode/utf8"
)

// pump copies one output stream into the capture buffer and streams it as output events.
// Events stop after limit bytes per stream (the final reply keeps head and tail); quiet sends none.
func (s *server) pump(id int64, stream string, r *os.File, capture *headTail, limit int, quiet bool) {
	buf := make([]byte, readChunk)
	var pending []byte // an incomplete UTF-8 sequence carried to the next chunk
	streamed, notified := 0, false
	emit := func(b []byte) {
		if len(b) == 0 || quiet {
			return
		}
		if room := limit - streamed; len(b) > room {
			b = b[:completeUTF8(b[:room])]
			if len(b) > 0 {
				s.out.sendEvent(outputEvent{ID: id, Event: "output", Stream: stream, Data: string(b)})
			}
			streamed = limit
			if !notified {
				notified = true
				s.out.sendEvent(outputEvent{ID: id, Event: "output", Stream: stream,
					Data: fmt.Sprintf("\n[celld: %s beyond %d bytes is not streamed; the result keeps its head and tail]\n", stream, limit)})
			}
			return
		}
		streamed += len(b)
		s.out.sendEvent(outputEvent{ID: id, Event: "output", Stream: stream, Data: string(b)})
	}
	for {
		n, err := r.Read(buf)
		if n > 0 {
			capture.Write(buf[:n])
			chunk := append(pending, buf[:n]...)
			cut := completeUTF8(chunk)
			emit(chunk[:cut])
			pending = append([]byte(nil), chunk[cut:]...)
		}
		if err != nil {
			break
		}
	}
	emit(pending)
	r.Close()
}

// completeUTF8 returns the length of b without a trailing, still incomplete UTF-8 sequence.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// headTail keeps the first and last max/2 bytes of a stream.
type headTail struct {
	max       int
	head      []byte
	tail      []byte // ring buffer once full
	tailStart int
	total     int64
}

func newHeadTail(max int) *headTail { return &headTail{max: max} }

func (h *headTail) Write(b []byte) {
	h.total += int64(len(b))
	headCap := h.max - h.max/2
	if room := headCap - len(h.head); room > 0 {
		if room > len(b) {
			room = len(b)
		}
		h.head = append(h.head, b[:room]...)
		b = b[room:]
	}
	tailCap := h.max / 2
	if tailCap == 0 {
		return
	}
	if len(b) >= tailCap {
		h.tail = append(h.tail[:0], b[len(b)-tailCap:]...)
		h.tailStart = 0
		return
	}
	for len(b) > 0 {
		if len(h.tail) < tailCap {
			n := tailCap - len(h.tail)
			if n > len(b) {
				n = len(b)
			}
			h.tail = append(h.tail, b[:n]...)
			b = b[n:]
			continue
		}
		n := copy(h.tail[h.tailStart:], b)
		b = b[n:]
		h.tailStart = (h.tailStart + n) % tailCap
	}
}

// String returns the kept text; when bytes were dropped a marker line sits between head and tail,
// and both sides are trimmed to whole UTF-8 characters.
func (h *headTail) String() (string, bool) {
	tail := append(append([]byte(nil), h.tail[h.tailStart:]...), h.tail[:h.tailStart]...)
	dropped := h.total - int64(len(h.head)) - int64(len(tail))
	if dropped <= 0 {
		return string(h.head) + string(tail), false
	}
	head := h.head[:completeUTF8(h.head)]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s\n[... %d bytes truncated ...]\n%s", head, dropped, tail), true
}
