// Package framing reads and writes the length-prefixed JSON frames and the reply and event shapes;
// one Writer serialises the frames of concurrent requests onto the stream.
package framing

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"workcell.dev/celld/internal/wire"
)

// MaxFrame bounds one frame in either direction (4-byte big-endian length prefix, then JSON).
const MaxFrame = 8 << 20

var ErrFrameTooLarge = errors.New("frame exceeds 8 MiB")

// ReadFrame returns the next frame body; io.EOF only at a clean frame boundary.
func ReadFrame(r io.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("truncated frame header")
		}
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return nil, ErrFrameTooLarge
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

// Writer serialises frames from many goroutines onto one stream.
type Writer struct {
	mu     sync.Mutex
	w      io.Writer
	broken bool
	OnFail func(error)
}

// EncodeFrame marshals v as one frame: the 4-byte length, then JSON without HTML escaping (it
// would inflate file contents up to 6x), built in one buffer so the body is never copied again.
func EncodeFrame(v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.Write([]byte{0, 0, 0, 0})
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	frame := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(frame)-4 > MaxFrame {
		return nil, ErrFrameTooLarge
	}
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	return frame, nil
}

// writeFrame sends one encoded frame; a failed write marks the stream broken and reports once.
func (fw *Writer) writeFrame(frame []byte) error {
	fw.mu.Lock()
	defer fw.mu.Unlock()
	if fw.broken {
		return io.ErrClosedPipe
	}
	if _, err := fw.w.Write(frame); err != nil {
		fw.broken = true
		if fw.OnFail != nil {
			go fw.OnFail(err)
		}
		return err
	}
	return nil
}

type reply struct {
	ID     int64         `json:"id"`
	OK     bool          `json:"ok"`
	Result any           `json:"result,omitempty"`
	Error  *wire.OpError `json:"error,omitempty"`
}

type OutputEvent struct {
	ID     int64  `json:"id"`
	Event  string `json:"event"`
	Stream string `json:"stream"`
	Data   string `json:"data"`
}

func (fw *Writer) SendResult(id int64, result any) error {
	if result == nil {
		result = struct{}{}
	}
	frame, err := EncodeFrame(reply{ID: id, OK: true, Result: result})
	if err == ErrFrameTooLarge {
		return fw.SendError(id, wire.Errf(wire.CodeFileTooLarge, "the encoded reply exceeds the 8 MiB frame limit"))
	}
	if err != nil {
		return fw.SendError(id, wire.Errf(wire.CodeInternal, "encoding reply: %v", err))
	}
	return fw.writeFrame(frame)
}

func (fw *Writer) SendError(id int64, e *wire.OpError) error {
	frame, err := EncodeFrame(reply{ID: id, OK: false, Error: e})
	if err != nil {
		return err
	}
	return fw.writeFrame(frame)
}

func (fw *Writer) SendEvent(ev OutputEvent) error { return fw.Send(ev) }

// Send writes any other event shape (a terminal's output, its start) as one frame.
func (fw *Writer) Send(event any) error {
	frame, err := EncodeFrame(event)
	if err != nil {
		return err
	}
	return fw.writeFrame(frame)
}

// NewWriter returns a Writer that sends frames to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }
