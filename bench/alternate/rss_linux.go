package main

import (
	"os"
	"syscall"
)

// maxRSS returns the peak resident memory of the process p, in KiB.
func maxRSS(p *os.ProcessState) int64 {
	if u, ok := p.SysUsage().(*syscall.Rusage); ok {
		return u.Maxrss // KiB on Linux
	}
	return 0
}
