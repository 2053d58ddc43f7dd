package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
)

// marginal is what removing each tool of a list saves, for one reader (a
// client, or measure's own reading): the tools' bytes add up to the total
// with the shared bytes (a prelude, the instructions) counted once.
type marginal struct {
	reader   string // the client's name; "" for measure's own reading
	total    int64  // bytes read
	shared   int64  // bytes read once whatever tools there are
	overhead string // the fixed overhead in tokens, formatted; "" for none
	tools    []marginalTool
}

type marginalTool struct {
	name  string
	bytes int64
}

// saving returns the tokens (bytes/3) removing n bytes of the total saves.
func (m *marginal) saving(n int64) int64 {
	return units.Tokens(m.total) - units.Tokens(m.total-n)
}

// marginals returns the marginal costs of the report: one per client
// measured, else measure's own reading.
func marginals(r *report) []*marginal {
	if len(r.clients) == 0 {
		m := &marginal{total: r.figures.ModelReadBytes}
		for _, t := range r.figures.PerTool {
			m.tools = append(m.tools, marginalTool{t.Name, t.ModelReadBytes})
		}
		return []*marginal{m}
	}
	var out []*marginal
	for _, cf := range r.clients {
		m := &marginal{reader: cf.Profile.Name, total: cf.Bytes, shared: cf.SharedBytes()}
		if o := overhead(cf.Profile); o != "-" {
			m.overhead = o
		}
		for _, ct := range cf.Tools {
			if ct.Sent {
				m.tools = append(m.tools, marginalTool{ct.Name, ct.Bytes})
			}
		}
		out = append(out, m)
	}
	return out
}

// writeMarginal prints, for each reader, what removing each tool saves,
// largest first, the shared bytes once, and the check that they add up.
func writeMarginal(w io.Writer, r *report) {
	for _, m := range marginals(r) {
		who := "measure's reading"
		if m.reader != "" {
			who = m.reader + ", every tool loaded"
		}
		fmt.Fprintf(w, "\nwhat removing each tool of %s saves (%s):\n\n", r.capture.Path, who)
		tools := append([]marginalTool(nil), m.tools...)
		sort.SliceStable(tools, func(i, j int) bool { return tools[i].bytes > tools[j].bytes })
		t := table.New("tool", "bytes saved", "tokens saved (bytes/3)", "share").Right(1, 2, 3)
		var sumBytes, sumTokens int64
		for _, mt := range tools {
			s := m.saving(mt.bytes)
			sumBytes += mt.bytes
			sumTokens += s
			t.Add(mt.name, group(mt.bytes), group(s), share(mt.bytes, m.total))
		}
		sharedTokens := m.saving(m.shared)
		t.Add("shared, read once: prelude and instructions", group(m.shared), group(sharedTokens), share(m.shared, m.total))
		t.Add("total read", group(m.total), group(units.Tokens(m.total)), share(m.total, m.total))
		render(w, t)
		rounding := units.Tokens(m.total) - sumTokens - sharedTokens
		mark := "holds"
		if sumBytes+m.shared != m.total {
			mark = "DOES NOT HOLD"
		}
		op := "+"
		if rounding < 0 {
			op, rounding = "-", -rounding
		}
		fmt.Fprintf(w, "\ncheck: %s bytes saved by the %d %s + %s shared = %s bytes read (%s); tokens: %s + %s %s %s of rounding (floor(bytes/3) of the whole) = %s\n",
			group(sumBytes), len(tools), plural(len(tools), "tool", "tools"), group(m.shared), group(m.total), mark,
			group(sumTokens), group(sharedTokens), op, group(rounding), group(units.Tokens(m.total)))
		if m.overhead != "" {
			fmt.Fprintf(w, "fixed overhead, counted once and not in the bytes: %s tokens (see docs/clients.md)\n", m.overhead)
		}
	}
}

// marginalJSON is a reader's entry in the --json "marginal" member: the
// total, the shared bytes and each tool's saving; client is null for the
// model read as measure counts it.
type marginalJSON struct {
	Client           *string            `json:"client"`
	TotalBytes       int64              `json:"total_bytes"`
	SharedBytes      int64              `json:"shared_bytes"`
	ToolsSavingBytes int64              `json:"tools_saving_bytes"`
	CheckHolds       bool               `json:"check_holds"`
	PerTool          []marginalToolJSON `json:"per_tool"`
}

type marginalToolJSON struct {
	Name         string `json:"name"`
	SavingBytes  int64  `json:"saving_bytes"`
	SavingTokens int64  `json:"saving_tokens"`
}

func marginalsJSON(r *report) []marginalJSON {
	out := []marginalJSON{}
	for _, m := range marginals(r) {
		e := marginalJSON{TotalBytes: m.total, SharedBytes: m.shared, PerTool: make([]marginalToolJSON, len(m.tools))}
		if m.reader != "" {
			e.Client = ptr(m.reader)
		}
		for i, mt := range m.tools {
			e.ToolsSavingBytes += mt.bytes
			e.PerTool[i] = marginalToolJSON{mt.name, mt.bytes, m.saving(mt.bytes)}
		}
		e.CheckHolds = e.ToolsSavingBytes+m.shared == m.total
		out = append(out, e)
	}
	return out
}
