//go:build unix

package walk_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readmeter/readmeter/walk"
)

// pidsGone fails the test unless every pid written to the file is gone.
func pidsGone(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil || len(strings.Fields(string(b))) == 0 {
		t.Fatalf("no pids written: %v", err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("process %d is still running", pid)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestExecHonoursTheTimeLimit: a command that hangs, with a child that
// ignores SIGTERM, is stopped whole at the step's time limit.
func TestExecHonoursTheTimeLimit(t *testing.T) {
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	script := `sh -c 'trap "" TERM; echo $$ >> ` + pids + `; while :; do sleep 0.05; done' & echo $$ >> ` + pids + `; sleep 1000`
	p := write(t, dir, "w.yaml", "walk: w\nsteps:\n  - exec: ["+strconv.Quote("sh")+", \"-c\", "+strconv.Quote(script)+"]\n")
	start := time.Now()
	_, err := walk.Run(context.Background(), load(t, p), walk.Options{BaseURL: "http://127.0.0.1:1", Timeout: 300 * time.Millisecond})
	var f *walk.Failure
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "the command did not finish: the time limit of a step (300ms) ran out") {
		t.Errorf("got %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
	pidsGone(t, pids)
}

// TestExecLingeringChild: a command that exits and leaves a child holding
// its output does not hold the step past the grace time, its output is
// kept, and the child is stopped.
func TestExecLingeringChild(t *testing.T) {
	dir := t.TempDir()
	pids := filepath.Join(dir, "pids")
	script := `echo '{"a":1}'; sh -c 'echo $$ >> ` + pids + `; sleep 1000' &`
	p := write(t, dir, "w.yaml", "walk: w\nsteps:\n  - exec: [sh, -c, "+strconv.Quote(script)+"]\n    keep: {a: a}\n")
	start := time.Now()
	_, err := walk.Run(context.Background(), load(t, p), walk.Options{BaseURL: "http://127.0.0.1:1", Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %s", d)
	}
	pidsGone(t, pids)
}

// TestExecOutputCapped: output past 64 MiB fails the step, as an HTTP
// answer that large does, and the command is stopped.
func TestExecOutputCapped(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "w.yaml", "walk: w\nsteps:\n  - exec: [sh, -c, \"cat /dev/zero\"]\n")
	_, err := walk.Run(context.Background(), load(t, p), walk.Options{BaseURL: "http://127.0.0.1:1", Timeout: 20 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "the command's output is larger than 64 MiB") {
		t.Errorf("got %v", err)
	}
}
