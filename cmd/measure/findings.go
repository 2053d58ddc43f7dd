package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/ghactions"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
)

// findingKind is what a finding holds a capture to.
type findingKind int

const (
	overBudget    findingKind = iota // a budget exceeded
	overCeiling                      // a description or instructions ceiling passed
	clientLimit                      // a client's limit passed (a lint)
	staleBudget                      // a budget that nothing read
	missingBudget                    // what was read has no budget in the --budgets file
	caution                          // any other warning: a finding with --strict
)

// finding is one breach of a run, made once from what was measured: its
// kind, the key it is held to, the file (and line) it is about, its
// numbers and its words. Each output renders it: stderr (line), the
// annotations (annotation), JUnit (junitText). A client limit and a stale
// budget count (exit 1) only with --strict; else they are warnings, and
// stderr leaves them to the warnings under the table.
type finding struct {
	kind   findingKind
	key    string // the budget key, the ceiling's flag, the lint's rule
	file   string // the file it is about: the capture, the init answer, the budget file
	line   int    // the line in file, 0 for none
	counts bool   // whether it calls for exit 1

	check   gate.Check             // overBudget: what was read and the budget
	tools   []toollist.ToolFigures // overBudget: the tools the subject reads
	over    toollist.Over          // overCeiling
	lint    toollist.Lint          // clientLimit
	stale   budgets.Budget         // staleBudget
	missing []string               // missingBudget: the budget names the file lacks
	warning string                 // caution: the warning, its place first
}

// reportFindings makes the findings of each report, in order: budgets
// exceeded, ceilings passed, client limits, stale budgets.
func reportFindings(reports []*report, subs [][]subject, strict bool) [][]finding {
	out := make([][]finding, len(reports))
	for i, r := range reports {
		for _, c := range r.budgets.With(gate.Over) {
			f := finding{kind: overBudget, key: c.Key, file: c.Budget.File, line: c.Budget.Line, counts: true, check: c}
			var tools map[string]bool
			for _, s := range subs[i] {
				if s.name == c.Subject {
					tools = s.tools
				}
			}
			for _, t := range r.figures.PerTool {
				if tools == nil || tools[t.Name] {
					f.tools = append(f.tools, t)
				}
			}
			out[i] = append(out[i], f)
		}
		for _, ov := range r.over {
			f := finding{kind: overCeiling, key: "max-description-chars", file: r.capture.Path, counts: true, over: ov}
			if ov.What == "instructions" {
				f.key, f.file = "max-instructions-chars", r.init.Path
			}
			out[i] = append(out[i], f)
		}
		for _, l := range r.lints {
			out[i] = append(out[i], finding{kind: clientLimit, key: l.Rule, file: lintFile(r, l), counts: strict, lint: l})
		}
		for _, b := range r.stale {
			out[i] = append(out[i], finding{kind: staleBudget, key: b.Name, file: b.File, line: b.Line, counts: strict, stale: b})
		}
		if len(r.missing) > 0 {
			out[i] = append(out[i], finding{kind: missingBudget, key: r.missing[0], file: r.missingFile, counts: strict, missing: r.missing})
		}
		for _, w := range r.cautions {
			out[i] = append(out[i], finding{kind: caution, key: "warning", file: r.capture.Path, counts: strict, warning: w})
		}
	}
	return out
}

// text is the finding in one line, each name in it passed through esc.
func (f *finding) text(esc func(string) string) string {
	switch f.kind {
	case overBudget:
		c := f.check
		return fmt.Sprintf("%s reads %s %s (%s bytes) as a model reads it, over its budget of %s (%s, %s)",
			esc(c.Subject), units.Group(c.Read), unitName(c.Key), units.Group(c.Bytes), units.Group(c.Budget.Value), esc(c.Key), esc(c.Budget.Where()))
	case overCeiling:
		if f.over.What == "instructions" {
			return fmt.Sprintf("the instructions are %s characters, over the ceiling of %s (--%s)", units.Group(int64(f.over.Chars)), units.Group(int64(f.over.Max)), f.key)
		}
		return fmt.Sprintf("%s's description is %s characters, over the ceiling of %s (--%s)", esc(f.over.Tool), units.Group(int64(f.over.Chars)), units.Group(int64(f.over.Max)), f.key)
	case clientLimit:
		return f.lint.Text
	case missingBudget:
		return "no budget for " + esc(strings.Join(f.missing, ", "))
	case caution:
		return esc(f.warning)
	default:
		return esc(f.stale.Name) + ": no capture or toolset read it in this run"
	}
}

// detail is what follows the line: for a budget, tool by tool what a
// model reads.
func (f *finding) detail(esc func(string) string) string {
	var b strings.Builder
	for _, t := range f.tools {
		fmt.Fprintf(&b, "\n  %s: %d bytes, %d tokens", esc(t.Name), t.ModelReadBytes, t.ModelReadTokens)
	}
	return b.String()
}

// place is where the finding's line on stderr says it is: its file (with
// the line, for a stale budget); a budget names its own.
func (f *finding) place() string {
	switch f.kind {
	case overBudget, caution: // a warning names its own place
		return ""
	case staleBudget:
		return f.stale.Where() + ": "
	}
	return f.file + ": "
}

// note is the finding as a warning under the table.
func (f *finding) note() string { return strings.TrimSuffix(f.place(), ": ") + ": " + f.text(plain) }

func plain(s string) string { return s }

// writeFindings prints a line for each finding that counts and returns
// the exit they call for.
func writeFindings(stderr io.Writer, fs [][]finding) error {
	n := 0
	for _, rf := range fs {
		for _, f := range rf {
			if !f.counts {
				continue
			}
			n++
			strict := ""
			if f.kind == clientLimit || f.kind == staleBudget || f.kind == missingBudget || f.kind == caution {
				strict = " (--strict)"
			}
			line(stderr, "measure: %s%s%s", f.place(), f.text(plain), strict)
		}
	}
	if n > 0 {
		return cli.Silent
	}
	return nil
}

// annotation is the finding as a GitHub annotation: an error when it
// counts, else a warning, at its file and line (a --budget flag has
// none).
func (f *finding) annotation() ghactions.Annotation {
	a := ghactions.Annotation{Level: ghactions.Error, Title: f.key, Message: f.junitText()}
	if !f.counts {
		a.Level = ghactions.Warning
	}
	if f.line > 0 || f.kind == overCeiling || f.kind == clientLimit {
		a.File, a.Line = ghactions.Path(f.file), f.line
	}
	switch f.kind {
	case overBudget:
		a = cli.OverAnnotation(f.check, unitName(f.key), a.Message)
	case overCeiling:
		a.Title = f.over.What + " ceiling"
	case clientLimit:
		a.Title, a.Message = "client limit: "+f.key, f.lint.Text
	case missingBudget:
		a.Title, a.File = "no budget", ghactions.Path(f.file)
	}
	return a
}

// junitText is the finding as a JUnit failure's text.
func (f *finding) junitText() string {
	switch f.kind {
	case clientLimit:
		return escape.Term(f.file + ": " + f.lint.Text)
	case staleBudget:
		return escape.Term(f.stale.Where()) + ": " + f.text(escape.Term)
	case missingBudget:
		return escape.Term(f.file) + ": " + f.text(escape.Term)
	}
	return f.text(escape.Term) + f.detail(escape.Term)
}
