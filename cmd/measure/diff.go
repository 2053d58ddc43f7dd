package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

const diffUsage = `usage: measure diff [--json | --markdown] OLD NEW

Compares two captures of a tools/list answer (any of the forms measure
reads; OLD may also be a report that measure --json wrote for one
capture): old, new and delta (%+.2f%%, "?" when old is 0) for every figure,
then each tool's model-read bytes, with the tools added and removed and a
total row. Tools are matched by name.

Flags:
  --json      print the comparison as JSON with exact integers
  --markdown  print the tables as Markdown
  -h, --help  print this help
`

const diffTail = `
Exit codes:
  0  compared
  2  usage or input error (one line naming the file and what is wrong)
`

// figureLabels names the compared figures in the table, by their --json
// names.
var figureLabels = map[string]string{
	"wire_bytes":                "wire bytes",
	"tools":                     "tools",
	"model_read_bytes":          "model-read bytes",
	"model_read_tokens":         "model-read tokens",
	"description_bytes":         "description bytes",
	"field_description_bytes":   "field description bytes",
	"longest_description_chars": "longest description chars",
}

func runDiff(stdout, _ io.Writer, args []string) error {
	fs := pflag.NewFlagSet("measure diff", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print the comparison as JSON with exact integers")
	asMarkdown := fs.Bool("markdown", false, "print the tables as Markdown")
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			io.WriteString(stdout, diffUsage+diffTail)
			return nil
		}
		return cli.Usage("diff: %v (see measure diff --help)", err)
	}
	if fs.NArg() != 2 {
		return cli.Usage("diff takes two captures, OLD and NEW; %d given (see measure diff --help)", fs.NArg())
	}
	oldPath, newPath := fs.Arg(0), fs.Arg(1)
	old, err := readFigures(oldPath)
	if err != nil {
		return err
	}
	nw, err := readFigures(newPath)
	if err != nil {
		return err
	}
	c := toollist.Compare(old, nw)
	if *asJSON && *asMarkdown {
		return cli.Usage("diff: --json and --markdown exclude each other")
	}
	if *asJSON {
		return printJSON(stdout, comparisonValue(oldPath, newPath, c))
	}
	if *asMarkdown {
		stdout = markdown{stdout}
	}
	fmt.Fprintf(stdout, "old: %s, %d %s\n", oldPath, old.Tools, plural(old.Tools, "tool", "tools"))
	fmt.Fprintf(stdout, "new: %s, %d %s\n\n", newPath, nw.Tools, plural(nw.Tools, "tool", "tools"))
	t := table.New("figure", "old", "new", "delta").Right(1, 2, 3)
	for _, r := range c.Figures {
		t.Add(figureLabels[r.Name], group(r.Old), group(r.New), units.Delta(r.Old, r.New))
	}
	render(stdout, t)
	fmt.Fprintln(stdout)
	tt := table.New("tool (model-read bytes)", "old", "new", "delta", "").Right(1, 2, 3)
	for _, r := range c.Tools {
		o, n, note := group(r.Old), group(r.New), ""
		switch {
		case r.Added:
			o, note = "-", "added"
		case r.Removed:
			n, note = "-", "removed"
		}
		tt.Add(r.Name, o, n, units.Delta(r.Old, r.New), note)
	}
	tt.Add("total", group(c.Total.Old), group(c.Total.New), units.Delta(c.Total.Old, c.Total.New), "")
	render(stdout, tt)
	if len(c.Added) > 0 || len(c.Removed) > 0 {
		fmt.Fprintln(stdout)
	}
	bullet := ""
	if *asMarkdown {
		bullet = "- "
	}
	if len(c.Added) > 0 {
		fmt.Fprintf(stdout, "%sadded: %s\n", bullet, joinNames(c.Added))
	}
	if len(c.Removed) > 0 {
		fmt.Fprintf(stdout, "%sremoved: %s\n", bullet, joinNames(c.Removed))
	}
	return nil
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
		return nil, inputError(err)
	}
	return f, nil
}

func rowValue(name string, old, new int64, extra ...jsonjs.Member) jsonjs.Value {
	ms := []jsonjs.Member{
		member("name", str(name)),
		member("old", num(old)),
		member("new", num(new)),
		member("change", num(new-old)),
		member("delta", str(units.Delta(old, new))),
	}
	return jsonjs.ObjectValue(append(ms, extra...))
}

func comparisonValue(oldPath, newPath string, c *toollist.Comparison) jsonjs.Value {
	figs := make([]jsonjs.Value, len(c.Figures))
	for i, r := range c.Figures {
		figs[i] = rowValue(r.Name, r.Old, r.New)
	}
	tools := make([]jsonjs.Value, len(c.Tools))
	for i, r := range c.Tools {
		status := "kept"
		switch {
		case r.Added:
			status = "added"
		case r.Removed:
			status = "removed"
		}
		tools[i] = rowValue(r.Name, r.Old, r.New, member("status", str(status)))
	}
	return jsonjs.ObjectValue([]jsonjs.Member{
		member("old", str(oldPath)),
		member("new", str(newPath)),
		member("figures", jsonjs.ArrayValue(figs)),
		member("per_tool", jsonjs.ArrayValue(tools)),
		member("total", rowValue(c.Total.Name, c.Total.Old, c.Total.New)),
		member("added", strs(c.Added)),
		member("removed", strs(c.Removed)),
	})
}
