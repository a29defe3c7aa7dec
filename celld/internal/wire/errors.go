// Package wire holds what every handler shares with the reply: the stable error codes (the Java
// contracts ErrorCode strings), the error object, errno mapping, and results with after-reply work.
package wire

import (
	"errors"
	"fmt"
	"syscall"
)

// Stable wire error codes; the Java contracts (ErrorCode) use the same strings.
const (
	CodeInvalidPath       = "invalid_path"
	CodePathEscape        = "path_escape"
	CodeNotFound          = "not_found"
	CodeAlreadyExists     = "already_exists"
	CodeNotADirectory     = "not_a_directory"
	CodeIsADirectory      = "is_a_directory"
	CodeDirectoryNotEmpty = "directory_not_empty"
	CodeNotUTF8           = "not_utf8"
	CodeFileTooLarge      = "file_too_large"
	CodeNotRegularFile    = "not_regular_file"
	CodeConflict          = "conflict"
	CodeInvalidArgument   = "invalid_argument"
	CodeTimeout           = "timeout"
	CodeCancelled         = "cancelled"
	CodePreviewNotFound   = "preview_not_found"
	CodePreviewAmbiguous  = "preview_ambiguous"
	CodePreviewFailed     = "preview_failed"
	CodeInternal          = "internal"
	CodeInvalidPattern    = "invalid_pattern"
	CodeProcessExited     = "process_exited"
	CodeTooManyProcesses  = "too_many_processes"
	CodeConnectionRefused = "connection_refused"
)

// OpError is what every handler returns on failure; it becomes the reply's "error" object.
type OpError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *OpError) Error() string { return e.Code + ": " + e.Message }

func Errf(code, format string, args ...any) *OpError {
	return &OpError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FSError maps a syscall failure on path to a wire error; callers with a more precise meaning map first.
func FSError(err error, path string) *OpError {
	var oe *OpError
	if errors.As(err, &oe) {
		return oe
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return Errf(CodeInternal, "%s: %v", path, err)
	}
	switch errno {
	case syscall.ENOENT:
		return Errf(CodeNotFound, "%s: no such file or directory", path)
	case syscall.EEXIST:
		return Errf(CodeAlreadyExists, "%s: already exists", path)
	case syscall.ENOTDIR:
		return Errf(CodeNotADirectory, "%s: not a directory", path)
	case syscall.EISDIR:
		return Errf(CodeIsADirectory, "%s: is a directory", path)
	case syscall.ENOTEMPTY:
		return Errf(CodeDirectoryNotEmpty, "%s: directory not empty", path)
	case syscall.EXDEV, syscall.ELOOP:
		return Errf(CodePathEscape, "%s: resolution leaves the workspace or crosses a link that is not allowed", path)
	case syscall.ENAMETOOLONG:
		return Errf(CodeInvalidPath, "%s: name too long", path)
	case syscall.ENXIO:
		return Errf(CodeNotRegularFile, "%s: not a regular file", path)
	case syscall.EACCES, syscall.EPERM:
		return Errf(CodeInternal, "%s: permission denied", path)
	default:
		return Errf(CodeInternal, "%s: %v", path, errno)
	}
}

// AfterReply is a result whose finishing work (durability, releasing resources) runs once the
// reply is on its way: it matters to the sandbox, not to the caller's latency.
type AfterReply struct {
	Result any
	Then   func()
}

// SplitReply separates a handler's result into the reply and the work that follows it.
func SplitReply(res any) (any, func()) {
	if a, ok := res.(AfterReply); ok {
		return a.Result, a.Then
	}
	return res, func() {}
}

// Bulk is a result with one large text field (a file's content). Over BulkFrom bytes it travels
// raw after the reply's JSON instead of as a JSON string (see framing): the caller decodes a 2 MB
// text with one copy instead of through a JSON string's buffers, and celld skips escaping it.
type Bulk struct {
	Result map[string]any
	Field  string
	Data   []byte
}

// BulkFrom is the size from which a Bulk field leaves the JSON; below it a reply stays plain JSON.
const BulkFrom = 8 << 10
