package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/htmlreport"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
)

// htmlFlagUsage is --html's help, one text for measure and measure diff.
const htmlFlagUsage = "also write the report as one self-contained HTML page to `FILE`: a zoomable treemap of what a model reads, a sortable table, the findings (it works offline, from disk)"

// checkHTMLPath refuses an --html file that cannot be written, before
// anything is measured.
func checkHTMLPath(path string) error {
	if path == "" {
		return nil
	}
	if err := atomicfile.Writable(path); err != nil {
		return cli.Usage("--html %s: %v", path, unwrapPath(err))
	}
	return nil
}

// writeHTML writes page to path whole, or nothing.
func writeHTML(path string, page htmlreport.Page) error {
	var b bytes.Buffer
	if err := htmlreport.Write(&b, page); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b.Bytes()); err != nil {
		return cli.Usage("--html %s: %v", path, unwrapPath(err))
	}
	return nil
}

// measurePage is the page of measure's reports: one server per capture,
// its tools and their components, the findings and the what-ifs.
func measurePage(reports []*report, paths []string) (htmlreport.Page, error) {
	var t htmlreport.Tree
	if len(reports) > 0 {
		for _, c := range reports[0].figures.Tokenizers {
			t.Units = append(t.Units, c.Name)
		}
	}
	title := "what a model reads of " + escape.Term(paths[0])
	if len(paths) > 1 {
		title = fmt.Sprintf("what a model reads of %d tool lists", len(paths))
	}
	for i, r := range reports {
		p := r.profile
		if p == nil {
			var err error
			if p, err = toollist.ProfileBytes(r.capture); err != nil {
				return htmlreport.Page{}, err
			}
		}
		t.Servers = append(t.Servers, htmlreport.Server{
			Name:  escape.Term(budgetKey(paths[i])),
			Path:  escape.Term(paths[i]),
			Tools: htmlTools(r.figures, p),
		})
		t.Findings = append(t.Findings, htmlFindings(r)...)
		for _, f := range p.Findings {
			t.Findings = append(t.Findings, htmlreport.Finding{
				Text: escape.Term(fmt.Sprintf("%s: %d tools repeat %s bytes: %s", strings.ReplaceAll(f.Kind, "_", " "),
					len(f.Tools), group(f.Bytes), findingWhat(f))),
				SavingBytes: f.EstimatedSavingBytes, Estimate: true,
			})
		}
		for _, s := range r.savings {
			t.Savings = append(t.Savings, htmlreport.Saving{Name: escape.Term(s.Name), ModelReadBytes: s.ModelReadSavingBytes, WireBytes: s.WireSavingBytes, Tools: len(s.Tools)})
		}
	}
	return htmlreport.Page{Kind: htmlreport.KindMeasure, Title: title, Data: t}, nil
}

// htmlTools returns the treemap's tools of f, each split into the
// components of its profile p (every model-read byte in one), or, without
// a profile that matches the figures (a report read back), into what the
// figures tell apart: its description, the descriptions inside its
// schema, and the rest.
func htmlTools(f *toollist.Figures, p *toollist.ByteProfile) []htmlreport.Tool {
	k := len(f.Tokenizers)
	tools := make([]htmlreport.Tool, len(f.PerTool))
	for i, tf := range f.PerTool {
		t := htmlreport.Tool{Name: escape.Term(tf.Name), Bytes: tf.ModelReadBytes, Tokens: tf.ModelReadTokens}
		if k > 0 && (i+1)*k <= len(f.ToolTokenCounts) {
			t.Counts = f.ToolTokenCounts[i*k : (i+1)*k]
		}
		var tp toollist.ToolProfile
		if p != nil && p.Tools() == len(f.PerTool) {
			tp = p.Tool(i)
		}
		if p != nil && p.Tools() == len(f.PerTool) && tp.ModelReadBytes == tf.ModelReadBytes {
			for _, c := range tp.Components {
				t.Components = append(t.Components, htmlreport.Component{Name: strings.ReplaceAll(c.Name, "_", " "), Bytes: c.Bytes})
			}
		} else if rest := tf.ModelReadBytes - tf.DescriptionBytes - tf.FieldDescriptionBytes; rest >= 0 {
			t.Components = []htmlreport.Component{
				{Name: "description", Bytes: tf.DescriptionBytes},
				{Name: "field descriptions", Bytes: tf.FieldDescriptionBytes},
				{Name: "the rest", Bytes: rest},
			}
		}
		tools[i] = t
	}
	return tools
}

