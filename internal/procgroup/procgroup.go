// Package procgroup starts commands in process groups of their own and
// stops them whole: the command and every child it left, politely first.
//
//	cmd := exec.CommandContext(ctx, "sh", "-c", script)
//	procgroup.Prepare(cmd, 2*time.Second) // ctx done: SIGTERM the group, SIGKILL after 2s
//	if err := procgroup.Start(cmd); err != nil { ... } // started and tracked
//	err := procgroup.Wait(cmd)                         // waited for, what is left stopped
//
// Every group started through Start is tracked until it is empty,
// so a command stopping on a signal can stop them all with StopAll.
//
// A process may leave its group (setsid, as a daemon does) and outlive
// it. On Linux a command that calls Subreap first becomes the reaper of
// every orphan it leaves, and StopAll then ends every descendant of the
// command, in whatever group, found in /proc: SIGTERM, SIGKILL after the
// grace. On macOS and the other systems only the process groups are
// stopped: a process that left its group is not found.
//
//	procgroup.Subreap()                    // first thing in main (Linux)
//	defer procgroup.StopAll(procgroup.Grace) // on exit: every group, every descendant
//
// On Windows, which has neither process groups nor SIGTERM, a group is the
// command and the children taskkill /T finds from it, and Stop ends them
// at once (taskkill /T /F) without a grace period.
package procgroup

import (
	"os/exec"
	"sync"
	"time"
)

// Grace is the time a group has between SIGTERM and SIGKILL when no other
// is given.
const Grace = 2 * time.Second

var (
	mu     sync.Mutex
	groups = map[int]bool{}
)

// Prepare makes cmd start in a process group of its own, and makes a done
// context (of exec.CommandContext) stop the whole group: SIGTERM, then
// SIGKILL after grace. Pipes still held by a child are closed grace after
// the command itself exits.
func Prepare(cmd *exec.Cmd, grace time.Duration) {
	if grace <= 0 {
		grace = Grace
	}
	setGroup(cmd)
	cmd.Cancel = func() error {
		go Stop(cmd.Process.Pid, grace)
		return nil
	}
	cmd.WaitDelay = grace + 500*time.Millisecond
}

// Start starts cmd (made ready by Prepare) and tracks its group.
func Start(cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	mu.Lock()
	groups[cmd.Process.Pid] = true
	mu.Unlock()
	return nil
}

// Wait waits for cmd, then stops what is left of its group (children
// that outlived it) and stops tracking it.
func Wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	Reap(cmd.Process.Pid)
	return err
}

// Reap stops what is left of the group pgid once its leader was waited
// for (children that outlived it), and stops tracking it. On Linux it also
// reads the exit status of the group's processes that Subreap made this
// process's children, so none stays a zombie.
func Reap(pgid int) {
	if Alive(pgid) {
		Stop(pgid, 200*time.Millisecond)
	}
	reapGroup(pgid)
	mu.Lock()
	delete(groups, pgid)
	mu.Unlock()
}

// Track records a group started elsewhere, for StopAll; Reap forgets it.
func Track(pgid int) {
	mu.Lock()
	groups[pgid] = true
	mu.Unlock()
}

func waitGone(pgid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if !Alive(pgid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// StopAll stops every tracked group at once (SIGTERM, SIGKILL after
// grace) and returns how many there were. On Linux it also ends, the same
// way and at the same time, every process descended from this one,
// whatever group or session it moved to (setsid), and those orphaned
// since Subreap; elsewhere a process that left its group is not found.
func StopAll(grace time.Duration) int {
	mu.Lock()
	var list []int
	for g := range groups {
		list = append(list, g)
	}
	mu.Unlock()
	if len(list) == 0 {
		endDescendants(grace) // nothing to wait on beside it
		return 0
	}
	var wg sync.WaitGroup
	for _, g := range list {
		wg.Go(func() { Stop(g, grace) })
	}
	wg.Go(func() { endDescendants(grace) })
	wg.Wait()
	return len(list)
}
