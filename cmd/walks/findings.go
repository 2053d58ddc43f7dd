package main

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/ghactions"
	"github.com/readmeter/readmeter/internal/junit"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

// findingKind is what a finding of a run is about.
type findingKind int

const (
	walkFailed      findingKind = iota // a walk failed against the server, or at its spec
	runsDiffer                         // repeated runs of a walk counted differently
	walkUnbudgeted                     // a walk names no budget key
	overBudget                         // a budget exceeded
	budgetMissing                      // the budget file lacks a budget a walk names
	budgetUnchecked                    // no budget file to hold a budget to
	staleBudget                        // a budget more than --check-slack above what was read
	budgetHeld                         // a budget held: no finding, a passing JUnit case
	answerLimit                        // an answer over a client's answer limit
	errorAnswer                        // a counted tools/call answer that is an error no step asserts on
	orderDependent                     // walks whose counts depend on what ran before them
)

// finding is one thing a run found, made once from the report and the
// checks as they hold (after --update): its kind, the walk (and its
// place in the report), the check, and its numbers. Each output renders
// it: the warnings under the table and in the JSON report (note), the
// texts of the budgets exceeded (overText), JUnit (junitCase) and the
// annotations (annotation).
type finding struct {
	kind  findingKind
	walk  string // the walk's name
	spec  string // the walk's spec file
	index int    // the walk's place in the report

	text  string                 // walkFailed: the failure; runsDiffer: how the runs differ
	check gate.Check             // overBudget ... budgetHeld
	parts []ledger.Part          // overBudget: the parts to list under the text
	slack float64                // staleBudget: --check-slack's percentage
	limit walk.AnswerLimitReport // answerLimit
	errAn walk.ErrorAnswerReport // errorAnswer
	walks []string               // orderDependent: the walks
}

// makeFindings returns the findings of a run, walk by walk in the
// report's order: a failure, runs that differ, no budget key, each check
// of the walk in order, each answer over a limit; then the walks whose
// counts depend on the order. slack is --check-slack (below 0: off).
func makeFindings(rep *walk.Report, checks gate.Checks, slack float64) []finding {
	var out []finding
	var dependent []string
	for i, wr := range rep.Walks {
		at := finding{walk: wr.Walk, spec: wr.Spec, index: i}
		add := func(kind findingKind, f finding) {
			f.kind = kind
			out = append(out, f)
		}
		if wr.OrderDependent {
			dependent = append(dependent, wr.Walk)
		}
		if wr.Error != "" {
			f := at
			f.text = wr.Error
			add(walkFailed, f)
		}
		if wr.Differ != "" {
			f := at
			f.text = wr.Differ
			add(runsDiffer, f)
		}
		if wr.Unbudgeted {
			add(walkUnbudgeted, at)
		}
		for _, c := range checks {
			if c.Subject != wr.Walk {
				continue
			}
			f := at
			f.check = c
			switch {
			case c.Status == gate.Over:
				if c.Measure.Kind != gate.ToolList {
					f.parts = wr.Parts
				}
				add(overBudget, f)
			case c.Status == gate.Unbudgeted:
				add(budgetMissing, f)
			case c.Status == gate.Unchecked:
				add(budgetUnchecked, f)
			case slack >= 0 && c.Stale(slack):
				f.slack = slack
				add(staleBudget, f)
			default:
				add(budgetHeld, f)
			}
		}
		for _, l := range wr.AnswerLimits {
			f := at
			f.limit = l
			add(answerLimit, f)
		}
		for _, e := range wr.ErrorAnswers {
			f := at
			f.errAn = e
			add(errorAnswer, f)
		}
	}
	if len(dependent) > 0 {
		out = append(out, finding{kind: orderDependent, index: len(rep.Walks), walks: dependent})
	}
	return out
}

// count is how many of found are of kind.
func count(found []finding, kind findingKind) int {
	n := 0
	for _, f := range found {
		if f.kind == kind {
			n++
		}
	}
	return n
}

