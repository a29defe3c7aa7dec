package procs

import (
	"fmt"
	"os"
	"sync"
	"unicode/utf8"

	"workcell.dev/celld/internal/framing"
)

// streamBudget is the byte allowance of output events that a command's two streams share.
type streamBudget struct {
	mu       sync.Mutex
	limit    int
	streamed int
	notified bool
}

// take grants up to n more bytes; notify is true for the one caller that first hits the limit.
func (b *streamBudget) take(n int) (granted int, notify bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	granted = b.limit - b.streamed
	if granted >= n {
		b.streamed += n
		return n, false
	}
	b.streamed = b.limit
	notify, b.notified = !b.notified, true
	return granted, notify
}

// pump copies one output stream into the capture buffer and streams it as output events.
// Events stop once both streams together sent the budget's limit (the final reply keeps head and
// tail); quiet sends none.
func (s *Manager) pump(id int64, stream string, r *os.File, capture *headTail, budget *streamBudget, quiet bool) {
	buf := make([]byte, ReadChunk)
	var pending []byte // an incomplete UTF-8 sequence carried to the next chunk
	emit := func(b []byte) {
		if len(b) == 0 || quiet {
			return
		}
		granted, notify := budget.take(len(b))
		if granted < len(b) {
			b = b[:completeUTF8(b[:granted])]
		}
		if len(b) > 0 {
			s.out.SendEvent(framing.OutputEvent{ID: id, Event: "output", Stream: stream, Data: string(b)})
		}
		if notify {
			s.out.SendEvent(framing.OutputEvent{ID: id, Event: "output", Stream: stream,
				Data: fmt.Sprintf("\n[celld: output beyond %d bytes is not streamed; the result keeps its head and tail]\n", budget.limit)})
		}
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

// String returns the kept text (see keep) with the whole capacity as the allowance.
func (h *headTail) String() (string, bool) {
	return h.keep(h.max)
}

// keep returns the stream cut to allow bytes (at most max): its first and last halves with a marker
// line between them when bytes were dropped, both sides trimmed to whole UTF-8 characters.
func (h *headTail) keep(allow int) (string, bool) {
	full := append(append(append([]byte(nil), h.head...), h.tail[h.tailStart:]...), h.tail[:h.tailStart]...)
	if h.total <= int64(allow) {
		return string(full), false
	}
	// full holds the stream's first max-max/2 and last max/2 bytes, enough for any allow <= max.
	head := full[:allow-allow/2]
	tail := full[len(full)-allow/2:]
	head = head[:completeUTF8(head)]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s\n[... %d bytes truncated ...]\n%s", head, h.total-int64(len(head))-int64(len(tail)), tail), true
}

// keepBoth shares limit bytes between a command's two streams: a stream that fits in half keeps
// all of itself and leaves the rest to the other; otherwise each gets half.
func keepBoth(stdout, stderr *headTail, limit int) (string, string, bool) {
	o, e := stdout.total, stderr.total
	allowOut, allowErr := limit-limit/2, limit/2
	switch {
	case o+e <= int64(limit):
		allowOut, allowErr = int(o), int(e)
	case o <= int64(limit/2):
		allowOut, allowErr = int(o), limit-int(o)
	case e <= int64(limit/2):
		allowOut, allowErr = limit-int(e), int(e)
	}
	out, outTrunc := stdout.keep(allowOut)
	errText, errTrunc := stderr.keep(allowErr)
	return out, errText, outTrunc || errTrunc
}
