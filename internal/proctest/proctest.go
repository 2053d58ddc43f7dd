// Package proctest helps tests that run the commands as real processes:
// it builds a command for a test, and checks that processes a
// test started are gone.
package proctest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Build builds the command in pkgDir (a directory of a main package) into
// the test's temporary directory, removed when the test ends, and returns
// the binary's path.
func Build(t testing.TB, pkgDir string) string {
	t.Helper()
	abs, err := filepath.Abs(pkgDir)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(abs))
	out, err := exec.Command("go", "build", "-o", bin, pkgDir).CombinedOutput()
	if err != nil {
		t.Fatalf("go build %s: %v\n%s", pkgDir, err, out)
	}
	return bin
}

// Pids reads the pids a test's processes wrote to file, one a line,
// waiting until want of them are there; why says what went wrong when
// they do not come.
func Pids(t testing.TB, file string, want int, why func() string) []int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(file)
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if p, err := strconv.Atoi(f); err == nil {
				pids = append(pids, p)
			}
		}
		if len(pids) >= want {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d pids written, want %d; %s", file, len(pids), want, why())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

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
