package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/walk"
)

// format returns the table form --markdown asks for.
func format(markdown bool) table.Format {
	if markdown {
		return table.Markdown
	}
	return table.Plain
}

// text returns s, a server's or a file's text, escaped for the form:
// Markdown text with --markdown, else a terminal line (see package
// internal/escape).
func text(s string, markdown bool) string {
	if markdown {
		return escape.Markdown(s)
	}
	return escape.Term(s)
}

// printTables prints the run's tables, then over (the texts of the
// budgets exceeded, as finding.overText writes them for printing) and the warnings.
func printTables(w io.Writer, rep *walk.Report, over []string, base *walk.Report, markdown bool) {
	if base != nil {
		printCompare(w, rep, base, markdown)
	} else {
		t := table.New("walk", "part", "bytes", units.TokensLabel).Right(2, 3)
		for _, wr := range rep.Walks {
			name := wr.Walk
			for _, p := range wr.Parts {
				t.Add(name, p.Name, units.Group(p.Bytes), units.Group(p.Tokens))
				name = ""
			}
			total := "total"
			if wr.Error != "" {
				total = "total (failed: see above)"
			}
			t.Add(name, total, units.Group(wr.Bytes), units.Group(wr.Tokens))
		}
		t.Write(w, format(markdown))
	}
	bt := table.New("walk", "key", "measure", "read", "budget", "slack", "status").Right(3, 4, 5)
	for _, wr := range rep.Walks {
		for _, b := range wr.Budgets {
			budget, slack := "-", "-"
			if b.Budget != nil {
				budget, slack = units.Group(*b.Budget), units.Signed(*b.Slack)
			}
			measure := units.Label(string(b.Unit))
			if b.Measure != string(gate.Total) && b.Measure != string(b.Unit) {
				measure = b.Measure + " (" + measure + ")"
			}
			bt.Add(wr.Walk, b.Key, measure, units.Group(b.Read), budget, slack, string(b.Status))
		}
	}
	if bt.Len() > 0 {
		fmt.Fprintln(w)
		bt.Write(w, format(markdown))
	}
	if len(rep.Moves) > 0 {
		fmt.Fprintln(w)
		mt := table.New("budget", "old", "new", "delta", "where").Right(1, 2, 3)
		for _, m := range rep.Moves {
			if m.Added { // no old number: added, not moved from 0
				mt.Add(m.Key, "-", units.Group(m.New), "added", m.Where)
				continue
			}
			mt.Add(m.Key, units.Group(m.Old), units.Group(m.New), units.Signed(m.New-m.Old), m.Where)
		}
		mt.Write(w, format(markdown))
	}
	if len(over) > 0 {
		fmt.Fprintln(w)
		over := slices.Clone(over)
		for i, o := range over {
			over[i] = escape.Lines(o) // our lines, the names in them escaped already
		}
		fence := escape.Fence(strings.Join(over, "\n"))
		if markdown { // a code block keeps the part lines as printed
			fmt.Fprintln(w, fence)
		}
		for _, o := range over {
			fmt.Fprintln(w, o)
		}
		if markdown {
			fmt.Fprintln(w, fence)
		}
	}
	if len(rep.Warnings) > 0 {
		fmt.Fprintln(w)
		for _, warn := range rep.Warnings {
			for i, line := range strings.Split(warn, "\n") {
				prefix := "warning: "
				if i > 0 {
					prefix = "  "
				}
				if markdown {
					fmt.Fprintf(w, "> %s%s\n", prefix, text(line, true))
				} else {
					fmt.Fprintf(w, "%s%s\n", prefix, text(line, false))
				}
			}
		}
	}
}

// printCompare prints old, new and delta per walk and part, benchstat
// style: the unit in the header, a total row.
func printCompare(w io.Writer, rep, base *walk.Report, markdown bool) {
	old := map[string]walk.WalkReport{}
	for _, wr := range base.Walks {
		old[wr.Walk] = wr
	}
	t := table.New("walk", "part", "old bytes", "new bytes", "delta").Right(2, 3, 4)
	tt := table.New("walk", "old "+units.TokensLabel, "new "+units.TokensLabel, "delta").Right(1, 2, 3)
	var allOld, allNew, allOldT, allNewT int64
	seen := map[string]bool{}
	row := func(wr, ow walk.WalkReport) {
		name := wr.Walk
		if name == "" {
			name = ow.Walk
		}
		oldParts := map[string][]int64{}
		for _, p := range ow.Parts {
			oldParts[p.Name] = append(oldParts[p.Name], p.Bytes)
		}
		used := map[string]int{}
		label := name
		for _, p := range wr.Parts {
			i := used[p.Name]
			used[p.Name]++
			var o int64
			oldCell := "-"
			if i < len(oldParts[p.Name]) {
				o = oldParts[p.Name][i]
				oldCell = units.Group(o)
			}
			t.Add(label, p.Name, oldCell, units.Group(p.Bytes), units.Delta(o, p.Bytes))
			label = ""
		}
		for _, p := range ow.Parts {
			if used[p.Name] > 0 {
				used[p.Name]--
				continue
			}
			t.Add(label, p.Name, units.Group(p.Bytes), "-", units.Delta(p.Bytes, 0))
			label = ""
		}
		t.Add(label, "total", units.Group(ow.Bytes), units.Group(wr.Bytes), units.Delta(ow.Bytes, wr.Bytes))
		tt.Add(name, units.Group(ow.Tokens), units.Group(wr.Tokens), units.Delta(ow.Tokens, wr.Tokens))
		allOld += ow.Bytes
		allNew += wr.Bytes
		allOldT += ow.Tokens
		allNewT += wr.Tokens
	}
	for _, wr := range rep.Walks {
		seen[wr.Walk] = true
		row(wr, old[wr.Walk])
	}
	for _, ow := range base.Walks {
		if !seen[ow.Walk] {
			row(walk.WalkReport{Walk: ow.Walk}, ow)
		}
	}
	t.Add("all walks", "total", units.Group(allOld), units.Group(allNew), units.Delta(allOld, allNew))
	tt.Add("all walks", units.Group(allOldT), units.Group(allNewT), units.Delta(allOldT, allNewT))
	t.Write(w, format(markdown))
	fmt.Fprintln(w)
	tt.Write(w, format(markdown))
}
