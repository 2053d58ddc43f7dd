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