// note is the finding as a warning under the table (and in the JSON
// report), and whether it is one.
func (f *finding) note() (string, bool) {
	c := f.check
	switch f.kind {
	case runsDiffer:
		return fmt.Sprintf("walk %s: repeated runs counted differently: %s", f.walk, f.text), true
	case walkUnbudgeted:
		return fmt.Sprintf("walk %s: no budget key in %s (add budget: BLOCK.%s): unbudgeted", f.walk, f.spec, f.walk), true
	case budgetMissing:
		return fmt.Sprintf("walk %s: unbudgeted: %v", f.walk, c.Missing), true
	case staleBudget:
		return fmt.Sprintf("walk %s: %s is %s %s, %s above what the walk read (%s): more than %g%%; a stale budget? (%s)",
			f.walk, c.Key, units.Group(c.Budget.Value), c.Unit(), units.Group(c.Slack()), units.Group(c.Read), f.slack, c.Budget.Where()), true
	case answerLimit:
		return answerLimitText(f.walk, f.limit), true
	case errorAnswer:
		return errorAnswerText(f.walk, f.errAn), true
	case orderDependent:
		return orderNote(f.walks), true
	}
	return "", false
}

// notes are the warnings of the findings, in order.
func notes(found []finding) []string {
	out := []string{}
	for _, f := range found {
		if n, ok := f.note(); ok {
			out = append(out, n)
		}
	}
	return out
}

// overText is the text of a budget exceeded (walk.OverText), each name
// in it passed through esc first: escape.Term for printing, so that a
// line feed in a part's name cannot make a line of its own; as is for
// the JSON report.
func (f *finding) overText(esc func(string) string) string {
	c := f.check
	c.Subject, c.Key = esc(c.Subject), esc(c.Key)
	c.Budget.Name, c.Budget.File = esc(c.Budget.Name), esc(c.Budget.File)
	named := make([]ledger.Part, len(f.parts))
	for i, p := range f.parts {
		p.Name = esc(p.Name)
		named[i] = p
	}
	return walk.OverText(c, named)
}

// overTexts are the texts of the budgets exceeded, in order.
func overTexts(found []finding, esc func(string) string) []string {
	out := []string{}
	for _, f := range found {
		if f.kind == overBudget {
			out = append(out, f.overText(esc))
		}
	}
	return out
}

func raw(s string) string { return s }

// junitCase is the finding as a JUnit test case, and whether it is one:
// a budget is a case named by its key, its class the walk (failed when
// exceeded, skipped when the file lacks it or there is no file); a
// failure, runs that differ and no budget key a case named "walk NAME";
// an answer over a limit a case of its own, a failure with strict.
func (f *finding) junitCase(strict bool) (junit.Case, bool) {
	c := f.check
	tc := junit.Case{Name: c.Key, Class: f.walk}
	switch f.kind {
	case walkFailed:
		tc.Name, tc.Error = "walk "+f.walk, &junit.Problem{Type: "walk failed", Message: f.text, Text: f.text}
	case runsDiffer:
		msg := "repeated runs counted differently: " + f.text
		tc.Name, tc.Failure = "walk "+f.walk, &junit.Problem{Type: "runs differ", Message: msg, Text: msg}
	case walkUnbudgeted:
		tc.Name, tc.Skipped = "walk "+f.walk, &junit.Problem{Message: fmt.Sprintf("walk %s names no budget key (%s)", f.walk, f.spec)}
	case overBudget:
		text := f.overText(escape.Term)
		tc.Failure = &junit.Problem{Type: "over budget", Message: text, Text: text}
	case budgetMissing:
		tc.Skipped = &junit.Problem{Message: fmt.Sprintf("%v; the walk read %s %s", c.Missing, units.Group(c.Read), c.Unit())}
	case budgetUnchecked:
		tc.Skipped = &junit.Problem{Message: fmt.Sprintf("no budget file to hold it to (give --budgets); the walk read %s %s", units.Group(c.Read), c.Unit())}
	case staleBudget:
		tc.Out = fmt.Sprintf("warning: %s is %s %s, %s above what the walk read (%s): a stale budget? (%s)",
			c.Key, units.Group(c.Budget.Value), c.Unit(), units.Group(c.Slack()), units.Group(c.Read), c.Budget.Where())
	case budgetHeld:
	case answerLimit:
		l := f.limit
		text := answerLimitText(f.walk, l)
		tc.Name = fmt.Sprintf("answer limit: %s: %s %s", l.Part, l.Client, l.Limit)
		if strict {
			tc.Failure = &junit.Problem{Type: "answer limit", Message: text, Text: text}
		} else {
			tc.Out = "warning: " + text
		}
	default:
		return junit.Case{}, false
	}
	return tc, true
}

// junitReport returns a run's findings as a JUnit report, one suite
// "walks" of their cases in order.
func junitReport(found []finding, strict bool) *junit.Report {
	r := &junit.Report{Name: "walks"}
	s := r.Suite("walks")
	for _, f := range found {
		if tc, ok := f.junitCase(strict); ok {
			s.Add(tc)
		}
	}
	return r
}

