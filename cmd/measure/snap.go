package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/compat"
	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// snapDoc is what measure snap's help says between the usage and the flags.
const snapDoc = `measure snap keeps a snapshot of a tool list: one file per tool in DIR,
TOOL.json, holding every member the server lists for the tool (name,
title, description, inputSchema, outputSchema, annotations, execution,
icons, _meta and any other), indented two spaces, with a final newline.
The Tool members come in that order, any other after them by key, and
every object inside has its keys sorted: the file is stable across runs
however the server orders its keys, so that a change to a tool shows in a
pull request as a diff of its file.

With neither flag, it writes the snapshot when DIR holds none yet (DIR is
missing, or holds no TOOL.json file), and checks it when DIR does.
--check compares and exits 1 on any change, showing each tool added,
removed or changed: every JSON path that changed with its level as
measure diff classifies it (breaking, warning, compatible), then the
lines of the file that differ (nothing is written).
--update rewrites DIR to match the capture, removing the files of tools
that are gone.

A snapshot that an earlier version wrote (what a model reads of each tool:
name, description, input_schema) is read as the tool it describes; --check
says whether it still holds the tool as listed, and --update rewrites it
whole.

A tool's file name is its name with every character other than letters,
digits, '.', '_' and '-' made '_'; two tools that map to one name are an
input error.
`

func runSnap(stdout, stderr io.Writer, args []string) error {
	c := cli.NewCommand("measure snap", "measure snap [--check | --update] DIR CAPTURE")
	c.Doc = snapDoc
	c.Exits = []int{cli.ExitOK, cli.ExitFinding, cli.ExitUsage, 130}
	fs := c.Flags
	check := fs.Bool("check", false, "compare only: exit 1 with a diff when any tool differs")
	var update bool
	c.Update(&update)
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return c.Usagef("want DIR and CAPTURE; %d given", fs.NArg())
	}
	if *check && update {
		return c.Usagef("--check and --update exclude each other")
	}
	dir, path := fs.Arg(0), fs.Arg(1)
	set, err := snapshot(path)
	if err != nil {
		return err
	}
	want, order := set.files, set.order
	have, err := readSnapshot(dir)
	if err != nil {
		return err
	}
	if !*check && !update && len(have) == 0 {
		update = true // no snapshot yet: no DIR, or one made for it and empty
	}
	if update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return cli.Usage("snap: %s: %v", dir, unwrapPath(err))
		}
		written := 0
		for _, name := range order {
			if old, ok := have[name]; ok && bytes.Equal(old, want[name]) {
				continue
			}
			if err := atomicfile.Write(filepath.Join(dir, name), want[name]); err != nil {
				return cli.Usage("snap: %s: %v", filepath.Join(dir, name), unwrapPath(err))
			}
			written++
		}
		removed := 0
		for name := range have {
			if _, ok := want[name]; !ok {
				if err := os.Remove(filepath.Join(dir, name)); err != nil {
					return cli.Usage("snap: %v", err)
				}
				removed++
			}
		}
		line(stdout, "%s: %d %s from %s; %d written, %d removed", dir, len(order), plural(len(order), "tool", "tools"), path, written, removed)
		return nil
	}
	// check
	var changed []string
	for _, name := range order {
		old, ok := have[name]
		switch {
		case !ok:
			changed = append(changed, name)
			line(stdout, "added: %s", filepath.Join(dir, name))
			fmt.Fprint(stdout, lineDiff(nil, want[name]))
		case !bytes.Equal(old, want[name]):
			changed = append(changed, name)
			line(stdout, "changed: %s", filepath.Join(dir, name))
			snapChanges(stdout, old, set.earlier[name], set.tools[name])
			fmt.Fprint(stdout, lineDiff(old, want[name]))
		}
	}
	var gone []string
	for name := range have {
		if _, ok := want[name]; !ok {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		changed = append(changed, name)
		line(stdout, "removed: %s", filepath.Join(dir, name))
	}
	if len(changed) == 0 {
		line(stdout, "%s: %d %s, as %s lists them", dir, len(order), plural(len(order), "tool", "tools"), path)
		return nil
	}
	line(stderr, "measure: snap: %s: %d of %d %s differ from %s (measure snap --update %s %s rewrites them)",
		dir, len(changed), len(order)+len(gone), plural(len(order)+len(gone), "tool", "tools"), path, dir, path)
	return cli.Silent
}

// lineDiff returns the lines that differ between old and new, as a
// unified diff writes them ("-" old, "+" new, " " around them), two lines
// of context, "@@" between distant changes; each line indented two spaces
// and escaped for a terminal (a description may hold anything).
func lineDiff(old, new []byte) string {
	a, b := splitLines(old), splitLines(new)
	// lcs[i][j]: the longest common subsequence of a[i:] and b[j:]
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ls []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ls = append(ls, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ls = append(ls, line{'-', a[i]})
			i++
		default:
			ls = append(ls, line{'+', b[j]})
			j++
		}
	}
	const context = 2
	keep := make([]bool, len(ls))
	for k, l := range ls {
		if l.op != ' ' {
			for c := max(0, k-context); c <= min(len(ls)-1, k+context); c++ {
				keep[c] = true
			}
		}
	}
	var out strings.Builder
	skipped := false
	for k, l := range ls {
		if !keep[k] {
			skipped = true
			continue
		}
		if skipped && out.Len() > 0 {
			out.WriteString("  @@\n")
		}
		skipped = false
		out.WriteString("  " + string(l.op) + " " + escape.Term(l.text) + "\n")
	}
	return out.String()
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// snapSet is a capture's snapshot: each tool's file, its tool and its
// file in the earlier form (what a model reads of it), by file name, and
// the file names in the capture's order.
type snapSet struct {
	files, earlier map[string][]byte
	tools          map[string]jsonjs.Value
	order          []string
}

