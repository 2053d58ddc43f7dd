//go:build linux

package main

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/internal/proctest"
)

// TestCaptureEndsSetsidChildren runs measure capture --stdio as a real
// process against a server that never answers and leaves a process in a
// session of its own (setsid), one that ignores SIGTERM: a signal ends it
// too.
func TestCaptureEndsSetsidChildren(t *testing.T) {
	bin := proctest.Build(t, ".")
	for _, sig := range proctest.Signals {
		t.Run(sig.Name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			server := `(setsid sh -c 'trap "" TERM; echo $$ >> ` + pids + `; while :; do sleep 0.05; done' &); echo $$ >> ` + pids + `; sleep 1000`
			cmd := exec.Command(bin, "capture", "-o", "tools.json", "--timeout", "60s", "--stdio", "--", "sh", "-c", server)
			stderr, started := proctest.Start(t, cmd, dir, pids, 2)
			proctest.Stop(t, cmd, stderr, "measure", sig)
			proctest.Gone(t, started)
		})
	}
}
