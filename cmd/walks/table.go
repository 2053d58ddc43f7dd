package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/walk"
)

// table is rows of cells; right marks the columns aligned right.
type table struct {
	head  []string
	right []bool
	rows  [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer, markdown bool) {
	if markdown {
		fmt.Fprintf(w, "| %s |\n", strings.Join(t.head, " | "))
		seps := make([]string, len(t.head))
		for i := range seps {
			seps[i] = "---"
			if t.right[i] {
				seps[i] = "---:"
			}
		}
		fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
		for _, r := range t.rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = strings.ReplaceAll(c, "|", `\|`)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
		return
	}
	width := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range append([][]string{t.head}, t.rows...) {
		var b strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if t.right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func printTables(w io.Writer, rep *walk.Report, base *walk.Report, markdown bool) {
	if base != nil {
		printCompare(w, rep, base, markdown)
	} else {
		t := &table{head: []string{"walk", "part", "bytes", "tokens"}, right: []bool{false, false, true, true}}
		for _, wr := range rep.Walks {
			name := wr.Walk
			for _, p := range wr.Parts {
				t.add(name, p.Name, units.Group(p.Bytes), units.Group(p.Tokens))
				name = ""
			}
			total := "total"
			if wr.Error != "" {
				total = "total (failed: see above)"
			}
			t.add(name, total, units.Group(wr.Bytes), units.Group(wr.Tokens))
		}
		t.write(w, markdown)
	}
	bt := &table{head: []string{"walk", "key", "measure", "read", "budget", "slack", "status"}, right: []bool{false, false, false, true, true, true, false}}
	for _, wr := range rep.Walks {
		for _, b := range wr.Budgets {
			budget, slack := "-", "-"
			if b.Budget != nil {
				budget, slack = units.Group(*b.Budget), units.Signed(*b.Slack)
			}
			measure := string(b.Unit)
			if b.Measure != string(gate.Total) && b.Measure != measure {
				measure = b.Measure + " (" + measure + ")"
			}
			bt.add(wr.Walk, b.Key, measure, units.Group(b.Read), budget, slack, string(b.Status))
		}
	}
	if len(bt.rows) > 0 {
		fmt.Fprintln(w)
		bt.write(w, markdown)
	}
	if len(rep.Moves) > 0 {
		fmt.Fprintln(w)
		mt := &table{head: []string{"budget", "old", "new", "delta", "where"}, right: []bool{false, true, true, true, false}}
		for _, m := range rep.Moves {
			mt.add(m.Key, units.Group(m.Old), units.Group(m.New), units.Signed(m.New-m.Old), m.Where)
		}
		mt.write(w, markdown)
	}
	if len(rep.Over) > 0 {
		fmt.Fprintln(w)
		if markdown { // a code block keeps the part lines as printed
			fmt.Fprintln(w, "```")
		}
		for _, o := range rep.Over {
			fmt.Fprintln(w, o)
		}
		if markdown {
			fmt.Fprintln(w, "```")
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
					fmt.Fprintf(w, "> %s%s\n", prefix, line)
				} else {
					fmt.Fprintf(w, "%s%s\n", prefix, line)
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
	t := &table{head: []string{"walk", "part", "old bytes", "new bytes", "delta"}, right: []bool{false, false, true, true, true}}
	tt := &table{head: []string{"walk", "old tokens", "new tokens", "delta"}, right: []bool{false, true, true, true}}
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
			t.add(label, p.Name, oldCell, units.Group(p.Bytes), units.Delta(o, p.Bytes))
			label = ""
		}
		for _, p := range ow.Parts {
			if used[p.Name] > 0 {
				used[p.Name]--
				continue
			}
			t.add(label, p.Name, units.Group(p.Bytes), "-", units.Delta(p.Bytes, 0))
			label = ""
		}
		t.add(label, "total", units.Group(ow.Bytes), units.Group(wr.Bytes), units.Delta(ow.Bytes, wr.Bytes))
		tt.add(name, units.Group(ow.Tokens), units.Group(wr.Tokens), units.Delta(ow.Tokens, wr.Tokens))
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
	t.add("all walks", "total", units.Group(allOld), units.Group(allNew), units.Delta(allOld, allNew))
	tt.add("all walks", units.Group(allOldT), units.Group(allNewT), units.Delta(allOldT, allNewT))
	t.write(w, markdown)
	fmt.Fprintln(w)
	tt.write(w, markdown)
}
