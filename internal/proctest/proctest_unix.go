//go:build unix

package proctest

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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

// StartHTTP runs bin with args as an HTTP server on a free loopback port
// (given in the environment as PORT, as the npm MCP servers read it), in
// a process group of its own killed when the test ends, and returns the
// port once the server accepts connections. A server that exits first,
// or does not listen within 90 seconds (Node on a loaded CI machine),
// fails the test with what it printed.
func StartHTTP(t testing.TB, bin string, args ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PORT="+port)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	name := strings.Join(append([]string{bin}, args...), " ")
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			t.Fatalf("%s exited: %s", name, logs.String())
		default:
		}
		if c, err := net.Dial("tcp", "127.0.0.1:"+port); err == nil {
			c.Close()
			return port
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s: %s", name, port, logs.String())
	return ""
}
