//go:build unix

package proctest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// Gone fails the test for each pid still running (and kills it).
func Gone(t testing.TB, pids []int) {
	t.Helper()
	for _, pid := range pids {
		err := syscall.Kill(pid, 0)
		if err == nil {
			// A zombie of ours is gone in all but name: look at its state.
			if st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); strings.Contains(string(st), ") Z ") {
				continue
			}
			t.Errorf("process %d is still running", pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