// snapshot returns a capture's snapshot.
func snapshot(path string) (*snapSet, error) {
	c, err := toollist.Open(path, toollist.Options{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	out := map[string][]byte{}
	earlier := map[string][]byte{}
	tools := map[string]jsonjs.Value{}
	from := map[string]string{}
	var order []string
	for i := range c.Tools {
		t, err := c.Tool(i)
		if err != nil {
			return nil, err
		}
		tname := fmt.Sprintf("tools[%d]", i)
		if n, ok := t.Get("name"); ok && n.Kind() == jsonjs.String {
			tname = n.Str()
		}
		name := fileSafe(tname) + ".json"
		if prev, dup := from[name]; dup {
			return nil, cli.Usage("snap: %s: the tools %q and %q would share the file %s", path, prev, tname, name)
		}
		if len(name) > maxFileName {
			// Refused here, before a file is written: a snapshot is written whole or not at all.
			return nil, cli.Usage("snap: %s: the tool name %s makes a file name of %d bytes, more than the %d a file system takes; a snapshot cannot hold it", path, clipName(tname), len(name), maxFileName)
		}
		from[name] = tname
		out[name] = append(jsonout.Indent(nil, jsonjs.Stringify(toollist.Snapshot(t)), nil), '\n')
		text, err := c.ModelReadText(i)
		if err != nil {
			return nil, err
		}
		earlier[name] = append(jsonout.Indent(nil, text, nil), '\n')
		tools[name] = t
		order = append(order, name)
	}
	return &snapSet{files: out, earlier: earlier, tools: tools, order: order}, nil
}

// snapTool reads a snapshot file as the tool it describes; a file in the
// earlier form (name, description, input_schema) has its input_schema
// read as inputSchema, and legacy true. ok is false when the file is not
// JSON.
func snapTool(b []byte) (tool jsonjs.Value, legacy, ok bool) {
	v, err := jsonjs.Parse(b)
	if err != nil || v.Kind() != jsonjs.Object {
		return v, false, false
	}
	if _, has := v.Get("inputSchema"); has {
		return v, false, true
	}
	if _, has := v.Get("input_schema"); !has {
		return v, false, true
	}
	ms := make([]jsonjs.Member, len(v.Members()))
	for i, m := range v.Members() {
		if m.Key == "input_schema" {
			m.Key = "inputSchema"
		}
		ms[i] = m
	}
	return jsonjs.ObjectValue(ms), true, true
}

// snapChanges prints each JSON path that changed from a snapshot file to
// the capture's tool, with its level and rule; earlier is the file the
// tool would have in the earlier form.
func snapChanges(w io.Writer, old, earlier []byte, tool jsonjs.Value) {
	ot, legacy, ok := snapTool(old)
	if !ok {
		line(w, "  (the file is not a JSON object)")
		return
	}
	switch {
	case legacy && bytes.Equal(old, earlier):
		line(w, "  (the file is in the earlier form, what a model reads, and holds the tool as listed; --update writes the whole tool)")
	case legacy:
		line(w, "  (the file is in the earlier form, what a model reads; --update writes the whole tool)")
	}
	for _, c := range compat.Compare([]jsonjs.Value{ot}, []jsonjs.Value{tool}) {
		path := c.Path
		if path == "" {
			path = "(the tool)"
		}
		line(w, "  %s: %s (%s): %s -> %s", path, c.Level, c.Rule, orNone(cut(c.Old)), orNone(cut(c.New)))
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// maxFileName is the most bytes a file name may have (NAME_MAX on Linux
// and macOS, and NTFS's 255 UTF-16 units for the ASCII names fileSafe
// makes).
const maxFileName = 255

// clipName quotes a tool name for a message, its middle left out when
// it is long.
func clipName(name string) string {
	if len(name) > 40 {
		name = name[:20] + "..." + name[len(name)-12:]
	}
	return strconv.Quote(name)
}

// readSnapshot reads the *.json files of dir; nil when dir does not exist.
func readSnapshot(dir string) (map[string][]byte, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, cli.Usage("snap: %s: %v", dir, unwrapPath(err))
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if !e.Type().IsRegular() {
			// A link would be read (or its target shown in a diff) from
			// outside DIR: a snapshot holds files, nothing else.
			return nil, cli.Usage("snap: %s is not a regular file (a symbolic link?): a snapshot holds one file per tool; remove it", filepath.Join(dir, e.Name()))
		}
		b, err := infile.Read(filepath.Join(dir, e.Name()), "snapshot file", infile.Max)
		if err != nil {
			return nil, cli.Usage("snap: %v", err)
		}
		out[e.Name()] = b
	}
	return out, nil
}
