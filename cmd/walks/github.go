package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/ghactions"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/walk"
)

// failurePlace reads the spec file and line a walk failure names
// ("walk W: FILE:LINE: step: what").
var failurePlace = regexp.MustCompile(`^walk [^:]+: (.+?):(\d+): `)

// annotations returns the run's findings as annotations: a budget exceeded
// is an error at its line in the budget file, a stale budget (--check-slack)
// a warning there; a walk that failed is an error at its spec's step, an
// unbudgeted walk or budget a warning on its spec, an answer over a
// client's answer limit a warning at its step.
func annotations(rep *walk.Report, checks gate.Checks, slack float64) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, wr := range rep.Walks {
		spec := ghactions.Path(wr.Spec)
		if wr.Error != "" {
			a := ghactions.Annotation{Level: ghactions.Error, File: spec, Title: "walk " + wr.Walk + " failed", Message: wr.Error}
			if m := failurePlace.FindStringSubmatch(wr.Error); m != nil {
				a.File = ghactions.Path(m[1])
				a.Line, _ = strconv.Atoi(m[2])
			}
			out = append(out, a)
		}
		if wr.Differ != "" {
			out = append(out, ghactions.Annotation{Level: ghactions.Error, File: spec, Title: "walk " + wr.Walk + " counted differently",
				Message: "repeated runs counted differently: " + escape.Term(wr.Differ)})
		}
		if wr.Unbudgeted {
			out = append(out, ghactions.Annotation{Level: ghactions.Warning, File: spec, Title: "walk " + wr.Walk + " is unbudgeted",
				Message: fmt.Sprintf("walk %s names no budget key: add budget: BLOCK.%s to its spec", wr.Walk, wr.Walk)})
		}
		for _, l := range wr.AnswerLimits {
			out = append(out, ghactions.Annotation{Level: ghactions.Warning, File: ghactions.Path(l.File), Line: l.Line,
				Title: fmt.Sprintf("answer over %s's %s", l.Client, l.Limit), Message: answerLimitText(wr.Walk, l)})
		}
		for _, c := range checks {
			if c.Subject != wr.Walk {
				continue
			}
			a := ghactions.Annotation{Title: c.Key}
			if c.Budgeted() && c.Budget.Line > 0 {
				a.File, a.Line = ghactions.Path(c.Budget.File), c.Budget.Line
			}
			switch {
			case c.Status == gate.Over:
				parts := wr.Parts
				if c.Measure.Kind == gate.ToolList {
					parts = nil
				}
				a.Level = ghactions.Error
				a.Message = cli.OverBy(c.Key, -c.Slack(), string(c.Unit())) + "\n" + overText(c, parts)
			case c.Status == gate.Unbudgeted:
				a.Level, a.File = ghactions.Warning, spec
				a.Message = fmt.Sprintf("walk %s: %v; the walk read %s %s", wr.Walk, c.Missing, units.Group(c.Read), c.Unit())
			case slack >= 0 && c.Stale(slack):
				a.Level = ghactions.Warning
				a.Message = fmt.Sprintf("%s is %s %s, %s above what walk %s read (%s): a stale budget? Move it with --update",
					c.Key, units.Group(c.Budget.Value), c.Unit(), units.Group(c.Slack()), wr.Walk, units.Group(c.Read))
			default:
				continue
			}
			out = append(out, a)
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
	var buf bytes.Buffer
	tables(&buf)
	buf.WriteString("\n")
	return ghactions.AppendSummary(buf.Bytes())
}
