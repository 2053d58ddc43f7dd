//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/internal/proctest"
)

// TestCaptureStdioStopsOnSignal runs measure capture --stdio as a real
// process against a server that never answers, ignores SIGTERM and has a
// child: a signal stops both, writes nothing, and ends with 130 or 143.
func TestCaptureStdioStopsOnSignal(t *testing.T) {
	bin := proctest.Build(t, ".")
	for _, sig := range proctest.Signals {
		t.Run(sig.Name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			server := `trap "" TERM INT; sleep 1000 & echo $! >> ` + pids + `; echo $$ >> ` + pids + `; while :; do sleep 0.05; done`
			cmd := exec.Command(bin, "capture", "-o", "tools.json", "--timeout", "60s", "--stdio", "--", "sh", "-c", server)
			stderr, started := proctest.Start(t, cmd, dir, pids, 2)
			proctest.Stop(t, cmd, stderr, "measure", sig)
			proctest.Gone(t, started)
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("left in the directory: %v", ents)
			}
		})
	}
}
