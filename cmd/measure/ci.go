package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/ghactions"
	"github.com/readmeter/readmeter/internal/junit"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
)

// subject is what one budget key is held for: a capture, or a toolset of
// the first capture, with the tools it reads.
type subject struct {
	name  string // the capture's path, or "toolset S of PATH"
	key   string // TOOL_LIST_TOKENS.KEY
	file  string // the capture
	tools map[string]bool
}

func subjects(reports []*report, paths []string, key string) [][]subject {
	out := make([][]subject, len(reports))
	for i, r := range reports {
		k := key
		if k == "" {
			k = budgetKey(paths[i])
		}
		out[i] = append(out[i], subject{name: paths[i], key: budgetBlock + "." + k, file: paths[i]})
		for _, s := range r.sets {
			tools := map[string]bool{}
			for _, t := range s.Tools {
				tools[t] = true
			}
			out[i] = append(out[i], subject{name: "toolset " + s.Name + " of " + paths[i], key: budgetBlock + "." + s.Name, file: paths[i], tools: tools})
		}
	}
	return out
}

// lintFile is the file a lint is about: the init answer for the
// instructions, else the capture.
func lintFile(r *report, l toollist.Lint) string {
	if l.Rule == "instructions-cut" && r.init != nil {
		return r.init.Path
	}
	return r.capture.Path
}

// measureJUnit returns the run as a JUnit report: a test case per budget
// key (its class the capture or toolset), failed with the tool lines when
// exceeded, skipped when no budget holds it; a case per ceiling asked for,
// failed with each text over it; a case for the client limits, failed
// with --strict, else passed with the lints as its output.
func measureJUnit(reports []*report, subs [][]subject, fs [][]finding, o *options, budgeted bool) *junit.Report {
	jr := &junit.Report{Name: "measure"}
	s := jr.Suite("measure")
	for i, r := range reports {
		for _, sub := range subs[i] {
			held := false
			for _, c := range r.budgets {
				if c.Subject != sub.name {
					continue
				}
				held = true
				tc := junit.Case{Name: c.Key, Class: sub.name}
				for _, f := range fs[i] {
					if f.kind == overBudget && f.check.Key == c.Key && f.check.Subject == c.Subject {
						text := f.junitText()
						tc.Failure = &junit.Problem{Type: "over budget", Message: text, Text: text}
					}
				}
				s.Add(tc)
			}
			if !held {
				why := "no budget given (--budget or --budgets)"
				if budgeted {
					why = "no budget " + escape.Term(sub.key) + " in the budgets given"
				}
				s.Add(junit.Case{Name: sub.key, Class: sub.name, Skipped: &junit.Problem{Message: fmt.Sprintf("%s; it reads %s tokens", why, units.Group(readOf(r, sub)))}})
			}
		}
		ceilings := []struct {
			name, what string
			asked      bool
		}{{"max-description-chars", "description", o.descCeiling}, {"max-instructions-chars", "instructions", o.instrCeiling}}
		for _, ce := range ceilings {
			if !ce.asked {
				continue
			}
			tc := junit.Case{Name: ce.name, Class: r.capture.Path}
			var lines []string
			for _, f := range fs[i] {
				if f.kind == overCeiling && f.over.What == ce.what {
					lines = append(lines, f.junitText())
				}
			}
			if len(lines) > 0 {
				text := strings.Join(lines, "\n")
				tc.Failure = &junit.Problem{Type: "over ceiling", Message: fmt.Sprintf("%d over the ceiling: %s", len(lines), lines[0]), Text: text}
			}
			s.Add(tc)
		}
		tc := junit.Case{Name: "client limits", Class: r.capture.Path}
		if len(r.lints) > 0 {
			var lines []string
			for _, f := range fs[i] {
				if f.kind == clientLimit {
					lines = append(lines, f.junitText())
				}
			}
			text := strings.Join(lines, "\n")
			if o.strict {
				tc.Failure = &junit.Problem{Type: "client limit", Message: text, Text: text}
			} else {
				tc.Out = text
			}
		}
		s.Add(tc)
	}
	return jr
}

func readOf(r *report, sub subject) int64 {
	if sub.tools == nil {
		return r.figures.ModelReadTokens
	}
	for _, s := range r.sets {
		if "toolset "+s.Name+" of "+r.capture.Path == sub.name {
			return s.ModelReadTokens
		}
	}
	return 0
}

// ciOutputs writes --junit, and with --github the annotations (to w) and
// the verdict and tables to the step summary.
func ciOutputs(w, stderr io.Writer, reports []*report, subs [][]subject, fs [][]finding, o *options) error {
	if o.junit != "" {
		data, err := measureJUnit(reports, subs, fs, o, len(o.budget) > 0 || o.budgetsFile != "").Marshal()
		if err == nil {
			err = atomicfile.Write(o.junit, data)
		}
		if err != nil {
			return fmt.Errorf("--junit %s: %v", o.junit, unwrapPath(err))
		}
	}
	if !o.github {
		return nil
	}
	var n int
	for _, rf := range fs {
		for _, f := range rf {
			fmt.Fprintln(w, f.annotation())
			if f.counts {
				n++
			}
		}
	}
	head := "every ceiling and budget held"
	if n > 0 {
		head = fmt.Sprintf("%d %s", n, plural(n, "finding", "findings"))
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "### measure: %s\n\n", head)
	if len(reports) == 1 {
		writeTable(markdown{&buf}, reports[0])
	} else {
		writeSideBySide(markdown{&buf}, reports)
	}
	buf.WriteString("\n")
	if err := ghactions.AppendSummary(buf.Bytes()); err != nil {
		line(stderr, "measure: warning: --github: the step summary: %v", err)
	}
	return nil
}
