package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/readmeter/readmeter/compat"
	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/ghactions"
	"github.com/readmeter/readmeter/internal/junit"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// breakingDoc is what measure diff's help says of the classified changes.
const breakingDoc = `
When OLD and NEW are both captures, every change between them is listed
with what it does to a client written against OLD: a rule id, the tool,
the JSON path and a level. Breaking: a tool removed or renamed, a
parameter removed, a new required parameter, a type changed or narrowed,
an enum value removed, a bound tightened (maxLength, minimum, pattern,
minItems...), additionalProperties closed, an output field removed or made
optional. Warning: an annotation that promises less (readOnlyHint true to
false, destructiveHint false to true, idempotentHint true to false,
openWorldHint false to true). Compatible: the rest (an optional parameter
added, a bound loosened, a description changed, a tool added). Schemas are
compared by meaning: local $refs resolved, key order ignored. Each rule is
documented in docs/breaking.md.

--fail-on breaking|warning makes a change of that level or worse a
finding: one line each on stderr, exit 1. --junit FILE writes a JUnit
report, one case per tool; --github prints an annotation for each warning
or breaking change on the line of the capture where its tool is (on
stderr with --json or --markdown), and writes the changes to the step
summary (not with --markdown: that output is for the summary itself).
`

// breakingFlags are measure diff's flags for the classified changes.
type breakingFlags struct {
	failOn string
	level  compat.Level
	junit  string
	github bool
	// markdown: the report itself is Markdown, for the user to put in
	// the summary; --github leaves the step summary alone.
	markdown bool
}

func addBreakingFlags(cmd *cli.Command) *breakingFlags {
	b := &breakingFlags{}
	cmd.Flags.StringVar(&b.failOn, "fail-on", "", "fail when a change of this `LEVEL` or worse is found: breaking or warning")
	cmd.JUnit(&b.junit)
	cmd.GitHub(&b.github)
	return b
}

// check reads --fail-on.
func (b *breakingFlags) check() error {
	if b.failOn == "" {
		return nil
	}
	l, ok := compat.ParseLevel(b.failOn)
	if !ok || l == compat.Compatible {
		return cli.Usage("diff: --fail-on %s: use breaking or warning", b.failOn)
	}
	b.level = l
	if b.junit != "" {
		if err := atomicfile.Writable(b.junit); err != nil {
			return cli.Usage("--junit %s: %v", b.junit, unwrapPath(err))
		}
	}
	return nil
}

// classified is the changes between two captures, with where each tool
// is.
type classified struct {
	oldPath, newPath string
	changes          []compat.Change
	// tools names every tool, the new list's then those only in the old.
	tools []string
	// oldLine and newLine give each tool's line in its capture.
	oldLine, newLine map[string]int
}

// classify reads both captures and lists the changes; nil when either is
// a report (it holds no schemas), an input error when --fail-on, --junit
// or --github asks for them.
func classify(oldPath, newPath string, b *breakingFlags) (*classified, error) {
	read := func(path string) ([]jsonjs.Value, map[string]int, bool, error) {
		c, err := toollist.Open(path, toollist.Options{})
		if err != nil {
			if _, rerr := toollist.ReadFigures(path); rerr == nil {
				return nil, nil, false, nil
			}
			return nil, nil, false, err
		}
		defer c.Close()
		vs := make([]jsonjs.Value, len(c.Tools))
		lines := map[string]int{}
		for i := range c.Tools {
			if vs[i], err = c.Tool(i); err != nil {
				return nil, nil, false, err
			}
			if n, ok := vs[i].Get("name"); ok && n.Kind() == jsonjs.String {
				if _, seen := lines[n.Str()]; !seen {
					lines[n.Str()] = c.ToolLine(i)
				}
			}
		}
		return vs, lines, true, nil
	}
	o, ol, ok1, err := read(oldPath)
	if err != nil {
		return nil, err
	}
	n, nl, ok2, err := read(newPath)
	if err != nil {
		return nil, err
	}
	if !ok1 || !ok2 {
		report := oldPath
		if ok1 {
			report = newPath
		}
		if b.failOn != "" || b.junit != "" {
			return nil, cli.Usage("diff: %s is a report: --fail-on and --junit compare what the tools say, so give the capture itself", report)
		}
		return nil, nil
	}
	r := &classified{oldPath: oldPath, newPath: newPath, changes: compat.Compare(o, n), oldLine: ol, newLine: nl}
	seen := map[string]bool{}
	for _, vs := range [][]jsonjs.Value{n, o} {
		for i, t := range vs {
			name := fmt.Sprintf("tools[%d]", i)
			if v, ok := t.Get("name"); ok && v.Kind() == jsonjs.String {
				name = v.Str()
			}
			if !seen[name] {
				seen[name] = true
				r.tools = append(r.tools, name)
			}
		}
	}
	return r, nil
}

// cut shortens a value's text for a table cell.
func cut(s string) string {
	const most = 40
	r := []rune(s)
	if len(r) <= most {
		return s
	}
	return string(r[:most-1]) + "…"
}

// countsText says how many changes there are of each level.
func countsText(cs []compat.Change) string {
	n := compat.Count(cs)
	return fmt.Sprintf("%d breaking, %d %s, %d compatible", n[compat.Breaking], n[compat.Warning], plural(n[compat.Warning], "warning", "warnings"), n[compat.Compatible])
}

// writeBreaking prints the changes, worst first.
func writeBreaking(w io.Writer, r *classified) {
	if r == nil {
		return
	}
	fmt.Fprintln(w)
	line(w, "changes: %s", countsText(r.changes))
	if len(r.changes) == 0 {
		return
	}
	fmt.Fprintln(w)
	t := table.New("level", "rule", "tool", "path", "old", "new")
	for _, c := range r.changes {
		t.Add(c.Level.String(), c.Rule, c.Tool, c.Path, cut(c.Old), cut(c.New))
	}
	render(w, t)
}

