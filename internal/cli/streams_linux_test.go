package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestFinishFailedWrite holds a run whose standard output is /dev/full
// to exit 2 and one line on stderr, whatever the run returned, but a walk
// that failed (exit 3) keeps its code; a run's own error that is the
// failed write is not said twice.
func TestFinishFailedWrite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		run   func(stdout *stream) error
		code  int
		lines string
	}{
		{"ok", func(*stream) error { return nil }, 2,
			"measure: writing standard output: write /dev/full: no space left on device\n"},
		{"finding", func(*stream) error { return Finding(errors.New("over budget")) }, 2,
			"measure: over budget\nmeasure: writing standard output: write /dev/full: no space left on device\n"},
		{"walk failed", func(*stream) error { return WalkFailed(errors.New("a: status 500")) }, 3,
			"measure: a: status 500\nmeasure: writing standard output: write /dev/full: no space left on device\n"},
		{"returned", func(s *stream) error {
			_, err := fmt.Fprintln(s, "{}")
			return err
		}, 2, "measure: write /dev/full: no space left on device\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			defer full.Close()
			errPath := filepath.Join(t.TempDir(), "stderr")
			ef, err := os.Create(errPath)
			if err != nil {
				t.Fatal(err)
			}
			defer ef.Close()
			stdout, stderr := &stream{f: full, name: "standard output"}, &stream{f: ef, name: "standard error"}
			fmt.Fprintln(stdout, "table")
			code := finish(stdout, stderr, "measure", tc.run(stdout))
			got, _ := os.ReadFile(errPath)
			if code != tc.code || string(got) != tc.lines {
				t.Errorf("exit %d, stderr %q; want exit %d, %q", code, got, tc.code, tc.lines)
			}
		})
	}
}

// TestFinishFailedStderr holds a run whose standard error is /dev/full
// and that printed a warning to exit 2, though nothing can say so.
func TestFinishFailedStderr(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	out, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	stdout, stderr := &stream{f: out, name: "standard output"}, &stream{f: full, name: "standard error"}
	fmt.Fprintln(stderr, "warning: a budget nothing read")
	if code := finish(stdout, stderr, "measure", nil); code != ExitUsage {
		t.Errorf("exit %d, want 2", code)
	}
	fmt.Fprintln(stdout, "fine")
	if code := finish(stdout, &stream{f: out, name: "standard error"}, "measure", nil); code != ExitOK {
		t.Errorf("exit %d with every write done, want 0", code)
	}
}
