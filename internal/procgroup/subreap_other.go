//go:build !linux

package procgroup

import "time"

// Subreap does nothing and reports false: only Linux has child
// subreapers. Elsewhere a process that leaves its group (setsid) is not
// found by StopAll.
func Subreap() bool { return false }

func reapGroup(int) {}

func endDescendants(time.Duration) int { return 0 }