// changesJSON is the --json "changes" member: the counts of each level
// and every change.
type changesJSON struct {
	FailOn     string       `json:"fail_on"`
	Breaking   int          `json:"breaking"`
	Warning    int          `json:"warning"`
	Compatible int          `json:"compatible"`
	List       []changeJSON `json:"list"`
}

type changeJSON struct {
	Level string `json:"level"`
	Rule  string `json:"rule"`
	Tool  string `json:"tool"`
	Path  string `json:"path"`
	Old   string `json:"old"`
	New   string `json:"new"`
	Says  string `json:"says"`
}

// breakingJSON is the --json "changes" member; nil (null) when either
// side is a report.
func breakingJSON(r *classified, b *breakingFlags) *changesJSON {
	if r == nil {
		return nil
	}
	n := compat.Count(r.changes)
	cs := &changesJSON{b.failOn, n[compat.Breaking], n[compat.Warning], n[compat.Compatible], make([]changeJSON, len(r.changes))}
	for i, c := range r.changes {
		cs.List[i] = changeJSON{c.Level.String(), c.Rule, c.Tool, c.Path, c.Old, c.New, c.Says()}
	}
	return cs
}

// failing returns the changes at --fail-on's level or worse.
func (b *breakingFlags) failing(r *classified) []compat.Change {
	var out []compat.Change
	if r == nil || b.failOn == "" {
		return nil
	}
	if worst, some := compat.Worst(r.changes); !some || worst < b.level {
		return nil
	}
	for _, c := range r.changes {
		if c.Level >= b.level {
			out = append(out, c)
		}
	}
	return out
}

// breakingFindings prints one line on stderr for each change at
// --fail-on's level or worse.
func breakingFindings(stderr io.Writer, r *classified, b *breakingFlags) bool {
	fail := b.failing(r)
	for _, c := range fail {
		at := c.Tool
		if c.Path != "" {
			at += ": " + c.Path
		}
		line(stderr, "measure: diff: %s: %s (%s): %s", at, c.Level, c.Rule, c.Says())
	}
	return len(fail) > 0
}

// breakingCI writes --junit and, with --github, the annotations to w
// and the changes to the step summary.
func breakingCI(w, stderr io.Writer, r *classified, b *breakingFlags) error {
	if r == nil {
		return nil
	}
	if b.junit != "" {
		data, err := breakingJUnit(r, b).Marshal()
		if err == nil {
			err = atomicfile.Write(b.junit, data)
		}
		if err != nil {
			return fmt.Errorf("--junit %s: %v", b.junit, unwrapPath(err))
		}
	}
	if !b.github {
		return nil
	}
	for _, a := range breakingAnnotations(r, b) {
		fmt.Fprintln(w, a)
	}
	if b.markdown {
		return nil
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "### measure diff: %s\n", countsText(r.changes))
	writeBreaking(markdown{&buf}, r)
	buf.WriteString("\n")
	if err := ghactions.AppendSummary(buf.Bytes()); err != nil {
		line(stderr, "measure: warning: --github: the step summary: %v", err)
	}
	return nil
}

// changeText is one change on one line.
func changeText(c compat.Change) string {
	s := c.Level.String() + " " + c.Rule
	if c.Path != "" {
		s += " at " + c.Path
	}
	if c.Old != "" || c.New != "" {
		s += ": " + cut(c.Old) + " -> " + cut(c.New)
	}
	return s
}

// breakingJUnit is one case per tool: failed when a change of --fail-on's
// level or worse touches it (breaking when --fail-on is not given).
func breakingJUnit(r *classified, b *breakingFlags) *junit.Report {
	jr := &junit.Report{Name: "measure diff"}
	s := jr.Suite("changes from " + r.oldPath + " to " + r.newPath)
	level := compat.Breaking
	if b.failOn != "" {
		level = b.level
	}
	for _, name := range r.tools {
		tc := junit.Case{Name: name, Class: r.newPath}
		if _, ok := r.newLine[name]; !ok {
			tc.Class = r.oldPath
		}
		var all, bad string
		var nbad int
		for _, c := range r.changes {
			if c.Tool != name {
				continue
			}
			all += changeText(c) + "\n"
			if c.Level >= level {
				bad += changeText(c) + "\n"
				nbad++
			}
		}
		tc.Out = all
		if nbad > 0 {
			tc.Failure = &junit.Problem{Type: level.String() + " change", Message: fmt.Sprintf("%d %s %s", nbad, level, plural(nbad, "change", "changes")), Text: bad}
		}
		s.Add(tc)
	}
	return jr
}

// breakingAnnotations are the warning and breaking changes on the line of
// their tool: in the new capture, or the old one for a tool gone.
func breakingAnnotations(r *classified, b *breakingFlags) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, c := range r.changes {
		if c.Level == compat.Compatible {
			continue
		}
		a := ghactions.Annotation{Level: ghactions.Warning, Title: c.Tool + ": " + c.Rule, Message: c.Says() + "\n" + changeText(c)}
		if b.failOn != "" && c.Level >= b.level {
			a.Level = ghactions.Error
		}
		if n, ok := r.newLine[c.Tool]; ok && c.Rule != "tool-renamed" {
			a.File, a.Line = ghactions.Path(r.newPath), n
		} else {
			a.File, a.Line = ghactions.Path(r.oldPath), r.oldLine[c.Tool]
		}
		out = append(out, a)
	}
	return out
}
