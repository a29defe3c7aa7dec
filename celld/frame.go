package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// maxFrame bounds one frame in either direction (4-byte big-endian length prefix, then JSON).
const maxFrame = 8 << 20

var errFrameTooLarge = errors.New("frame exceeds 8 MiB")

// readFrame returns the next frame body; io.EOF only at a clean frame boundary.
func readFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("truncated frame header")
		}
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return nil, errFrameTooLarge
	}
	if n == 0 {
		return nil, fmt.Errorf("empty frame")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("truncated frame body: %v", err)
	}
	return body, nil
}

// frameWriter serialises frames from many goroutines onto one stream.
type frameWriter struct {
	mu     sync.Mutex
	w      io.Writer
	broken bool
	onFail func(error)
}

// encodeFrame marshals v as one frame: the 4-byte length, then JSON without HTML escaping (it
// would inflate file contents up to 6x), built in one buffer so the body is never copied again.
func encodeFrame(v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.Write([]byte{0, 0, 0, 0})
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	frame := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(frame)-4 > maxFrame {
		return nil, errFrameTooLarge
	}
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	return frame, nil
}

// writeFrame sends one encoded frame; a failed write marks the stream broken and reports once.
func (fw *frameWriter) writeFrame(frame []byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.broken {
		return io.ErrClosedPipe
	}
	if _, err := fw.w.Write(frame); err != nil {
		fw.broken = true
		if fw.onFail != nil {
			go fw.onFail(err)
		}
		return err
	}
	return nil
}

type reply struct {
	ID     int64    `json:"id"`
	OK     bool     `json:"ok"`
	Result any      `json:"result,omitempty"`
	Error  *opError `json:"error,omitempty"`
}

type outputEvent struct {
	ID     int64  `json:"id"`
	Event  string `json:"event"`
	Stream string `json:"stream"`
	Data   string `json:"data"`
}

func (fw *frameWriter) sendResult(id int64, result any) error {
	if result == nil {
		result = struct{}{}
	}
	frame, err := encodeFrame(reply{ID: id, OK: true, Result: result})
	if err == errFrameTooLarge {
		return fw.sendError(id, errf(codeFileTooLarge, "the encoded reply exceeds the 8 MiB frame limit"))
	}
	if err != nil {
		return fw.sendError(id, errf(codeInternal, "encoding reply: %v", err))
	}
	return fw.writeFrame(frame)
}

func (fw *frameWriter) sendError(id int64, e *opError) error {
	frame, err := encodeFrame(reply{ID: id, OK: false, Error: e})
	if err != nil {
		return err
	}
	return fw.writeFrame(frame)
}

func (fw *frameWriter) sendEvent(ev outputEvent) error {
	frame, err := encodeFrame(ev)
	if err != nil {
		return err
	}
	return fw.writeFrame(frame)
}
