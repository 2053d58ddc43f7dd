//go:build unix

package procgroup

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// setGroup makes cmd start in a process group of its own.
func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Alive reports whether any process of the group pgid is still there (on
// Linux, one that is not a zombie).
func Alive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return (err == nil || errors.Is(err, syscall.EPERM)) && live(pgid)
}

// Stop sends SIGTERM to the group pgid, waits until it is empty or grace
// has passed, then sends SIGKILL. It returns when the group is gone (or a
// second after the SIGKILL).
func Stop(pgid int, grace time.Duration) {
	if pgid <= 0 {
		return
	}
	syscall.Kill(-pgid, syscall.SIGTERM)
	syscall.Kill(-pgid, syscall.SIGCONT) // a stopped process gets the TERM too
	if waitGone(pgid, grace) {
		return
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	waitGone(pgid, time.Second)
}
