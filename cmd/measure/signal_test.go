package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readmeter/readmeter/internal/proctest"
)

// TestCaptureStdioStopsOnSignal runs measure capture --stdio as a real
// process against a server that never answers, ignores SIGTERM and has a
// child: a signal stops both, writes nothing, and ends with 130 or 143.
func TestCaptureStdioStopsOnSignal(t *testing.T) {
	bin := proctest.Build(t, ".")
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{
		{syscall.SIGINT, 130, "SIGINT"},
		{syscall.SIGTERM, 143, "SIGTERM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			server := `trap "" TERM INT; sleep 1000 & echo $! >> ` + pids + `; echo $$ >> ` + pids + `; while :; do sleep 0.05; done`
			cmd := exec.Command(bin, "capture", "-o", "tools.json", "--timeout", "60s", "--stdio", "--", "sh", "-c", server)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			started := proctest.Pids(t, pids, 2, func() string { return stderr.String() })
			cmd.Process.Signal(tc.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("measure still running 15s after %s; stderr: %s", tc.name, stderr.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, stderr.String())
			}
			if !strings.HasSuffix(stderr.String(), "measure: stopped by "+tc.name+"\n") {
				t.Errorf("stderr: %q", stderr.String())
			}
			proctest.Gone(t, started)
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("left in the directory: %v", ents)
			}
		})
	}
}
