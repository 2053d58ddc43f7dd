package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
)

// markdown is a writer that tables are written to as Markdown tables, for
// a pull-request comment or a CI step summary.
type markdown struct{ io.Writer }

// text returns s, a server's or a file's text, escaped for what w is:
// Markdown text for a markdown writer, else a terminal line (see package
// internal/escape).
func text(w io.Writer, s string) string {
	if _, ok := w.(markdown); ok {
		return escape.Markdown(s)
	}
	return escape.Term(s)
}

// line prints one line to w, the formatted text escaped as text escapes
// it: the format's own words are plain, its arguments may be anything.
func line(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, text(w, fmt.Sprintf(format, args...)))
}

// render writes t to w: as Markdown when w is a markdown writer, else as
// plain text.
func render(w io.Writer, t *table.Table) error {
	if _, ok := w.(markdown); ok {
		return t.Write(w, table.Markdown)
	}
	return t.Write(w, table.Plain)
}

func group(n int64) string { return units.Group(n) }

// share formats part of total as a percentage with two decimals.
func share(part, total int64) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f%%", float64(part)/float64(total)*100)
}

// writeTable prints one capture's report for people.
func writeTable(w io.Writer, r *report) {
	f := r.figures
	line(w, "%s: %s, %d %s", r.capture.Path, r.capture.Form, f.Tools, plural(f.Tools, "tool", "tools"))
	fmt.Fprintln(w)
	s := table.New().Right(1)
	s.Add("wire", group(f.WireBytes), "bytes")
	s.Add("what a model reads", group(f.ModelReadBytes), "bytes")
	s.Add("", group(f.ModelReadTokens), units.TokensLabel)
	for _, tc := range f.Tokenizers {
		s.Add("", group(tc.Tokens), tc.Name+" tokens")
	}
	s.Add("descriptions", group(f.DescriptionBytes), "bytes")
	s.Add("field descriptions", group(f.FieldDescriptionBytes), "bytes")
	if f.Longest.Index >= 0 {
		s.Add("longest description", group(int64(f.Longest.Chars)), "chars", f.Longest.Tool)
	}
	if r.init != nil && r.init.HasInstructions {
		s.Add("instructions", group(int64(r.init.Chars)), "chars", r.init.Path)
	}
	if _, ok := w.(markdown); ok {
		s.Head("figure", "value", "unit", "of")
	}
	render(w, s)

	if len(f.PerTool) > 0 {
		fmt.Fprintln(w)
		tools := append(f.PerTool[:0:0], f.PerTool...)
		sort.SliceStable(tools, func(i, j int) bool { return tools[i].ModelReadBytes > tools[j].ModelReadBytes })
		head := []string{"tool", "model-read bytes", units.TokensLabel}
		for _, tc := range f.Tokenizers {
			head = append(head, tc.Name)
		}
		t := table.New(append(head, "share", "description chars")...)
		for i := 1; i < len(head)+2; i++ {
			t.Right(i)
		}
		for _, tf := range tools {
			row := []string{tf.Name, group(tf.ModelReadBytes), group(tf.ModelReadTokens)}
			for _, tc := range f.ToolTokens(tf.Index) {
				row = append(row, group(tc.Tokens))
			}
			t.Add(append(row, share(tf.ModelReadBytes, f.ModelReadBytes), group(int64(tf.DescriptionChars)))...)
		}
		row := []string{"total", group(f.ModelReadBytes), group(f.ModelReadTokens)}
		for _, tc := range f.Tokenizers {
			row = append(row, group(tc.Tokens))
		}
		t.Add(append(row, share(f.ModelReadBytes, f.ModelReadBytes), group(sumChars(f.PerTool)))...)
		render(w, t)
	}
	writeSections(w, []*report{r})
	writeWarnings(w, []*report{r})
}

// writeSections prints the toolsets, what-ifs, clients, marginal costs
// and budgets of the reports.
func writeSections(w io.Writer, reports []*report) {
	for _, r := range reports {
		writeClients(w, r)
		if r.marginal {
			writeMarginal(w, r)
		}
	}
	var said profileNotes
	for _, r := range reports {
		writeProfile(w, r, len(reports) > 1, &said)
	}
	for _, r := range reports {
		if len(r.sets) > 0 {
			fmt.Fprintln(w)
			head := "toolset"
			if len(reports) > 1 {
				head = "toolset, " + r.capture.Path
			}
			t := table.New(head, "tools", "model-read bytes", units.TokensLabel, "share").Right(1, 2, 3, 4)
			for _, s := range r.sets {
				t.Add(s.Name, group(int64(len(s.Tools))), group(s.ModelReadBytes), group(s.ModelReadTokens), share(s.ModelReadBytes, r.figures.ModelReadBytes))
			}
			render(w, t)
		}
	}
	for _, r := range reports {
		if len(r.savings) > 0 {
			fmt.Fprintln(w)
			head := "what-if"
			if len(reports) > 1 {
				head = "what-if, " + r.capture.Path
			}
			t := table.New(head, "wire saving bytes", "model-read saving bytes", "changes", "tools changed").Right(1, 2, 3, 4)
			for _, s := range r.savings {
				t.Add(s.Name, group(s.WireSavingBytes), group(s.ModelReadSavingBytes), group(int64(s.Changes)), group(int64(len(s.Tools))))
			}
			render(w, t)
		}
	}
	var checks gate.Checks
	for _, r := range reports {
		checks = append(checks, r.budgets...)
	}
	if len(checks) > 0 {
		fmt.Fprintln(w)
		writeBudgetTable(w, checks)
	}
}

