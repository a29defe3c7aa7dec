package main

import (
	"errors"
	"fmt"
	"syscall"
)

// Stable wire error codes; the Java contracts (ErrorCode) use the same strings.
const (
	codeInvalidPath       = "invalid_path"
	codePathEscape        = "path_escape"
	codeNotFound          = "not_found"
	codeAlreadyExists     = "already_exists"
	codeNotADirectory     = "not_a_directory"
	codeIsADirectory      = "is_a_directory"
	codeDirectoryNotEmpty = "directory_not_empty"
	codeNotUTF8           = "not_utf8"
	codeFileTooLarge      = "file_too_large"
	codeNotRegularFile    = "not_regular_file"
	codeConflict          = "conflict"
	codeInvalidArgument   = "invalid_argument"
	codeTimeout           = "timeout"
	codeCancelled         = "cancelled"
	codePreviewNotFound   = "preview_not_found"
	codePreviewAmbiguous  = "preview_ambiguous"
	codePreviewFailed     = "preview_failed"
	codeInternal          = "internal"
	codeInvalidPattern    = "invalid_pattern"
	codeProcessExited     = "process_exited"
	codeTooManyProcesses  = "too_many_processes"
)

// opError is what every handler returns on failure; it becomes the reply's "error" object.
type opError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *opError) Error() string { return e.Code + ": " + e.Message }

func errf(code, format string, args ...any) *opError {
	return &opError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// fsError maps a syscall failure on path to a wire error; callers with a more precise meaning map first.
func fsError(err error, path string) *opError {
	var oe *opError
	if errors.As(err, &oe) {
		return oe
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return errf(codeInternal, "%s: %v", path, err)
	}
	switch errno {
	case syscall.ENOENT:
		return errf(codeNotFound, "%s: no such file or directory", path)
	case syscall.EEXIST:
		return errf(codeAlreadyExists, "%s: already exists", path)
	case syscall.ENOTDIR:
		return errf(codeNotADirectory, "%s: not a directory", path)
	case syscall.EISDIR:
		return errf(codeIsADirectory, "%s: is a directory", path)
	case syscall.ENOTEMPTY:
		return errf(codeDirectoryNotEmpty, "%s: directory not empty", path)
	case syscall.EXDEV, syscall.ELOOP:
		return errf(codePathEscape, "%s: resolution leaves the workspace or crosses a link that is not allowed", path)
	case syscall.ENAMETOOLONG:
		return errf(codeInvalidPath, "%s: name too long", path)
	case syscall.ENXIO:
		return errf(codeNotRegularFile, "%s: not a regular file", path)
	case syscall.EACCES, syscall.EPERM:
		return errf(codeInternal, "%s: permission denied", path)
	default:
		return errf(codeInternal, "%s: %v", path, errno)
	}
}
