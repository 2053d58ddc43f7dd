package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/units"
)

// chart is one block's history as a line chart: a point on the x axis per
// commit that moved a budget of the block, a line per budget.
type chart struct {
	title  string
	x      []string // short commits, oldest first
	labels []string // "date commit: subject", for the SVG's tooltips
	lines  []chartLine
}

// chartLine is one budget's values at each x; 0 where the file did not
// declare it.
type chartLine struct {
	name   string
	values []int64
}

// chartsOf lays each block's series on the commits that moved them.
func chartsOf(blocks []historyBlock, versions []budgets.Version, seq map[string]int) []chart {
	var out []chart
	for _, blk := range blocks {
		at := map[int]bool{}
		for _, s := range blk.series {
			for _, c := range s.Changes {
				at[seq[c.Version.Commit]] = true
			}
		}
		var xs []int
		for i := range versions {
			if at[i] {
				xs = append(xs, i)
			}
		}
		ch := chart{title: blk.name}
		for _, i := range xs {
			v := versions[i]
			ch.x = append(ch.x, v.Short)
			ch.labels = append(ch.labels, v.Date.UTC().Format("2006-01-02")+" "+v.Short+": "+v.Subject)
		}
		for _, s := range blk.series {
			line := chartLine{name: s.Name, values: make([]int64, len(xs))}
			next, value := 0, int64(0)
			for j, i := range xs {
				for next < len(s.Changes) && seq[s.Changes[next].Version.Commit] <= i {
					value = s.Changes[next].Value // 0 when removed
					next++
				}
				line.values[j] = value
			}
			ch.lines = append(ch.lines, line)
		}
		out = append(out, ch)
	}
	return out
}

// writeMermaid writes a chart as a Mermaid xychart-beta block; Mermaid
// draws no legend, so the lines are named below it, in their order.
func writeMermaid(w io.Writer, c chart) {
	fmt.Fprintln(w, "```mermaid")
	fmt.Fprintln(w, "xychart-beta")
	// Quoted, then escaped: strconv.Quote leaves a "##[" that a CI log
	// would read as a command.
	fmt.Fprintf(w, "  title %s\n", escape.Term(strconv.Quote(c.title)))
	quoted := make([]string, len(c.x))
	for i, x := range c.x {
		quoted[i] = escape.Term(strconv.Quote(x))
	}
	fmt.Fprintf(w, "  x-axis [%s]\n", strings.Join(quoted, ", "))
	for _, l := range c.lines {
		vals := make([]string, len(l.values))
		for i, v := range l.values {
			vals[i] = strconv.FormatInt(v, 10)
		}
		fmt.Fprintf(w, "  line [%s]\n", strings.Join(vals, ", "))
	}
	fmt.Fprintln(w, "```")
	names := make([]string, len(c.lines))
	for i, l := range c.lines {
		names[i] = escape.Code(label(l.name))
	}
	fmt.Fprintf(w, "\nThe lines, in order: %s.\n", strings.Join(names, ", "))
}

// palette is Tableau 10, distinct for the colour-blind too.
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"}

// writeSVG writes the charts one under another as a standalone SVG image:
// axes, a grouped value scale, the commits along the bottom, a line and a
// dot (with a tooltip) per budget and commit, and a legend. Each line
// carries its budget and its values as data attributes.
func writeSVG(w io.Writer, charts []chart) {
	const (
		width, height         = 860, 340
		left, right, top, bot = 80, 220, 40, 70
	)
	plotW, plotH := float64(width-left-right), float64(height-top-bot)
	total := height * max(len(charts), 1)
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, total, width, total)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, total)
	for ci, c := range charts {
		fmt.Fprintf(w, `<g transform="translate(0,%d)" data-block="%s">`+"\n", ci*height, esc(c.title))
		fmt.Fprintf(w, `<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", left, esc(c.title))
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for _, l := range c.lines {
			for _, v := range l.values {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if lo > hi {
			lo, hi = 0, 1
		}
		pad := (hi - lo) / 10
		if pad == 0 {
			pad = max(hi/10, 1)
		}
		lo, hi = max(lo-pad, 0), hi+pad
		y := func(v int64) float64 { return float64(top) + plotH - float64(v-lo)/float64(hi-lo)*plotH }
		x := func(i int) float64 {
			if len(c.x) == 1 {
				return float64(left) + plotW/2
			}
			return float64(left) + float64(i)*plotW/float64(len(c.x)-1)
		}
		// The value scale: five grid lines.
		for i := 0; i <= 4; i++ {
			v := lo + (hi-lo)*int64(i)/4
			fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e0e0e0"/>`+"\n", left, y(v), width-right, y(v))
			fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end" fill="#555">%s</text>`+"\n", left-6, y(v)+4, units.Group(v))
		}
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`+"\n", left, top, left, height-bot)
		fmt.Fprintf(w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`+"\n", left, height-bot, width-right, height-bot)
		for i, commit := range c.x {
			fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="end" transform="rotate(-40 %.1f %d)" fill="#555"><title>%s</title>%s</text>`+"\n",
				x(i), height-bot+16, x(i), height-bot+16, esc(c.labels[i]), esc(commit))
		}
		for li, l := range c.lines {
			color := palette[li%len(palette)]
			pts := make([]string, len(l.values))
			vals := make([]string, len(l.values))
			for i, v := range l.values {
				pts[i] = fmt.Sprintf("%.1f,%.1f", x(i), y(v))
				vals[i] = strconv.FormatInt(v, 10)
			}
			fmt.Fprintf(w, `<polyline data-budget="%s" data-values="%s" fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n",
				esc(l.name), strings.Join(vals, ","), color, strings.Join(pts, " "))
			for i, v := range l.values {
				fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s: %s (%s)</title></circle>`+"\n",
					x(i), y(v), color, esc(l.name), units.Group(v), esc(c.labels[i]))
			}
			ly := top + 8 + li*18
			fmt.Fprintf(w, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`+"\n", width-right+16, ly-10, color)
			fmt.Fprintf(w, `<text x="%d" y="%d">%s</text>`+"\n", width-right+34, ly, esc(label(l.name)))
		}
		fmt.Fprintln(w, "</g>")
	}
	fmt.Fprintln(w, "</svg>")
}

// esc escapes a budget's name or a commit's subject for the SVG: XML
// text, every character XML forbids or a viewer would act on shown.
func esc(s string) string { return escape.XML(s) }
