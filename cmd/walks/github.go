package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/walk"
)

// githubDefault is --github's default: on in a GitHub Actions job.
func githubDefault() bool { return os.Getenv("GITHUB_ACTIONS") == "true" }

// annotation is one GitHub Actions workflow command: an error or a
// warning, at a file and line when known.
type annotation struct {
	level string // "error" or "warning"
	file  string
	line  int
	title string
	msg   string
}

// String writes the workflow command, its properties and message escaped
// as the runner reads them.
func (a annotation) String() string {
	var props []string
	if a.file != "" {
		props = append(props, "file="+escapeProperty(a.file))
		if a.line > 0 {
			props = append(props, "line="+strconv.Itoa(a.line))
		}
	}
	if a.title != "" {
		props = append(props, "title="+escapeProperty(a.title))
	}
	p := ""
	if len(props) > 0 {
		p = " " + strings.Join(props, ",")
	}
	return "::" + a.level + p + "::" + escapeData(a.msg)
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// workspacePath makes an absolute path inside $GITHUB_WORKSPACE relative
// to it (GitHub places annotations by repository path), and gives every
// path forward slashes.
func workspacePath(p string) string {
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(ws, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
	}
	return filepath.ToSlash(p)
}

// failurePlace reads the spec file and line a walk failure names
// ("walk W: FILE:LINE: step: what").
var failurePlace = regexp.MustCompile(`^walk [^:]+: (.+?):(\d+): `)

// annotations returns the run's findings as annotations: a budget exceeded
// is an error at its line in the budget file, a stale budget (--check-slack)
// a warning there; a walk that failed is an error at its spec's step, an
// unbudgeted walk or budget a warning on its spec.
func annotations(rep *walk.Report, checks gate.Checks, slack float64) []annotation {
	var out []annotation
	for _, wr := range rep.Walks {
		if wr.Error != "" {
			a := annotation{level: "error", file: workspacePath(wr.Spec), title: "walk " + wr.Walk + " failed", msg: wr.Error}
			if m := failurePlace.FindStringSubmatch(wr.Error); m != nil {
				a.file = workspacePath(m[1])
				a.line, _ = strconv.Atoi(m[2])
			}
			out = append(out, a)
		}
		if wr.Differ != "" {
			out = append(out, annotation{level: "error", file: workspacePath(wr.Spec), title: "walk " + wr.Walk + " counted differently",
				msg: "repeated runs counted differently: " + wr.Differ})
		}
		if wr.Unbudgeted {
			out = append(out, annotation{level: "warning", file: workspacePath(wr.Spec), title: "walk " + wr.Walk + " is unbudgeted",
				msg: fmt.Sprintf("walk %s names no budget key: add budget: BLOCK.%s to its spec", wr.Walk, wr.Walk)})
		}
		for _, c := range checks {
			if c.Subject != wr.Walk {
				continue
			}
			at := annotation{title: c.Key}
			if c.Budgeted() && c.Budget.Line > 0 {
				at.file, at.line = workspacePath(c.Budget.File), c.Budget.Line
			}
			switch {
			case c.Status == gate.Over:
				parts := wr.Parts
				if c.Measure.Kind == gate.ToolList {
					parts = nil
				}
				at.level = "error"
				at.msg = fmt.Sprintf("%s over budget by %s %s\n%s", c.Key, units.Group(-c.Slack()), c.Unit(), walk.OverText(c, parts))
			case c.Status == gate.Unbudgeted:
				at.level, at.file = "warning", workspacePath(wr.Spec)
				at.msg = fmt.Sprintf("walk %s: %v; the walk read %s %s", wr.Walk, c.Missing, units.Group(c.Read), c.Unit())
			case slack >= 0 && c.Stale(slack):
				at.level = "warning"
				at.msg = fmt.Sprintf("%s is %s %s, %s above what walk %s read (%s): a stale budget? Move it with --update",
					c.Key, units.Group(c.Budget.Value), c.Unit(), units.Group(c.Slack()), wr.Walk, units.Group(c.Read))
			default:
				continue
			}
			out = append(out, at)
		}
	}
	return out
}

// writeGitHub prints the annotations to w and appends the markdown tables
// to the step summary file, when the job has one.
func writeGitHub(w io.Writer, rep *walk.Report, checks gate.Checks, slack float64, tables func(io.Writer)) error {
	for _, a := range annotations(rep, checks, slack) {
		fmt.Fprintln(w, a)
	}
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	var buf bytes.Buffer
	tables(&buf)
	buf.WriteString("\n")
	return appendFile(path, buf.Bytes())
}

// appendFile appends data to the file at path, creating it.
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
