package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/proctest"
)

// TestStdoutFull runs measure with its standard output on /dev/full, in
// every output form: exit 2, and one line saying the write failed.
func TestStdoutFull(t *testing.T) {
	bin := proctest.Build(t, ".")
	for _, args := range [][]string{{}, {"--json"}, {"--markdown"}, {"--version"}, {"--help"}} {
		t.Run(strings.Join(append([]string{"plain"}, args...), " "), func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			defer full.Close()
			cmd := exec.Command(bin, append(args, "../../captures/twin/tools-mcp.json")...)
			cmd.Stdout = full
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err = cmd.Run()
			if cmd.ProcessState.ExitCode() != 2 || strings.Count(stderr.String(), "\n") != 1 ||
				!strings.HasPrefix(stderr.String(), "measure: ") || !strings.Contains(stderr.String(), "no space left on device") {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", err, cmd.ProcessState.ExitCode(), stderr.String())
			}
		})
	}
}