// htmlFindings are a report's findings and warnings, as the page lists
// them: budgets exceeded, ceilings passed, lints, then the rest of the
// warnings.
func htmlFindings(r *report) []htmlreport.Finding {
	var out []htmlreport.Finding
	for _, c := range r.budgets.With(gate.Over) {
		f := htmlreport.Finding{Text: escape.Term(fmt.Sprintf("%s: %s reads %s %s, over the budget of %s declared at %s",
			c.Key, c.Subject, units.Group(c.Read), unitName(c.Key), units.Group(c.Budget.Value), c.Budget.Where()))}
		if unitName(c.Key) == "tokens" {
			// floor(bytes/3) fits the budget from 3*budget+2 bytes down
			f.SavingBytes = c.Bytes - (3*c.Budget.Value + 2)
		}
		out = append(out, f)
	}
	for _, ov := range r.over {
		if ov.What == "instructions" {
			out = append(out, htmlreport.Finding{Text: fmt.Sprintf("the instructions are %s characters, over the ceiling of %s",
				units.Group(int64(ov.Chars)), units.Group(int64(ov.Max)))})
			continue
		}
		out = append(out, htmlreport.Finding{Tool: escape.Term(ov.Tool), Text: escape.Term(fmt.Sprintf("%s's description is %s characters, over the ceiling of %s",
			ov.Tool, units.Group(int64(ov.Chars)), units.Group(int64(ov.Max))))})
	}
	for _, w := range r.warnings {
		out = append(out, htmlreport.Finding{Text: escape.Term(w)})
	}
	return out
}

// diffPage is the page of measure diff: NEW's treemap, each tool with
// its bytes in OLD (matched by name, the first of a name), the tools
// removed, and the growth past --max-growth as findings.
func diffPage(oldPath, newPath string, old, nw *toollist.Figures, grown []growth, unit string) (htmlreport.Page, error) {
	var p *toollist.ByteProfile
	if c, err := toollist.Open(newPath, toollist.Options{}); err == nil { // else a report read back: no profile
		p, err = toollist.ProfileBytes(c)
		c.Close()
		if err != nil {
			return htmlreport.Page{}, err
		}
	}
	t := htmlreport.Tree{Servers: []htmlreport.Server{{Name: escape.Term(budgetKey(newPath)), Path: escape.Term(newPath), Tools: htmlTools(nw, p)}}}
	for _, c := range nw.Tokenizers {
		t.Units = append(t.Units, c.Name)
	}
	before := map[string]int64{}
	for _, tf := range old.PerTool {
		if _, ok := before[tf.Name]; !ok {
			before[tf.Name] = tf.ModelReadBytes
		}
	}
	now := map[string]bool{}
	tools := t.Servers[0].Tools
	for i, tf := range nw.PerTool {
		now[tf.Name] = true
		if b, ok := before[tf.Name]; ok {
			tools[i].Old = &b
		}
	}
	for _, tf := range old.PerTool {
		if !now[tf.Name] {
			b := tf.ModelReadBytes
			t.Removed = append(t.Removed, htmlreport.Tool{Name: escape.Term(tf.Name), Old: &b})
			now[tf.Name] = true // once
		}
	}
	for _, g := range grown {
		what := "the tool list"
		if g.what != "total" {
			what = g.what
		}
		t.Findings = append(t.Findings, htmlreport.Finding{Tool: escape.Term(g.what), Text: escape.Term(fmt.Sprintf("%s grew from %s to %s %s (%s, %s), past --max-growth %s",
			what, group(g.old), group(g.new), unit, units.Signed(g.new-g.old), units.Delta(g.old, g.new), g.limit.flag))})
	}
	return htmlreport.Page{Kind: htmlreport.KindDiff, Title: "what a model reads: " + escape.Term(oldPath) + " \u2192 " + escape.Term(newPath), Data: t}, nil
}
