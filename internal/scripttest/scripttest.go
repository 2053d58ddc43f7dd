// Package scripttest holds the testscript commands that the commands'
// golden tests share.
//
// testscript's exec tells only success from failure; exit codes are part of
// every command's interface, so the goldens check them with
//
//	exits N PROGRAM ARGS...
//
// which runs a program the test registered with testscript.Main, writes its
// output to the script's stdout and stderr for the usual checks, and fails
// unless it exited with N.
package scripttest

import (
	"bytes"
	"errors"
	"os/exec"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// Exits is the exits command: exits N PROGRAM ARGS...
func Exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROGRAM ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	cmd := exec.Command(path, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	ts.Stdout().Write(stdout.Bytes())
	ts.Stderr().Write(stderr.Bytes())
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
