// Package framing reads and writes the length-prefixed JSON frames and the reply and event shapes;
// one Writer serialises the frames of concurrent requests onto the stream.
package framing

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"workcell.dev/celld/internal/wire"
)

// MaxFrame bounds one frame in either direction (4-byte big-endian length prefix, then JSON).
// A reply with a large wire.Bulk field is a bulk frame instead: after the length prefix, byte 0 (no
// JSON text starts with it), the JSON's length (4 bytes, big-endian), the JSON (its "bulk" names
// the result field left out), then that field's raw bytes. A request may come the same way (a
// write's content or data: see SplitBulk).
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

// SplitBulk separates a bulk frame's body (first byte 0) into its JSON and the raw bytes after it.
// The bytes are a slice of body, never copied. An error is a protocol violation.
func SplitBulk(body []byte) (head, data []byte, err error) {
	if len(body) < 5 || body[0] != 0 {
		return nil, nil, fmt.Errorf("truncated bulk frame")
	}
	n := binary.BigEndian.Uint32(body[1:5])
	if uint64(n) > uint64(len(body)-5) {
		return nil, nil, fmt.Errorf("bulk frame's JSON length exceeds the frame")
	}
	return body[5 : 5+n], body[5+n:], nil
}

// DecodeBulk turns a bulk frame's body back into the plain JSON reply or event it stands for (a body that is
// plain JSON is returned as it is). Callers in Go are tests; sandbox-service decodes it in Java.
func DecodeBulk(body []byte) ([]byte, error) {
	if len(body) == 0 || body[0] != 0 {
		return body, nil
	}
	head, data, err := SplitBulk(body)
	if err != nil {
		return nil, err
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal(head, &r); err != nil {
		return nil, err
	}
	var field string
	var result map[string]any
	if _, event := r["event"]; event && json.Unmarshal(r["bulk"], &field) == nil && field != "" {
		// An event's bytes (a terminal's output) come back as base64, as a caller gets them without rawOutput.
		delete(r, "bulk")
		r[field], _ = json.Marshal(base64.StdEncoding.EncodeToString(data))
		return json.Marshal(r)
	}
	if json.Unmarshal(r["bulk"], &field) != nil || field == "" || json.Unmarshal(r["result"], &result) != nil || result == nil {
		return nil, fmt.Errorf("bulk frame names no field of an object result")
	}
	result[field] = string(data)
	delete(r, "bulk")
	restored, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	r["result"] = restored
	return json.Marshal(r)
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
	Bulk   string        `json:"bulk,omitempty"`
}

// EncodeBulk is a whole bulk frame (length prefix included) of head's JSON and data: what a caller
// sends for a write whose content travels raw (tests; sandbox-service builds it in Java).
func EncodeBulk(head any, data []byte) ([]byte, error) { return encodeBulkFrame(head, data) }

// encodeBulkFrame writes head's JSON (a reply or an event naming its "bulk" field) and then data
// raw, in one buffer (see MaxFrame).
func encodeBulkFrame(r any, data []byte) ([]byte, error) {
	head, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	n := 1 + 4 + len(head) + len(data)
	if n > MaxFrame {
		return nil, ErrFrameTooLarge
	}
	frame := make([]byte, 4+n)
	binary.BigEndian.PutUint32(frame, uint32(n))
	frame[4] = 0
	binary.BigEndian.PutUint32(frame[5:], uint32(len(head)))
	copy(frame[9:], head)
	copy(frame[9+len(head):], data)
	return frame, nil
}

// resultFrame encodes a successful reply; a large Bulk field goes raw after the JSON.
func resultFrame(id int64, result any) ([]byte, error) {
	if b, ok := result.(wire.Bulk); ok {
		if len(b.Data) >= wire.BulkFrom {
			return encodeBulkFrame(reply{ID: id, OK: true, Result: b.Result, Bulk: b.Field}, b.Data)
		}
		b.Result[b.Field] = string(b.Data)
		result = b.Result
	}
	return EncodeFrame(reply{ID: id, OK: true, Result: result})
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
	frame, err := resultFrame(id, result)
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

// SendBulkEvent writes an event whose field named in head's "bulk" is data, raw after the JSON (a
// bulk frame): a terminal's output then skips base64 and JSON escaping on both sides.
func (fw *Writer) SendBulkEvent(head any, data []byte) error {
	frame, err := encodeBulkFrame(head, data)
	if err != nil {
		return err
	}
	return fw.writeFrame(frame)
}

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
