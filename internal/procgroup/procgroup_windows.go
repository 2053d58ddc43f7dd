package procgroup

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"time"

	"golang.org/x/sys/windows"
)

// setGroup does nothing on Windows: a "group" is the process and the
// children that taskkill /T finds from it.
func setGroup(*exec.Cmd) {}

// Alive reports whether the process pgid (the group's first process) is
// still there. Windows has no process groups: children that outlived it
// are not seen.
func Alive(pgid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pgid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	const stillActive = 259 // STILL_ACTIVE: no exit code yet
	var code uint32
	return windows.GetExitCodeProcess(h, &code) != nil || code == stillActive
}

// Stop ends the process pgid and its children at once (taskkill /T /F,
// then Process.Kill should taskkill fail): Windows has no SIGTERM to send
// first, so grace is not used. It returns when the process is gone (or
// after a second).
func Stop(pgid int, grace time.Duration) {
	if pgid <= 0 {
		return
	}
	exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pgid)).Run()
	if p, err := os.FindProcess(pgid); err == nil {
		p.Kill()
		p.Release()
	}
	waitGone(pgid, time.Second)
}
