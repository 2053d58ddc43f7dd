// Package proctest helps tests that run the commands as real processes:
// it builds a command for a test, and checks that processes a
// test started are gone.
//
//	bin := proctest.Build(t, "../../cmd/walks")
//	for _, s := range proctest.Signals {
//		cmd := exec.Command(bin, "run", specs)
//		stderr, pids := proctest.Start(t, cmd, dir, pidFile, 2) // once its processes wrote their pids
//		proctest.Stop(t, cmd, stderr, "walks", s)
//		proctest.Gone(t, pids) // what it started has exited too
//	}
package proctest

import (
	"bytes"
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

// Start starts cmd in dir, its standard error kept in the buffer it
// returns, and waits until want pids are in the file pids (see Pids).
func Start(t testing.TB, cmd *exec.Cmd, dir, pids string, want int) (*bytes.Buffer, []int) {
	t.Helper()
	cmd.Dir = dir
	stderr := new(bytes.Buffer)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stderr, Pids(t, pids, want, func() string { return stderr.String() })
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

// Signal is a stopping signal and the exit code a command stopped by it
// ends with.
type Signal struct {
	Sig  syscall.Signal
	Code int
	Name string
}

// Signals are the two stopping signals, with their exit codes.
var Signals = []Signal{
	{syscall.SIGINT, 130, "SIGINT"},
	{syscall.SIGTERM, 143, "SIGTERM"},
}

// Stop sends s to the started command cmd of the program prog, waits at
// most 15 seconds for it to end, and checks that it ended with s's exit
// code and with "prog: stopped by NAME" as the last line of stderr.
func Stop(t testing.TB, cmd *exec.Cmd, stderr *bytes.Buffer, prog string, s Signal) {
	t.Helper()
	cmd.Process.Signal(s.Sig)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%s still running 15s after %s; stderr: %s", prog, s.Name, stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != s.Code {
		t.Errorf("exit %d, want %d; stderr: %s", code, s.Code, stderr.String())
	}
	if !strings.HasSuffix(stderr.String(), prog+": stopped by "+s.Name+"\n") {
		t.Errorf("stderr: %q", stderr.String())
	}
}
