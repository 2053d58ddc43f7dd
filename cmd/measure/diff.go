package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/tokenize"
	"github.com/readmeter/readmeter/toollist"
)

// diffDoc is what measure diff's help says between the usage and the flags.
const diffDoc = `Compares two captures of a tools/list answer (any of the forms measure
reads; OLD may also be a report that measure --json wrote for one
capture): old, new, change and delta (%+.2f%%, "?" when old is 0) for
every figure, then each tool's model-read bytes, with the tools added and
removed and a total row. Tools are matched by name.

--max-growth gates the growth of what a model reads, in tokens (--unit):
N% is growth past N percent of the old count, N is growth past N tokens;
give both to hold to both. It applies to the whole list and to each tool
(a tool added grows from nothing: only N tokens applies to it). Growth
past it is a finding: one line each on stderr, exit 1.

--why attributes the change of the model-read bytes to where it happened:
each tool added or removed, and inside a tool each JSON path of what a
model reads of it (name, description, input_schema and the schema's
properties, their descriptions, enums...) whose bytes moved, largest
growth first. A member added or removed counts its key, value and comma;
a value changed counts its own bytes; the commas and braces a container
gains or loses with its members are its "structure". The changes add up
to the total change, and the last line shows that check. OLD and NEW must
both be captures.
`

// figureLabels names the compared figures in the table, by their --json
// names.
var figureLabels = map[string]string{
	"wire_bytes":                "wire bytes",
	"tools":                     "tools",
	"model_read_bytes":          "model-read bytes",
	"model_read_tokens":         "model-read " + units.TokensLabel,
	"description_bytes":         "description bytes",
	"field_description_bytes":   "field description bytes",
	"longest_description_chars": "longest description chars",
}

func figureLabel(name string) string {
	if l, ok := figureLabels[name]; ok {
		return l
	}
	return strings.ReplaceAll(name, "_", " ")
}

// growthLimit is one --max-growth: a percentage or a number of tokens.
type growthLimit struct {
	flag   string
	pct    float64
	tokens int64
	isPct  bool
}

// exceeded reports whether growing from old to new passes the limit; a
// percentage does not apply when old is 0.
func (g growthLimit) exceeded(old, new int64) bool {
	grow := new - old
	if g.isPct {
		return old > 0 && float64(grow) > g.pct*float64(old)/100
	}
	return grow > g.tokens
}

// growth is one count that grew past a limit.
type growth struct {
	what     string // "total" or the tool
	old, new int64
	limit    growthLimit
}

func parseGrowth(flags []string) ([]growthLimit, error) {
	var out []growthLimit
	for _, f := range flags {
		g := growthLimit{flag: f}
		if v, ok := strings.CutSuffix(f, "%"); ok {
			p, err := strconv.ParseFloat(v, 64)
			if err != nil || p < 0 || math.IsInf(p, 0) || math.IsNaN(p) {
				return nil, cli.Usage("diff: --max-growth %s: want N%% (a percentage, such as 5%%) or N (tokens, such as 500)", f)
			}
			g.pct, g.isPct = p, true
		} else {
			n, err := strconv.ParseInt(strings.ReplaceAll(v, "_", ""), 10, 64)
			if err != nil || n < 0 {
				return nil, cli.Usage("diff: --max-growth %s: want N%% (a percentage, such as 5%%) or N (tokens, such as 500)", f)
			}
			g.tokens = n
		}
		out = append(out, g)
	}
	return out, nil
}

// diffRun is one `measure diff OLD NEW`, staged as measure's runs are:
// prepare (the flags read and checked), run (both read and compared, the
// changes classified and attributed, the growth held to --max-growth),
// report (--html, then the JSON or the tables) and the findings.
type diffRun struct {
	changed, why       bool
	asJSON, asMarkdown bool
	htmlPath           string
	unit               string
	limits             []growthLimit
	tks                []*tokenize.Tokenizer
	bf                 *breakingFlags
	oldPath, newPath   string
	old, nw            *toollist.Figures
	c                  *toollist.Comparison
	cls                *classified
	changes            []toollist.Change
	grown              []growth
}

func runDiff(stdout, stderr io.Writer, args []string) error {
	d, err := prepareDiff(stdout, args)
	if d == nil {
		return err // an error, or the help printed
	}
	if err := d.run(); err != nil {
		return err
	}
	return d.report(stdout, stderr)
}

