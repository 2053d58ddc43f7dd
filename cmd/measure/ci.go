package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/readmeter/readmeter/gate"
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

// overText is a budget breach: what the list reads, the budget and where
// it is declared, then tool by tool what a model reads. Its lines are
// ours: each name in them is escaped (escape.Term), so a line feed in a
// tool name cannot make a line of its own.
func overText(c gate.Check, perTool []toollist.ToolFigures, tools map[string]bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s reads %s tokens (%s bytes) as a model reads it, over its budget of %s (%s, %s)",
		escape.Term(c.Subject), units.Group(c.Read), units.Group(c.Bytes), units.Group(c.Budget.Value), escape.Term(c.Key), escape.Term(c.Budget.Where()))
	for _, t := range perTool {
		if tools == nil || tools[t.Name] {
			fmt.Fprintf(&b, "\n  %s: %d bytes, %d tokens", escape.Term(t.Name), t.ModelReadBytes, t.ModelReadTokens)
		}
	}
	return b.String()
}

// ceilingText is a ceiling passed, one line (the tool's name escaped).
func ceilingText(r *report, ov toollist.Over) string {
	if ov.What == "instructions" {
		return fmt.Sprintf("the instructions are %s characters, over the ceiling of %s (--max-instructions-chars)", units.Group(int64(ov.Chars)), units.Group(int64(ov.Max)))
	}
	return fmt.Sprintf("%s's description is %s characters, over the ceiling of %s (--max-description-chars)", escape.Term(ov.Tool), units.Group(int64(ov.Chars)), units.Group(int64(ov.Max)))
}

// lintFile is the file a lint is about: the init answer for the
// instructions, else the capture.
func lintFile(r *report, l toollist.Lint) string {
	if l.Rule == "instructions-cut" && r.init != nil {
		return r.init.Path
	}
	return r.capture.Path
}

// measureAnnotations returns the findings as annotations: a budget
// exceeded at its line in the budget file (a --budget flag has none), a
// ceiling passed on the capture or its init answer, a lint on the capture
// (an error with --strict, else a warning).
func measureAnnotations(reports []*report, subs [][]subject, strict bool) []ghactions.Annotation {
	var out []ghactions.Annotation
	for i, r := range reports {
		for _, c := range r.budgets.With(gate.Over) {
			a := ghactions.Annotation{Level: ghactions.Error, Title: c.Key}
			if c.Budget.Line > 0 {
				a.File, a.Line = ghactions.Path(c.Budget.File), c.Budget.Line
			}
			var tools map[string]bool
			for _, s := range subs[i] {
				if s.name == c.Subject {
					tools = s.tools
				}
			}
			a.Message = fmt.Sprintf("%s over budget by %s tokens\n%s", escape.Term(c.Key), units.Group(-c.Slack()), overText(c, r.figures.PerTool, tools))
			out = append(out, a)
		}
		for _, ov := range r.over {
			file, title := r.capture.Path, "description ceiling"
			if ov.What == "instructions" {
				file, title = r.init.Path, "instructions ceiling"
			}
			out = append(out, ghactions.Annotation{Level: ghactions.Error, File: ghactions.Path(file), Title: title, Message: ceilingText(r, ov)})
		}
		for _, l := range r.lints {
			level := ghactions.Warning
			if strict {
				level = ghactions.Error
			}
			out = append(out, ghactions.Annotation{Level: level, File: ghactions.Path(lintFile(r, l)), Title: "client limit: " + l.Rule, Message: l.Text})
		}
	}
	return out
}

// measureJUnit returns the run as a JUnit report: a test case per budget
// key (its class the capture or toolset), failed with the tool lines when
// exceeded, skipped when no budget holds it; a case per ceiling asked for,
// failed with each text over it; a case for the client limits, failed
// with --strict, else passed with the lints as its output.
func measureJUnit(reports []*report, subs [][]subject, o *options, budgeted bool) *junit.Report {
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
				if c.Status == gate.Over {
					text := overText(c, r.figures.PerTool, sub.tools)
					tc.Failure = &junit.Problem{Type: "over budget", Message: text, Text: text}
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
			for _, ov := range r.over {
				if ov.What == ce.what {
					lines = append(lines, ceilingText(r, ov))
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
			for _, l := range r.lints {
				lines = append(lines, escape.Term(lintFile(r, l)+": "+l.Text))
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
func ciOutputs(w, stderr io.Writer, reports []*report, paths []string, o *options, exit error) error {
	subs := subjects(reports, paths, o.budgetKey)
	if o.junit != "" {
		data, err := measureJUnit(reports, subs, o, len(o.budget) > 0 || o.budgetsFile != "").Marshal()
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
	for _, a := range measureAnnotations(reports, subs, o.strict) {
		fmt.Fprintln(w, a)
	}
	var n int
	for _, r := range reports {
		n += r.budgets.Count(gate.Over) + len(r.over)
		if o.strict {
			n += len(r.lints)
		}
	}
	head := "every ceiling and budget held"
	if exit != nil {
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
