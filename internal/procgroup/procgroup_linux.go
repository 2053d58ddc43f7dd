package procgroup

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Subreap makes this process a child subreaper (prctl
// PR_SET_CHILD_SUBREAPER): a process it started, or one started by those,
// that is orphaned (its parent exits, as a daemon's does when it forks
// and calls setsid) is reparented to this process rather than to init, so
// that StopAll still finds it. It reports whether that took.
func Subreap() bool {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
}

// proc is one line of the process table: a process, its parent, its
// group, and whether it is a zombie (exited, not yet waited for).
type proc struct {
	pid, ppid, pgrp int
	zombie          bool
}

// procs reads the process table from /proc.
func procs() []proc {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]proc, 0, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// hasChildren reports whether this process has a child, a zombie or an
// adopted orphan included: one waitid call that waits for nothing and
// reaps nothing, which fails with ECHILD only when there is none; true
// when it fails otherwise.
func hasChildren() bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WNOHANG|unix.WNOWAIT|unix.WEXITED|unix.WSTOPPED|unix.WCONTINUED, nil)
		if err != unix.EINTR {
			return err != unix.ECHILD
		}
	}
}

// readStat reads /proc/PID/stat: "pid (comm) state ppid pgrp ...", where
// comm may hold spaces and parentheses.
func readStat(pid int) (proc, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return proc{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return proc{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgrp, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return proc{}, false
	}
	return proc{pid: pid, ppid: ppid, pgrp: pgrp, zombie: f[0] == "Z" || f[0] == "X"}, true
}

// live reports whether the group pgid has a process that is not a zombie:
// a child that outlived its group's first process and has since exited
// waits, reparented to a subreaper, for its exit status to be read, and is
// gone in all but name.
func live(pgid int) bool {
	for _, p := range procs() {
		if p.pgrp == pgid && !p.zombie {
			return true
		}
	}
	return false
}

// reapGroup reads the exit status of the zombies of the group pgid that
// are this process's children: orphans it adopted as a subreaper. The
// group's first process was waited for already (by exec.Cmd.Wait), and
// every other process of the group descends from it, so none is a child
// os/exec waits for.
func reapGroup(pgid int) {
	me := os.Getpid()
	for _, p := range procs() {
		if p.pgrp == pgid && p.ppid == me && p.zombie {
			var ws syscall.WaitStatus
			syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

// descendants returns every process descended from this one that is not a
// zombie: its children, theirs, and the orphans it adopted. A process
// without children has none, and is told apart without reading the
// whole process table.
func descendants() []int {
	if !hasChildren() {
		return nil
	}
	all := procs()
	kids := map[int][]proc{}
	for _, p := range all {
		kids[p.ppid] = append(kids[p.ppid], p)
	}
	var out []int
	queue := []int{os.Getpid()}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range kids[pid] {
			queue = append(queue, c.pid)
			if !c.zombie {
				out = append(out, c.pid)
			}
		}
	}
	return out
}

// endDescendants ends every process descended from this one, whatever
// group or session it moved to: SIGTERM (and SIGCONT, so a stopped one
// gets it), then SIGKILL to those left after grace. New descendants (the
// children of a dying process reparented here) get the same. It returns
// how many it signalled.
func endDescendants(grace time.Duration) int {
	termed := map[int]bool{}
	deadline := time.Now().Add(grace)
	for {
		ds := descendants()
		if len(ds) == 0 {
			return len(termed)
		}
		if time.Now().After(deadline) {
			break
		}
		for _, pid := range ds {
			if !termed[pid] {
				termed[pid] = true
				syscall.Kill(pid, syscall.SIGTERM)
				syscall.Kill(pid, syscall.SIGCONT)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		ds := descendants()
		if len(ds) == 0 {
			break
		}
		for _, pid := range ds {
			termed[pid] = true
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return len(termed)
}