// prepareDiff reads the flags and checks them. It returns a nil run with
// a nil error when it printed the help.
func prepareDiff(stdout io.Writer, args []string) (*diffRun, error) {
	d := &diffRun{}
	cmd := cli.NewCommand("measure diff", "measure diff [flags] OLD NEW")
	cmd.Doc = diffDoc + breakingDoc
	cmd.Exits = []int{cli.ExitOK, cli.ExitFinding, cli.ExitUsage, 130}
	fs := cmd.Flags
	fs.BoolVar(&d.changed, "changed", false, "show only the figures and tools that moved")
	maxGrowth := fs.StringArray("max-growth", nil, "fail when model-read tokens grow past N percent or N tokens (`N%|N`), in total or for one tool (repeatable)")
	fs.StringVar(&d.unit, "unit", "tokens", "the tokens --max-growth counts, a `UNIT`: tokens (bytes/3), o200k or cl100k (real tokenizers)")
	tokenizer := new(string)
	tokenizerFlag(fs, tokenizer)
	fs.BoolVar(&d.why, "why", false, "attribute every byte of the change to the tool and JSON path that moved, largest growth first, with the check that they add up (two captures)")
	d.bf = addBreakingFlags(cmd)
	fs.StringVar(&d.htmlPath, "html", "", htmlFlagUsage)
	cmd.JSON(&d.asJSON)
	cmd.Markdown(&d.asMarkdown)
	if help, err := cmd.Parse(stdout, args); help || err != nil {
		return nil, err
	}
	if fs.NArg() != 2 {
		return nil, cmd.Usagef("want two captures, OLD and NEW; %d given", fs.NArg())
	}
	if d.asJSON && d.asMarkdown {
		return nil, cmd.Usagef("--json and --markdown are two outputs; give one")
	}
	if err := checkHTMLPath(d.htmlPath); err != nil {
		return nil, err
	}
	var err error
	if d.limits, err = parseGrowth(*maxGrowth); err != nil {
		return nil, err
	}
	if err := d.bf.check(); err != nil {
		return nil, err
	}
	if d.tks, err = parseTokenizers(*tokenizer); err != nil {
		return nil, err
	}
	if err := d.checkUnit(); err != nil {
		return nil, err
	}
	d.oldPath, d.newPath = fs.Arg(0), fs.Arg(1)
	return d, nil
}

// checkUnit reads --unit, and counts with its tokenizer.
func (d *diffRun) checkUnit() error {
	if d.unit == "tokens" {
		return nil
	}
	n, ok := tokenize.Canonical(d.unit)
	if !ok {
		return cli.Usage("diff: --unit %s: use tokens, o200k or cl100k", d.unit)
	}
	d.unit = n
	if !slices.ContainsFunc(d.tks, func(t *tokenize.Tokenizer) bool { return t.Name() == n }) {
		t, err := tokenize.Get(n)
		if err != nil {
			return cli.Usage("diff: --unit %v", err)
		}
		d.tks = append(d.tks, t)
	}
	return nil
}

// run reads both, compares them, classifies the changes, attributes them
// with --why and holds the growth to --max-growth.
func (d *diffRun) run() error {
	var err error
	if d.old, err = readFiguresCounted(d.oldPath, d.tks); err != nil {
		return err
	}
	if d.nw, err = readFiguresCounted(d.newPath, d.tks); err != nil {
		return err
	}
	d.c = toollist.Compare(d.old, d.nw)
	if d.cls, err = classify(d.oldPath, d.newPath, d.bf); err != nil {
		return err
	}
	if d.why {
		if d.changes, err = whyChanges(d.oldPath, d.newPath); err != nil {
			return err
		}
	}
	if len(d.limits) > 0 {
		if d.grown, err = checkGrowth(d.c, d.old, d.nw, d.unit, d.limits, d.oldPath, d.newPath); err != nil {
			return err
		}
	}
	return nil
}

