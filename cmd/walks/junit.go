package main

import (
	"fmt"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/junit"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/walk"
)

// junitReport returns a run as a JUnit report: one test case per budget,
// named by its key, its class the walk; a budget exceeded fails with the
// part lines, one the file lacks (or with no budget file) is skipped. A
// walk that failed is an error, an unbudgeted walk a skipped case, runs
// that counted differently a failure, each named "walk NAME". An answer
// over a client's answer limit is a case named "answer limit: PART:
// CLIENT LIMIT", a warning in its output, a failure with strict.
func junitReport(rep *walk.Report, checks gate.Checks, slack float64, strict bool) *junit.Report {
	r := &junit.Report{Name: "walks"}
	s := r.Suite("walks")
	for _, wr := range rep.Walks {
		self := "walk " + wr.Walk
		if wr.Error != "" {
			s.Add(junit.Case{Name: self, Class: wr.Walk, Error: &junit.Problem{Type: "walk failed", Message: wr.Error, Text: wr.Error}})
		}
		if wr.Differ != "" {
			msg := "repeated runs counted differently: " + wr.Differ
			s.Add(junit.Case{Name: self, Class: wr.Walk, Failure: &junit.Problem{Type: "runs differ", Message: msg, Text: msg}})
		}
		if wr.Unbudgeted {
			s.Add(junit.Case{Name: self, Class: wr.Walk, Skipped: &junit.Problem{Message: fmt.Sprintf("walk %s names no budget key (%s)", wr.Walk, wr.Spec)}})
		}
		for _, c := range checks {
			if c.Subject != wr.Walk {
				continue
			}
			tc := junit.Case{Name: c.Key, Class: wr.Walk}
			switch c.Status {
			case gate.Over:
				parts := wr.Parts
				if c.Measure.Kind == gate.ToolList {
					parts = nil
				}
				text := overText(c, parts)
				tc.Failure = &junit.Problem{Type: "over budget", Message: text, Text: text}
			case gate.Unbudgeted:
				tc.Skipped = &junit.Problem{Message: fmt.Sprintf("%v; the walk read %s %s", c.Missing, units.Group(c.Read), c.Unit())}
			case gate.Unchecked:
				tc.Skipped = &junit.Problem{Message: fmt.Sprintf("no budget file to hold it to (give --budgets); the walk read %s %s", units.Group(c.Read), c.Unit())}
			default:
				if slack >= 0 && c.Stale(slack) {
					tc.Out = fmt.Sprintf("warning: %s is %s %s, %s above what the walk read (%s): a stale budget? (%s)",
						c.Key, units.Group(c.Budget.Value), c.Unit(), units.Group(c.Slack()), units.Group(c.Read), c.Budget.Where())
				}
			}
			s.Add(tc)
		}
		for _, l := range wr.AnswerLimits {
			text := answerLimitText(wr.Walk, l)
			tc := junit.Case{Name: fmt.Sprintf("answer limit: %s: %s %s", l.Part, l.Client, l.Limit), Class: wr.Walk}
			if strict {
				tc.Failure = &junit.Problem{Type: "answer limit", Message: text, Text: text}
			} else {
				tc.Out = "warning: " + text
			}
			s.Add(tc)
		}
	}
	return r
}