// failurePlace reads the spec file and line a walk failure names
// ("walk W: FILE:LINE: step: what").
var failurePlace = regexp.MustCompile(`^walk [^:]+: (.+?):(\d+): `)

// annotation is the finding as a GitHub annotation, and whether it is
// one: a budget exceeded is an error at its line in the budget file, a
// stale budget a warning there; a walk that failed is an error at its
// spec's step, runs that differ an error on its spec, an unbudgeted walk
// or budget a warning on its spec, an answer over a client's answer
// limit a warning at its step.
func (f *finding) annotation() (ghactions.Annotation, bool) {
	spec := ghactions.Path(f.spec)
	c := f.check
	a := ghactions.Annotation{Title: c.Key}
	if c.Budgeted() && c.Budget.Line > 0 {
		a.File, a.Line = ghactions.Path(c.Budget.File), c.Budget.Line
	}
	switch f.kind {
	case walkFailed:
		a = ghactions.Annotation{Level: ghactions.Error, File: spec, Title: "walk " + f.walk + " failed", Message: f.text}
		if m := failurePlace.FindStringSubmatch(f.text); m != nil {
			a.File = ghactions.Path(m[1])
			a.Line, _ = strconv.Atoi(m[2])
		}
	case runsDiffer:
		a = ghactions.Annotation{Level: ghactions.Error, File: spec, Title: "walk " + f.walk + " counted differently",
			Message: "repeated runs counted differently: " + escape.Term(f.text)}
	case walkUnbudgeted:
		a = ghactions.Annotation{Level: ghactions.Warning, File: spec, Title: "walk " + f.walk + " is unbudgeted",
			Message: fmt.Sprintf("walk %s names no budget key: add budget: BLOCK.%s to its spec", f.walk, f.walk)}
	case answerLimit:
		l := f.limit
		a = ghactions.Annotation{Level: ghactions.Warning, File: ghactions.Path(l.File), Line: l.Line,
			Title: fmt.Sprintf("answer over %s's %s", l.Client, l.Limit), Message: answerLimitText(f.walk, l)}
	case errorAnswer:
		e := f.errAn
		a = ghactions.Annotation{Level: ghactions.Warning, File: ghactions.Path(e.File), Line: e.Line,
			Title: "an error answer counted: " + e.Part, Message: errorAnswerText(f.walk, e)}
	case overBudget:
		a = cli.OverAnnotation(c, units.Label(string(c.Unit())), f.overText(escape.Term))
	case budgetMissing:
		a.Level, a.File = ghactions.Warning, spec
		a.Message = fmt.Sprintf("walk %s: %v; the walk read %s %s", f.walk, c.Missing, units.Group(c.Read), units.Label(string(c.Unit())))
	case staleBudget:
		a.Level = ghactions.Warning
		a.Message = fmt.Sprintf("%s is %s %s, %s above what walk %s read (%s): a stale budget? Move it with --update",
			c.Key, units.Group(c.Budget.Value), c.Unit(), units.Group(c.Slack()), f.walk, units.Group(c.Read))
	default:
		return a, false
	}
	return a, true
}

// annotations returns the findings as annotations, walk by walk: its
// failure, runs that differ, no budget key and answers over a limit
// first, then its budgets.
func annotations(found []finding) []ghactions.Annotation {
	rank := func(k findingKind) int {
		switch k {
		case walkFailed, runsDiffer, walkUnbudgeted, answerLimit, errorAnswer:
			return 0
		}
		return 1
	}
	found = slices.Clone(found)
	slices.SortStableFunc(found, func(a, b finding) int {
		return cmp.Or(cmp.Compare(a.index, b.index), cmp.Compare(rank(a.kind), rank(b.kind)))
	})
	var out []ghactions.Annotation
	for _, f := range found {
		if a, ok := f.annotation(); ok {
			out = append(out, a)
		}
	}
	return out
}

// orderNote names, once, the walks whose counts depend on what ran on the
// server before them.
func orderNote(names []string) string {
	n := len(names)
	return fmt.Sprintf("%s %s %s lists other walks write (isolation: shared): on a server they share, %s counts depend on what ran there before; %s ran first, one at a time, in the run's order",
		plural(n, "walk", "walks"), strings.Join(names, ", "), plural(n, "reads", "read"), plural(n, "its", "their"), plural(n, "it", "they"))
}
