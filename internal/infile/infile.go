// Package infile reads the files a command is given, by one rule: a
// regular file (a symbolic link to one is followed) of at most a stated
// size, refused before anything is read otherwise. A device such as
// /dev/zero, a named pipe, a directory or a file larger than the cap is
// an input error that names the file, so that no command hangs on a FIFO
// or grows without bound on a device.
//
//	data, err := infile.Read("specs/twin/budgets.ts", "budget file", infile.MaxText)
//	if err != nil {
//		return err // "specs/twin/budgets.ts: not a regular file (a named pipe): give a file saved on disk"
//	}
//
// Steps: Check stats the path and refuses what is not a regular file or is
// larger than the cap; Read then opens it, checks the open file again
// (it may have changed since), and reads at most the cap.
package infile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode"
)

// Max is the largest file a command reads: 2 GiB. Captures, toolsets,
// words, ceilings and calibration files, and the documents a walk reads,
// are held to it.
const Max = 2 << 30

// MaxText is the largest file people write that a command reads: 64 MiB.
// Budget files, reports (--base, walks merge), measure config files and
// templates are held to it.
const MaxText = 64 << 20

// ErrTooLarge is what an Error for a file larger than its cap wraps.
var ErrTooLarge = errors.New("file too large")

// Error is a file that cannot be read as an input file: its path, and
// what is wrong in words that say what to do.
type Error struct {
	// Path is the file as it was given.
	Path string
	// Line is the line of the file at fault, or 0 for the whole file.
	Line int
	// Msg says what is wrong.
	Msg string
	// Err is the error of the system call, if one failed (fs.ErrNotExist
	// for a missing file).
	Err error
}

// Error returns "PATH: MSG", or "PATH:LINE: MSG".
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// Unwrap returns the system call's error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Check says why path cannot be read as an input file: missing, a
// directory, not a regular file, or larger than max bytes. what names the
// file in the message for a directory ("budget file").
func Check(path, what string, max int64) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, statErr(path, err)
	}
	return st, check(path, what, st, max)
}

func check(path, what string, st fs.FileInfo, max int64) error {
	switch {
	case st.IsDir():
		return &Error{Path: path, Msg: "is a directory, not a " + what}
	case !st.Mode().IsRegular():
		return &Error{Path: path, Msg: fmt.Sprintf("not a regular file (%s): give a file saved on disk", kind(st.Mode()))}
	case st.Size() > max:
		return tooLarge(path, st.Size(), max)
	}
	return nil
}

func tooLarge(path string, size, max int64) error {
	return &Error{Path: path, Msg: fmt.Sprintf("%d bytes, larger than the %d bytes (%s) a file may be", size, max, Size(max)), Err: ErrTooLarge}
}

// Size writes n bytes as people read a cap: "64 MiB", "2 GiB".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func statErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Path: path, Msg: err.Error(), Err: err}
}

// Read reads the file at path by the rule: Check, then the open file
// checked again, then at most max bytes (a file that grew past max while
// read is refused too).
func Read(path, what string, max int64) ([]byte, error) {
	if _, err := Check(path, what, max); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, statErr(path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, statErr(path, err)
	}
	if err := check(path, what, st, max); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, statErr(path, err)
	}
	if int64(len(data)) > max {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("grew past the %d bytes (%s) a file may be while it was read", max, Size(max)), Err: ErrTooLarge}
	}
	return data, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a " + m.Type().String()
}

// WebPage returns the error for data that is a web page saved in place of
// the file a command reads (a login page, a repository's page of the
// file): its first byte past white space is "<", which starts none of the
// JSON, JSONC, TypeScript, YAML or event streams the commands read. The
// error names the line the page starts on, says what the file is not
// (what: "budget file") and what to give instead; it is nil when data is
// not such a page. Every reader of a file people save asks it first, so
// that a page is named as one, never reported as a syntax error.
func WebPage(path string, data []byte, what, instead string) error {
	t := bytes.TrimLeftFunc(data, unicode.IsSpace)
	if len(t) == 0 || t[0] != '<' {
		return nil
	}
	line := 1 + bytes.Count(data[:len(data)-len(t)], []byte("\n"))
	return &Error{Path: path, Line: line, Msg: fmt.Sprintf("an HTML or XML page, not a %s: %s", what, instead)}
}