// report writes --html, then the JSON or the tables, and the findings.
func (d *diffRun) report(stdout, stderr io.Writer) error {
	if d.htmlPath != "" {
		page, err := diffPage(d.oldPath, d.newPath, d.old, d.nw, d.grown, d.unit)
		if err == nil {
			err = writeHTML(d.htmlPath, page)
		}
		if err != nil {
			return err
		}
	}
	if d.changed {
		d.c = onlyChanged(d.c)
	}
	if d.asJSON {
		v := comparisonJSON(d.oldPath, d.newPath, d.c, d.unit, d.limits, d.grown)
		if d.why {
			v.Why = whyJSON(d.changes, d.c.Total.New-d.c.Total.Old)
		}
		v.Changes = breakingJSON(d.cls, d.bf)
		if err := jsonout.Encode(stdout, v); err != nil {
			return err
		}
		return diffFindings(stderr, stderr, d.grown, d.unit, d.cls, d.bf)
	}
	annotate := stdout
	if d.asMarkdown {
		stdout, annotate, d.bf.markdown = markdown{stdout}, stderr, true
	}
	d.writeTables(stdout)
	return diffFindings(annotate, stderr, d.grown, d.unit, d.cls, d.bf)
}

// writeTables prints the comparison: the figures, the tools, the tools
// added and removed, --why's attribution and the changes classified.
func (d *diffRun) writeTables(stdout io.Writer) {
	c := d.c
	line(stdout, "old: %s, %d %s", d.oldPath, d.old.Tools, plural(d.old.Tools, "tool", "tools"))
	line(stdout, "new: %s, %d %s", d.newPath, d.nw.Tools, plural(d.nw.Tools, "tool", "tools"))
	if d.changed && len(c.Figures) == 0 && len(c.Tools) == 0 {
		fmt.Fprintln(stdout, "\nnothing moved")
	}
	if len(c.Figures) > 0 {
		fmt.Fprintln(stdout)
		t := table.New("figure", "old", "new", "change", "delta").Right(1, 2, 3, 4)
		for _, r := range c.Figures {
			t.Add(figureLabel(r.Name), group(r.Old), group(r.New), units.Signed(r.New-r.Old), units.Delta(r.Old, r.New))
		}
		render(stdout, t)
	}
	if len(c.Tools) > 0 || !d.changed {
		fmt.Fprintln(stdout)
		tt := table.New("tool (model-read bytes)", "old", "new", "change", "delta", "").Right(1, 2, 3, 4)
		for _, r := range c.Tools {
			o, n, note := group(r.Old), group(r.New), ""
			switch {
			case r.Added:
				o, note = "-", "added"
			case r.Removed:
				n, note = "-", "removed"
			}
			tt.Add(r.Name, o, n, units.Signed(r.New-r.Old), units.Delta(r.Old, r.New), note)
		}
		tt.Add("total", group(c.Total.Old), group(c.Total.New), units.Signed(c.Total.New-c.Total.Old), units.Delta(c.Total.Old, c.Total.New), "")
		render(stdout, tt)
	}
	if len(c.Added) > 0 || len(c.Removed) > 0 {
		fmt.Fprintln(stdout)
	}
	bullet := ""
	if d.asMarkdown {
		bullet = "- "
	}
	if len(c.Added) > 0 {
		fmt.Fprintf(stdout, "%sadded: %s\n", bullet, text(stdout, joinNames(c.Added)))
	}
	if len(c.Removed) > 0 {
		fmt.Fprintf(stdout, "%sremoved: %s\n", bullet, text(stdout, joinNames(c.Removed)))
	}
	if d.why {
		writeWhy(stdout, d.changes, c.Total.New-c.Total.Old)
	}
	writeBreaking(stdout, d.cls)
}

// diffFindings writes the CI outputs (annotations to annotate) and the
// findings: growth past --max-growth, changes at --fail-on's level.
func diffFindings(annotate, stderr io.Writer, grown []growth, unit string, cls *classified, bf *breakingFlags) error {
	if err := breakingCI(annotate, stderr, cls, bf); err != nil {
		return err
	}
	err := growthFindings(stderr, grown, unit)
	if breakingFindings(stderr, cls, bf) {
		err = cli.Silent
	}
	return err
}

// readFiguresCounted reads the figures of a capture or report; a capture
// is also counted with the tokenizers.
func readFiguresCounted(path string, tks []*tokenize.Tokenizer) (*toollist.Figures, error) {
	f, err := readFigures(path)
	if err != nil || len(tks) == 0 {
		return f, err
	}
	c, err := toollist.Open(path, toollist.Options{Counters: asCounters(tks)})
	if err != nil {
		return f, nil // a report: its own counts, if any
	}
	defer c.Close()
	return c.Figures, nil
}

