package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/proctest"
)

// TestStdoutFull runs walks run with its standard output on /dev/full, in
// every output form: exit 2, and a line saying the write failed.
func TestStdoutFull(t *testing.T) {
	bin := proctest.Build(t, ".")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("walk: a\nsteps:\n  - part: p\n    exec: [echo, hi]\n"), 0o644)
	for _, args := range [][]string{{}, {"--json"}, {"--markdown"}} {
		t.Run(strings.Join(append([]string{"plain"}, args...), " "), func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			defer full.Close()
			cmd := exec.Command(bin, append([]string{"run", "a.yaml"}, args...)...)
			cmd.Dir = dir
			cmd.Stdout = full
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err = cmd.Run()
			if cmd.ProcessState.ExitCode() != 2 || !strings.Contains(stderr.String(), "walks: ") ||
				!strings.HasSuffix(stderr.String(), "/dev/stdout: no space left on device\n") {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 and the failed write", err, cmd.ProcessState.ExitCode(), stderr.String())
			}
		})
	}
}
