//go:build linux

package procgroup

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// TestHasChildren: hasChildren says what the whole process table says, a
// child started and gone, so that descendants can skip the table.
func TestHasChildren(t *testing.T) {
	table := func() bool {
		for _, p := range procs() {
			if p.ppid == os.Getpid() {
				return true
			}
		}
		return false
	}
	if got, want := hasChildren(), table(); got != want {
		t.Fatalf("at start: hasChildren %v, the process table %v", got, want)
	}
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !hasChildren() || !table() {
		t.Errorf("with a child: hasChildren %v, the process table %v", hasChildren(), table())
	}
	if len(descendants()) == 0 {
		t.Error("no descendants with a child running")
	}
	cmd.Process.Kill()
	// exited, not yet waited for: a zombie is still a child
	for {
		if p, ok := readStat(cmd.Process.Pid); ok && p.zombie {
			break
		}
		runtime.Gosched()
	}
	if !hasChildren() {
		t.Error("a zombie child: hasChildren false")
	}
	cmd.Wait()
	if got, want := hasChildren(), table(); got != want || got {
		t.Errorf("the child gone: hasChildren %v, the process table %v", got, want)
	}
}