// toolTokens returns a tool of f's tokens in unit, and whether it has
// them.
func toolTokens(f *toollist.Figures, t toollist.ToolFigures, unit string) (int64, bool) {
	if unit == "tokens" {
		return t.ModelReadTokens, true
	}
	return toollist.TokenizerTokens(f.ToolTokens(t.Index), unit)
}

// checkGrowth holds the total and each tool to the limits.
func checkGrowth(c *toollist.Comparison, old, nw *toollist.Figures, unit string, limits []growthLimit, oldPath, newPath string) ([]growth, error) {
	total := func(f *toollist.Figures, path string) (int64, error) {
		if unit == "tokens" {
			return f.ModelReadTokens, nil
		}
		if n, ok := toollist.TokenizerTokens(f.Tokenizers, unit); ok {
			return n, nil
		}
		return 0, cli.Usage("diff: --unit %s: %s has no %s counts (a report measured without --tokenizer %s)", unit, path, unit, unit)
	}
	ot, err := total(old, oldPath)
	if err != nil {
		return nil, err
	}
	nt, err := total(nw, newPath)
	if err != nil {
		return nil, err
	}
	var out []growth
	for _, l := range limits {
		if l.exceeded(ot, nt) {
			out = append(out, growth{what: "total", old: ot, new: nt, limit: l})
		}
	}
	for _, r := range c.Tools {
		if r.Removed {
			continue
		}
		n, _ := toolTokens(nw, r.NewFig, unit)
		var o int64
		if !r.Added {
			o, _ = toolTokens(old, r.OldFig, unit)
		}
		for _, l := range limits {
			if l.exceeded(o, n) {
				out = append(out, growth{what: r.Name, old: o, new: n, limit: l})
			}
		}
	}
	return out, nil
}

func growthFindings(stderr io.Writer, grown []growth, unit string) error {
	for _, g := range grown {
		what := "the tool list"
		if g.what != "total" {
			what = g.what
		}
		line(stderr, "measure: diff: %s grew from %s to %s %s (%s, %s), past --max-growth %s",
			what, group(g.old), group(g.new), unit, units.Signed(g.new-g.old), units.Delta(g.old, g.new), g.limit.flag)
	}
	if len(grown) > 0 {
		return cli.Silent
	}
	return nil
}

// onlyChanged keeps the figures and tools that moved.
func onlyChanged(c *toollist.Comparison) *toollist.Comparison {
	out := *c
	out.Figures = nil
	for _, r := range c.Figures {
		if r.Old != r.New {
			out.Figures = append(out.Figures, r)
		}
	}
	out.Tools = nil
	for _, r := range c.Tools {
		if r.Added || r.Removed || r.Old != r.New {
			out.Tools = append(out.Tools, r)
		}
	}
	return &out
}

