//go:build unix

package mcpwire_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used so far, user and
// system, on every thread (0 when it cannot be read).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
