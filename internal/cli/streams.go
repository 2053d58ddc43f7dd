package cli

import (
	"errors"
	"fmt"
	"os"
	"sync"
)

// stream is a command's standard output or standard error as run writes
// to it: every write goes through, and the first that fails is kept, so
// that a report lost to a full disk or a closed terminal is an input
// error (exit 2) and not a silent success.
type stream struct {
	f    *os.File
	name string

	mu  sync.Mutex
	err error
}

// Write writes p and keeps the first error.
func (s *stream) Write(p []byte) (int, error) {
	n, err := s.f.Write(p)
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
	return n, err
}

// Fd returns the file descriptor of the stream's file, so that a
// progress bar can ask whether it is a terminal.
func (s *stream) Fd() uintptr { return s.f.Fd() }

// wrote reports whether err is, or wraps, a failed write to the stream.
func (s *stream) wrote(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Op == "write" && pe.Path == s.f.Name()
}

// failed returns the first failed write as "writing standard output:
// ...", or nil.
func (s *stream) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		return nil
	}
	return fmt.Errorf("writing %s: %w", s.name, s.err)
}

// version prints the command's version line to stdout: exit 0, or 2
// when it could not be written.
func version(name string) int {
	if _, err := fmt.Fprintln(os.Stdout, Version(name)); err != nil {
		fmt.Fprintf(os.Stderr, "%s: writing standard output: %v\n", name, err)
		return ExitUsage
	}
	return ExitOK
}

// finish ends a run whose streams are stdout and stderr: it prints err
// as Report does, and returns the exit code. A write to either stream
// that failed is an input error (exit 2) with its own line on stderr,
// where stderr still works, unless the run already ended worse (a walk
// that failed keeps exit 3).
func finish(stdout, stderr *stream, name string, err error) int {
	Report(stderr, name, err)
	werr := stdout.failed()
	if e := stderr.failed(); werr == nil {
		werr = e
	}
	if werr == nil {
		return Code(err)
	}
	if err == nil || !(stdout.wrote(err) || stderr.wrote(err)) {
		Report(stderr, name, werr) // lost if stderr is what failed
	}
	if c := Code(err); c > ExitUsage {
		return c
	}
	return ExitUsage
}
