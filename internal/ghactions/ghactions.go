// Package ghactions speaks to a GitHub Actions job: workflow-command
// annotations, which GitHub shows on the lines of a pull request's diff,
// and the job's step summary, where markdown tables go.
//
//	if ghactions.InJob() { ... }   // GITHUB_ACTIONS=true
//	fmt.Fprintln(w, ghactions.Annotation{Level: ghactions.Error, File: "budgets.json", Line: 4, Title: "DOCS.beta", Message: "over by 13 tokens"})
//	err := ghactions.AppendSummary(markdown)   // to $GITHUB_STEP_SUMMARY, when the job has one
//
// Commands print the annotations; this package only formats them.
//
// A runner reads every line a step prints, on stdout and on stderr, for
// workflow commands. An annotation's title, file and message may hold a
// server's or a file's text; String escapes it twice: first as package
// internal/escape shows it on a terminal (a control character, a carriage
// return, a bidi override as \x1b, \r, \u202e; the message keeps its line
// breaks, each line of it guarded against starting a command), then as
// the Actions toolkit encodes a command: "%", CR and LF as %25, %0D and %0A
// in the message, and ":" and "," too (%3A, %2C) in a property. So an
// annotation is one line whatever it holds, and its text cannot end it or
// start another command. The step summary is Markdown: escape its text
// with escape.Markdown (tables with package internal/table do).
package ghactions

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/escape"
)

// InJob reports whether the process runs in a GitHub Actions job.
func InJob() bool { return os.Getenv("GITHUB_ACTIONS") == "true" }

// Level is an annotation's level.
type Level string

// The levels of an annotation.
const (
	// Error marks a finding that fails the job.
	Error Level = "error"
	// Warning marks what the reader should know.
	Warning Level = "warning"
	// Notice marks information.
	Notice Level = "notice"
)

// Annotation is one workflow command: a message at a file and line, when
// known.
type Annotation struct {
	Level Level
	// File is the path, relative to the repository (see Path); empty for
	// a message about no file.
	File string
	// Line is the 1-based line in File; 0 when not known.
	Line    int
	Title   string
	Message string
}

// String returns the workflow command: ::LEVEL file=F,line=N,title=T::MESSAGE,
// its properties and message escaped for a terminal and then as the
// runner reads them (a message of several lines stays one command).
func (a Annotation) String() string {
	var props []string
	if a.File != "" {
		props = append(props, "file="+escapeProperty(escape.Term(a.File)))
		if a.Line > 0 {
			props = append(props, "line="+strconv.Itoa(a.Line))
		}
	}
	if a.Title != "" {
		props = append(props, "title="+escapeProperty(escape.Term(a.Title)))
	}
	p := ""
	if len(props) > 0 {
		p = " " + strings.Join(props, ",")
	}
	return "::" + string(a.Level) + p + "::" + escapeData(escape.Lines(a.Message))
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// Path makes an absolute path inside $GITHUB_WORKSPACE relative to it
// (GitHub places annotations by repository path) and gives every path
// forward slashes.
func Path(p string) string {
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(ws, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
	}
	return filepath.ToSlash(p)
}

// AppendSummary appends markdown to the job's step summary file
// ($GITHUB_STEP_SUMMARY), creating it; without one it does nothing.
func AppendSummary(markdown []byte) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.Write(markdown); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
