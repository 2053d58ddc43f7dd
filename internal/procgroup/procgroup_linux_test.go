//go:build linux

package procgroup_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readmeter/readmeter/internal/procgroup"
)

// TestReapAdoptedOrphans: a command that leaves a child behind in its
// group, which then exits, leaves a zombie the subreaper adopted; Alive
// does not count it, and Reap reads its exit status so none stays.
func TestReapAdoptedOrphans(t *testing.T) {
	if !procgroup.Subreap() {
		t.Fatal("prctl PR_SET_CHILD_SUBREAPER failed")
	}
	pidFile := t.TempDir() + "/pid"
	cmd := exec.CommandContext(context.Background(), "sh", "-c", `sh -c 'echo $$ > `+pidFile+`; exec sleep 0.2' & while [ ! -s `+pidFile+` ]; do sleep 0.01; done`)
	procgroup.Prepare(cmd, time.Second)
	if err := procgroup.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(pidFile)
	orphan, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file: %q", b)
	}
	for state(orphan) != "Z" { // adopted, then exited
		if state(orphan) == "" {
			t.Fatalf("process %d is not a zombie of ours: it was not adopted", orphan)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if procgroup.Alive(cmd.Process.Pid) {
		t.Error("a group of one zombie is alive")
	}
	procgroup.Reap(cmd.Process.Pid)
	if s := state(orphan); s != "" {
		t.Errorf("process %d is still there after Reap, state %s", orphan, s)
	}
}

// state returns the state letter of process pid, "" when there is none.
func state(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return f[0]
}
