// Package cli holds what the toolkit's commands share when they talk to
// people: exit codes and the error that carries one. It is for cmd/ only;
// libraries return plain errors and data.
//
//	func main() { os.Exit(cli.Main("measure", run)) }
//
// One idiom sets the exit code: run returns an error, and Code maps it.
// A plain error (a library's, or cli.Usage's) is a usage or input error,
// exit 2; cli.Finding wraps a finding (exit 1), cli.WalkFailed a failure
// against the server (exit 3); Silent and SilentUsage end with 1 or 2
// when the text was already printed. Numbers are formatted by package
// internal/units.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/ghactions"
	"github.com/readmeter/readmeter/internal/units"
)

// Exit codes are part of every command's interface.
const (
	// ExitOK means everything held.
	ExitOK = 0
	// ExitFinding means a budget or ceiling was exceeded: a finding, not a crash.
	ExitFinding = 1
	// ExitUsage means a usage or input error: bad flags, a bad file.
	ExitUsage = 2
	// ExitWalk means a walk failed against the server.
	ExitWalk = 3
)

// ExitError is an error that carries the exit code the command ends with.
type ExitError struct {
	Code int
	Err  error
}

// Error returns the wrapped error's text.
func (e *ExitError) Error() string {
	if e.Err == nil {
		return "exit " + strconv.Itoa(e.Code)
	}
	return e.Err.Error()
}

// Unwrap returns the wrapped error.
func (e *ExitError) Unwrap() error { return e.Err }

// Usage returns a formatted usage or input error (exit 2), as fmt.Errorf
// would: a command's own message.
func Usage(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Err: fmt.Errorf(format, args...)}
}

// Finding wraps err as a finding (exit 1).
func Finding(err error) error { return &ExitError{Code: ExitFinding, Err: err} }

// WalkFailed wraps err as a failure against the server (exit 3).
func WalkFailed(err error) error { return &ExitError{Code: ExitWalk, Err: err} }

// Silent is a finding whose text was already printed: it sets exit 1 and
// adds no line.
var Silent = &ExitError{Code: ExitFinding}

// SilentUsage is an input error whose text was already printed (every
// mistake of several spec files, one a line): it sets exit 2 and adds no
// line.
var SilentUsage = &ExitError{Code: ExitUsage}

// Code returns the exit code for err: 0 for nil, the code of an ExitError,
// and ExitUsage for any other error.
func Code(err error) int {
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitUsage
}

// Main runs a command's run function with the process's streams and
// arguments, prints its error (prefixed with the command name) to stderr,
// and returns the exit code. A write to stdout or stderr that failed (a
// full disk, a closed terminal) ends with exit 2 and one line saying so,
// on stderr where it still works. A command's main is
//
//	func main() { os.Exit(cli.Main("measure", run)) }
//
// --version anywhere before a "--" prints the command's version instead
// (see Version), for every command alike.
func Main(name string, run func(stdout, stderr io.Writer, args []string) error) int {
	if AsksVersion(os.Args[1:]) {
		return version(name)
	}
	stdout, stderr := &stream{f: os.Stdout, name: "standard output"}, &stream{f: os.Stderr, name: "standard error"}
	return finish(stdout, stderr, name, run(stdout, stderr, os.Args[1:]))
}

// Report prints err to w as one line prefixed with the command name,
// unless err is nil or carries no text. The text is escaped as
// escape.Lines escapes it: an error may quote a server's or a file's text.
func Report(w io.Writer, name string, err error) {
	if err == nil {
		return
	}
	var ee *ExitError
	if errors.As(err, &ee) && ee.Err == nil {
		return
	}
	fmt.Fprintf(w, "%s: %s\n", name, escape.Lines(err.Error()))
}

// AsksVersion reports whether args hold --version before any "--" (after
// which arguments belong to a command the tool runs).
func AsksVersion(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--version" {
			return true
		}
	}
	return false
}

// Version returns the command's version line from the build information:
// "measure v1.2.0 (go1.26.0 linux/amd64)" for a module version (go install
// MODULE/cmd/measure@v1.2.0, a pseudo-version for a commit), or
// "measure (devel) 156ed53a01bc 2026-12-02T17:04:52Z dirty (go1.26.0
// linux/amd64)" for a build from a checkout, with the commit, its time and
// whether the tree had changes; "unknown-revision" stands for the commit
// when the build recorded none (go build -buildvcs=false).
func Version(name string) string {
	v := "(devel)"
	var rev, at string
	dirty := false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	out := name + " " + v
	if v == "(devel)" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev == "" {
			rev = "unknown-revision" // built with -buildvcs=false, or outside a checkout
		}
		for _, x := range []string{rev, at} {
			if x != "" {
				out += " " + x
			}
		}
		if dirty {
			out += " dirty"
		}
	}
	return out + " (" + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + ")"
}

// PrintReadings prints what was read, one "KEY VALUE" line a budget,
// sorted: the numbers of an --update that could not be written, so that
// nothing measured is lost.
func PrintReadings(w io.Writer, readings map[string]int64) {
	keys := make([]string, 0, len(readings))
	for k := range readings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s %d\n", k, readings[k])
	}
}

// OverAnnotation is a budget exceeded (c) as a GitHub annotation, as
// measure and walks write it: an error at the budget's line, titled by its
// key, its message the heading "KEY over budget by N UNIT" (the key
// escaped, escape.Term), then text.
func OverAnnotation(c gate.Check, unit, text string) ghactions.Annotation {
	a := ghactions.Annotation{Level: ghactions.Error, Title: c.Key,
		Message: escape.Term(c.Key) + " over budget by " + units.Group(-c.Slack()) + " " + unit + "\n" + text}
	if c.Budget.Line > 0 {
		a.File, a.Line = ghactions.Path(c.Budget.File), c.Budget.Line
	}
	return a
}
