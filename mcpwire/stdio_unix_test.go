//go:build unix

package mcpwire_test

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readmeter/readmeter/mcpwire"
)

func TestStdioReaped(t *testing.T) {
	// A server that ignores its stdin closing and SIGTERM is still stopped.
	c, err := mcpwire.NewStdio(ctx(t), []string{"sh", "-c", `trap "" TERM; echo $$ >&2; while :; do sleep 1; done`}, mcpwire.StdioOptions{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Request(ctx(t), "tools/list", nil)
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Fatalf("err = %v", err)
	}
	var pid int
	fmt.Sscan(string(c.Stderr()), &pid)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if pid == 0 {
		t.Fatal("no pid")
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process %d still there after Close: %v", pid, err)
	}
}

// TestStdioStderrTail: a server that dies shows the end of its stderr,
// escaped, from the start of a line and at most a few hundred bytes: the
// error above a runtime's last line, not that line alone.
func TestStdioStderrTail(t *testing.T) {
	script := `i=0; while [ $i -lt 50 ]; do echo "noise line $i"; i=$((i+1)); done >&2
printf 'Error [ERR_MODULE_NOT_FOUND]: Cannot find package \033[1m/x\033[0m\n\nNode.js v20.20.2\n' >&2; exit 1`
	c, err := mcpwire.NewStdio(ctx(t), []string{"sh", "-c", script}, mcpwire.StdioOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Request(ctx(t), "tools/list", nil)
	if err == nil {
		t.Fatal("no error from a server that exited")
	}
	msg := err.Error()
	_, tail, ok := strings.Cut(msg, "; stderr: ")
	if !ok {
		t.Fatalf("err = %v: no stderr", err)
	}
	want := `Error [ERR_MODULE_NOT_FOUND]: Cannot find package \x1b[1m/x\x1b[0m\n\nNode.js v20.20.2"`
	if !strings.HasPrefix(tail, `..."noise line `) || !strings.HasSuffix(tail, want) || len(tail) > 500 {
		t.Errorf("stderr shown as %s\nwant ...\"noise line N ... ending %s, at most 500 bytes", tail, want)
	}
}

// TestStdioStartTimeout: the first answer waits StartTimeout (a server
// that takes its time to start), the later ones Timeout, and TimedOut
// tells which ran out.
func TestStdioStartTimeout(t *testing.T) {
	// Answers its first request after 400ms, then never again.
	script := `read -r line; sleep 0.4; id=$(echo "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{}}"; exec sleep 30`
	c, err := mcpwire.NewStdio(ctx(t), []string{"sh", "-c", script}, mcpwire.StdioOptions{Timeout: 100 * time.Millisecond, StartTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Request(ctx(t), "ping", nil); err != nil {
		t.Fatalf("first request, within the start timeout: %v", err)
	}
	_, err = c.Request(ctx(t), "ping", nil)
	if timedOut, start := mcpwire.TimedOut(err); !timedOut || start || !strings.Contains(err.Error(), "no answer within 100ms") {
		t.Errorf("second request: %v (timed out %v, start %v), want the answer timeout", err, timedOut, start)
	}

	c2, err := mcpwire.NewStdio(ctx(t), []string{"sleep", "30"}, mcpwire.StdioOptions{Timeout: 5 * time.Second, StartTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	_, err = c2.Request(ctx(t), "ping", nil)
	if timedOut, start := mcpwire.TimedOut(err); !timedOut || !start || !strings.Contains(err.Error(), "no answer within 100ms of the server's start") {
		t.Errorf("first request of a silent server: %v (timed out %v, start %v), want the start timeout", err, timedOut, start)
	}
}