func joinNames(ns []string) string {
	out := ""
	for i, n := range ns {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

func readFigures(path string) (*toollist.Figures, error) {
	f, err := toollist.ReadFigures(path)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// diffJSON is measure diff's --json report; why with --why, changes
// null when either side is a report.
type diffJSON struct {
	Old     string         `json:"old"`
	New     string         `json:"new"`
	Figures []rowJSON      `json:"figures"`
	PerTool []rowJSON      `json:"per_tool"`
	Total   rowJSON        `json:"total"`
	Added   []string       `json:"added"`
	Removed []string       `json:"removed"`
	Growth  growthJSON     `json:"growth"`
	Why     *whyReportJSON `json:"why,omitempty"`
	Changes *changesJSON   `json:"changes"`
}

// rowJSON is a figure or a tool, old and new; a tool's status is kept,
// added or removed.
type rowJSON struct {
	Name   string `json:"name"`
	Old    int64  `json:"old"`
	New    int64  `json:"new"`
	Change int64  `json:"change"`
	Delta  string `json:"delta"`
	Status string `json:"status,omitempty"`
}

func row(name string, old, new int64) rowJSON {
	return rowJSON{Name: name, Old: old, New: new, Change: new - old, Delta: string(units.Delta(old, new))}
}

type growthJSON struct {
	Unit      string      `json:"unit"`
	MaxGrowth []string    `json:"max_growth"`
	Over      []grownJSON `json:"over"`
}

type grownJSON struct {
	What      string `json:"what"`
	Old       int64  `json:"old"`
	New       int64  `json:"new"`
	Change    int64  `json:"change"`
	MaxGrowth string `json:"max_growth"`
}

func comparisonJSON(oldPath, newPath string, c *toollist.Comparison, unit string, limits []growthLimit, grown []growth) *diffJSON {
	d := &diffJSON{
		Old: oldPath, New: newPath,
		Figures: make([]rowJSON, len(c.Figures)), PerTool: make([]rowJSON, len(c.Tools)),
		Total: row(c.Total.Name, c.Total.Old, c.Total.New), Added: c.Added, Removed: c.Removed,
		Growth: growthJSON{Unit: unit, MaxGrowth: make([]string, len(limits)), Over: make([]grownJSON, len(grown))},
	}
	for i, r := range c.Figures {
		d.Figures[i] = row(r.Name, r.Old, r.New)
	}
	for i, r := range c.Tools {
		d.PerTool[i], d.PerTool[i].Status = row(r.Name, r.Old, r.New), "kept"
		switch {
		case r.Added:
			d.PerTool[i].Status = "added"
		case r.Removed:
			d.PerTool[i].Status = "removed"
		}
	}
	for i, l := range limits {
		d.Growth.MaxGrowth[i] = l.flag
	}
	for i, g := range grown {
		d.Growth.Over[i] = grownJSON{g.what, g.old, g.new, g.new - g.old, g.limit.flag}
	}
	return d
}

// whyChanges reads both captures and attributes the change between them.
func whyChanges(oldPath, newPath string) ([]toollist.Change, error) {
	read := func(path string) (*toollist.Capture, error) {
		c, err := toollist.Open(path, toollist.Options{})
		if err != nil {
			if _, rerr := toollist.ReadFigures(path); rerr == nil {
				return nil, cli.Usage("diff --why: %s is a report: --why compares what the tools say, so give the capture itself", path)
			}
		}
		return c, err
	}
	o, err := read(oldPath)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	n, err := read(newPath)
	if err != nil {
		return nil, err
	}
	defer n.Close()
	return toollist.Why(o, n)
}

// writeWhy prints the changes, largest growth first, and the check that
// they add up to the total change.
func writeWhy(w io.Writer, changes []toollist.Change, total int64) {
	fmt.Fprintln(w)
	t := table.New("why: tool", "path (model-read bytes)", "old", "new", "change", "").Right(2, 3, 4)
	var sum int64
	for _, c := range changes {
		sum += c.Delta()
		path := c.Path
		if path == "" {
			path = "(the whole tool)"
		}
		t.Add(c.Tool, path, group(c.Old), group(c.New), units.Signed(c.Delta()), c.Status)
	}
	if len(changes) == 0 {
		t.Add("(nothing moved)", "", "", "", "+0", "")
	}
	render(w, t)
	mark := "holds"
	if sum != total {
		mark = "DOES NOT HOLD"
	}
	fmt.Fprintf(w, "\ncheck: the %d %s %s to %s bytes, the change of the model-read bytes is %s (%s)\n",
		len(changes), plural(len(changes), "change", "changes"), plural(len(changes), "adds up", "add up"), units.Signed(sum), units.Signed(total), mark)
}

// whyReportJSON is the --json "why" member: the changes, largest growth
// first, and the check that they add up to the total change.
type whyReportJSON struct {
	Changes     []whyJSONChange `json:"changes"`
	Sum         int64           `json:"sum"`
	TotalChange int64           `json:"total_change"`
	Holds       bool            `json:"holds"`
}

type whyJSONChange struct {
	Tool   string `json:"tool"`
	Path   string `json:"path"`
	Status string `json:"status"`
	Old    int64  `json:"old"`
	New    int64  `json:"new"`
	Change int64  `json:"change"`
}

func whyJSON(changes []toollist.Change, total int64) *whyReportJSON {
	w := &whyReportJSON{Changes: make([]whyJSONChange, len(changes)), TotalChange: total}
	for i, c := range changes {
		w.Sum += c.Delta()
		w.Changes[i] = whyJSONChange{c.Tool, c.Path, c.Status, c.Old, c.New, c.Delta()}
	}
	w.Holds = w.Sum == total
	return w
}
