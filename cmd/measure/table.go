package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
)

// table is a plain text table: the first column left-aligned, the others
// right-aligned, columns two spaces apart. Written to a markdown writer, it
// is a Markdown table.
type table struct {
	rows   [][]string
	left   []bool   // columns aligned left, beyond the first
	mdHead []string // the header a Markdown table needs when rows have none
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// markdown is a writer that tables are written to as Markdown tables, for
// a pull-request comment or a CI step summary.
type markdown struct{ io.Writer }

func (t *table) render(w io.Writer) {
	if _, ok := w.(markdown); ok {
		t.renderMarkdown(w)
		return
	}
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range t.rows {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == 0 || (i < len(t.left) && t.left[i]) {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func (t *table) renderMarkdown(w io.Writer) {
	rows := t.rows
	if t.mdHead != nil {
		rows = append([][]string{t.mdHead}, rows...)
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	for i, r := range rows {
		cells := make([]string, width)
		for j, c := range r {
			cells[j] = strings.ReplaceAll(c, "|", "\\|")
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		if i == 0 {
			seps := make([]string, width)
			for j := range seps {
				if j == 0 || (j < len(t.left) && t.left[j]) {
					seps[j] = "---"
				} else {
					seps[j] = "---:"
				}
			}
			fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
		}
	}
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
	fmt.Fprintf(w, "%s: %s, %d %s\n\n", r.capture.Path, r.capture.Form, f.Tools, plural(f.Tools, "tool", "tools"))
	var s table
	s.add("wire", group(f.WireBytes), "bytes")
	s.add("what a model reads", group(f.ModelReadBytes), "bytes")
	s.add("", group(f.ModelReadTokens), "tokens")
	for _, tc := range f.Tokenizers {
		s.add("", group(tc.Tokens), tc.Name+" tokens")
	}
	s.add("descriptions", group(f.DescriptionBytes), "bytes")
	s.add("field descriptions", group(f.FieldDescriptionBytes), "bytes")
	if f.Longest.Index >= 0 {
		s.add("longest description", group(int64(f.Longest.Chars)), "chars", f.Longest.Tool)
	}
	if r.init != nil && r.init.HasInstructions {
		s.add("instructions", group(int64(r.init.Chars)), "chars", r.init.Path)
	}
	s.left = []bool{false, false, true, true}
	s.mdHead = []string{"figure", "value", "unit", ""}
	s.render(w)

	if len(f.PerTool) > 0 {
		fmt.Fprintln(w)
		tools := append(f.PerTool[:0:0], f.PerTool...)
		sort.SliceStable(tools, func(i, j int) bool { return tools[i].ModelReadBytes > tools[j].ModelReadBytes })
		var t table
		head := []string{"tool", "model-read bytes", "tokens"}
		for _, tc := range f.Tokenizers {
			head = append(head, tc.Name)
		}
		t.add(append(head, "share", "description chars")...)
		for _, tf := range tools {
			row := []string{tf.Name, group(tf.ModelReadBytes), group(tf.ModelReadTokens)}
			for _, tc := range tf.Tokenizers {
				row = append(row, group(tc.Tokens))
			}
			t.add(append(row, share(tf.ModelReadBytes, f.ModelReadBytes), group(int64(tf.DescriptionChars)))...)
		}
		row := []string{"total", group(f.ModelReadBytes), group(f.ModelReadTokens)}
		for _, tc := range f.Tokenizers {
			row = append(row, group(tc.Tokens))
		}
		t.add(append(row, share(f.ModelReadBytes, f.ModelReadBytes), group(sumChars(f.PerTool)))...)
		t.render(w)
	}
	writeSections(w, []*report{r})
	writeWarnings(w, []*report{r})
}

// writeSections prints the toolsets, what-ifs and budgets of the reports.
func writeSections(w io.Writer, reports []*report) {
	for _, r := range reports {
		if len(r.sets) > 0 {
			fmt.Fprintln(w)
			var t table
			head := "toolset"
			if len(reports) > 1 {
				head = "toolset, " + r.capture.Path
			}
			t.add(head, "tools", "model-read bytes", "tokens", "share")
			for _, s := range r.sets {
				t.add(s.Name, group(int64(len(s.Tools))), group(s.ModelReadBytes), group(s.ModelReadTokens), share(s.ModelReadBytes, r.figures.ModelReadBytes))
			}
			t.render(w)
		}
	}
	for _, r := range reports {
		if len(r.savings) > 0 {
			fmt.Fprintln(w)
			var t table
			head := "what-if"
			if len(reports) > 1 {
				head = "what-if, " + r.capture.Path
			}
			t.add(head, "wire saving bytes", "model-read saving bytes", "changes", "tools changed")
			for _, s := range r.savings {
				t.add(s.Name, group(s.WireSavingBytes), group(s.ModelReadSavingBytes), group(int64(s.Changes)), group(int64(len(s.Tools))))
			}
			t.render(w)
		}
	}
	var bt table
	bt.add("budget", "tokens", "budget", "bytes", "status", "declared at")
	bt.left = []bool{false, false, false, false, true, true}
	for _, r := range reports {
		for _, c := range r.budgets {
			status := string(c.Status)
			if c.Status == gate.Over {
				status = "over by " + group(-c.Slack())
			}
			bt.add(c.Key, group(c.Read), group(c.Budget.Value), group(c.Bytes), status, c.Budget.Where())
		}
	}
	if len(bt.rows) > 1 {
		fmt.Fprintln(w)
		bt.render(w)
	}
}

// writeWarnings prints the reports' warnings once, under the tables.
func writeWarnings(w io.Writer, reports []*report) {
	var ws []string
	for _, r := range reports {
		ws = append(ws, r.warnings...)
	}
	if len(ws) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "warnings:")
	bullet := "  "
	if _, ok := w.(markdown); ok {
		fmt.Fprintln(w)
		bullet = "- "
	}
	for _, s := range ws {
		fmt.Fprintln(w, bullet+s)
	}
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
	var t table
	head := []string{""}
	dir := filepath.Dir(reports[0].capture.Path)
	for _, r := range reports {
		if filepath.Dir(r.capture.Path) != dir {
			dir = ""
		}
	}
	if dir != "" && dir != "." {
		fmt.Fprintf(w, "captures in %s:\n\n", dir)
	}
	for _, r := range reports {
		if dir != "" {
			head = append(head, filepath.Base(r.capture.Path))
		} else {
			head = append(head, r.capture.Path)
		}
	}
	t.add(head...)
	row := func(name string, f func(r *report) string) {
		cells := []string{name}
		for _, r := range reports {
			cells = append(cells, f(r))
		}
		t.add(cells...)
	}
	row("form", func(r *report) string { return r.capture.Form.String() })
	row("tools", func(r *report) string { return group(int64(r.figures.Tools)) })
	row("wire bytes", func(r *report) string { return group(r.figures.WireBytes) })
	row("model-read bytes", func(r *report) string { return group(r.figures.ModelReadBytes) })
	row("model-read tokens", func(r *report) string { return group(r.figures.ModelReadTokens) })
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
	t.render(w)
	writeSections(w, reports)
	writeWarnings(w, reports)
}
