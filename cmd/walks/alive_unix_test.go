//go:build unix

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processAlive reports whether the process pid still runs (a zombie, gone
// in all but name, does not).
func processAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return !strings.Contains(string(st), ") Z ")
}