// budgetTable is the checks of what a model reads of tool lists against
// their budgets, one row each.
func budgetTable(checks gate.Checks) *table.Table {
	head := units.TokensLabel
	if !allBytes3(checks) {
		head = "tokens" // a legend under the table says which
	}
	t := table.New("budget", head, "budget", "bytes", "status", "declared at").Right(1, 2, 3)
	for _, c := range checks {
		status := string(c.Status)
		if c.Status == gate.Over {
			status = "over by " + group(-c.Slack())
		}
		t.Add(c.Key, group(c.Read), group(c.Budget.Value), group(c.Bytes), status, c.Budget.Where())
	}
	return t
}

// allBytes3 reports whether every check counts floor(bytes/3) tokens (no
// TOOL_LIST_O200K or TOOL_LIST_CL100K budget among them).
func allBytes3(checks gate.Checks) bool {
	for _, c := range checks {
		if unitName(c.Key) != "tokens" {
			return false
		}
	}
	return true
}

// writeBudgetTable prints the budget table, with a legend under it when
// its budgets count tokens in more than one way.
func writeBudgetTable(w io.Writer, checks gate.Checks) {
	render(w, budgetTable(checks))
	if !allBytes3(checks) {
		fmt.Fprintln(w)
		line(w, "tokens: floor(bytes/3), or in a TOOL_LIST_O200K or TOOL_LIST_CL100K budget that tokenizer's count")
	}
}

// writeWarnings prints the reports' warnings once, under the tables.
func writeWarnings(w io.Writer, reports []*report) {
	var ws, ns []string
	for _, r := range reports {
		ws = append(ws, r.allWarnings()...)
		ns = append(ns, r.notes...)
	}
	writeNotes(w, ws)
	writeList(w, "notes", ns)
}

func sumChars(ts []toollist.ToolFigures) int64 {
	var n int64
	for _, t := range ts {
		n += int64(t.DescriptionChars)
	}
	return n
}

// writeSideBySide prints several captures' figures, one column each.
func writeSideBySide(w io.Writer, reports []*report) {
	head := []string{""}
	dir := filepath.Dir(reports[0].capture.Path)
	for _, r := range reports {
		if filepath.Dir(r.capture.Path) != dir {
			dir = ""
		}
	}
	if dir != "" && dir != "." {
		line(w, "captures in %s:", dir)
		fmt.Fprintln(w)
	}
	for _, r := range reports {
		if dir != "" {
			head = append(head, filepath.Base(r.capture.Path))
		} else {
			head = append(head, r.capture.Path)
		}
	}
	t := table.New(head...)
	for i := 1; i < len(head); i++ {
		t.Right(i)
	}
	row := func(name string, f func(r *report) string) {
		cells := []string{name}
		for _, r := range reports {
			cells = append(cells, f(r))
		}
		t.Add(cells...)
	}
	row("form", func(r *report) string { return r.capture.Form.String() })
	row("tools", func(r *report) string { return group(int64(r.figures.Tools)) })
	row("wire bytes", func(r *report) string { return group(r.figures.WireBytes) })
	row("model-read bytes", func(r *report) string { return group(r.figures.ModelReadBytes) })
	row("model-read "+units.TokensLabel, func(r *report) string { return group(r.figures.ModelReadTokens) })
	for k, tc := range reports[0].figures.Tokenizers {
		row(tc.Name+" tokens", func(r *report) string { return group(r.figures.Tokenizers[k].Tokens) })
	}
	row("description bytes", func(r *report) string { return group(r.figures.DescriptionBytes) })
	row("field description bytes", func(r *report) string { return group(r.figures.FieldDescriptionBytes) })
	row("longest description chars", func(r *report) string { return group(int64(r.figures.Longest.Chars)) })
	row("longest description tool", func(r *report) string { return r.figures.Longest.Tool })
	row("instructions chars", func(r *report) string {
		if r.init == nil || !r.init.HasInstructions {
			return "-"
		}
		return group(int64(r.init.Chars))
	})
	render(w, t)
	writeSections(w, reports)
	writeWarnings(w, reports)
}
