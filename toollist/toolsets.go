package toollist

import (
	"errors"

	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
)

// Toolset is a named set of tools, as a server offers a part of its list
// (the service's /mcp?tools=<set>).
type Toolset struct {
	Name  string
	Tools []string
}

// ReadToolsets reads a toolsets file: a JSON object from set name to an
// array of tool names, {"tasks": ["a_guide", "a_task"], ...}. The sets keep
// the file's order (JavaScript property order).
func ReadToolsets(path string) ([]Toolset, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseToolsets(path, data)
}

// ParseToolsets reads a toolsets file from its bytes; path names it in
// errors.
func ParseToolsets(path string, data []byte) ([]Toolset, error) {
	v, err := parseFile(path, data, "a JSON object from set name to an array of tool names")
	if err != nil {
		return nil, err
	}
	if v.Kind() != jsonjs.Object {
		return nil, inputErr(path, "is %s: a toolsets file is a JSON object from set name to an array of tool names", article(v.Kind()))
	}
	var sets []Toolset
	for _, m := range v.Members() {
		if m.Value.Kind() != jsonjs.Array {
			return nil, inputErr(path, "%q is %s, not an array of tool names", m.Key, article(m.Value.Kind()))
		}
		set := Toolset{Name: m.Key}
		seen := map[string]bool{}
		for i, e := range m.Value.Elems() {
			if e.Kind() != jsonjs.String {
				return nil, inputErr(path, "%q[%d] is %s, not a tool name", m.Key, i, article(e.Kind()))
			}
			if seen[e.Str()] {
				return nil, inputErr(path, "%q names %s twice", m.Key, e.Str())
			}
			seen[e.Str()] = true
			set.Tools = append(set.Tools, e.Str())
		}
		sets = append(sets, set)
	}
	return sets, nil
}

// parseFile decodes and parses a small JSON file whole; want says what the
// file should hold when it is empty.
func parseFile(path string, data []byte, want string) (jsonjs.Value, error) {
	if len(data) == 0 {
		return jsonjs.Value{}, inputErr(path, "empty file: want %s", want)
	}
	var page *infile.Error
	if errors.As(infile.WebPage(path, data, "JSON file", "want "+want+" (the raw file, not its web page)"), &page) {
		return jsonjs.Value{}, inputErr(path, "line %d: %s", page.Line, page.Msg)
	}
	text, _ := jsonjs.Decode(data)
	v, err := jsonjs.Parse(text)
	if err != nil {
		return v, inputErr(path, "%v", err)
	}
	return v, nil
}

// ToolsetFigures are what a model reads of one toolset.
type ToolsetFigures struct {
	Name string
	// Tools are the set's tools in the capture's order.
	Tools           []string
	ModelReadBytes  int64
	ModelReadTokens int64
}

// MeasureToolsets counts each set's tools from the capture's figures. A
// tool the set names and the capture lacks is an error naming both; a set
// holds every tool of the capture that bears one of its names.
func MeasureToolsets(f *Figures, path string, sets []Toolset) ([]ToolsetFigures, error) {
	have := make(map[string]bool, len(f.PerTool))
	for _, t := range f.PerTool {
		have[t.Name] = true
	}
	out := make([]ToolsetFigures, 0, len(sets))
	for _, s := range sets {
		want := make(map[string]bool, len(s.Tools))
		for _, n := range s.Tools {
			if !have[n] {
				return nil, inputErr(path, "toolset %q names %s, which the capture lacks", s.Name, n)
			}
			want[n] = true
		}
		tf := ToolsetFigures{Name: s.Name, Tools: []string{}}
		for _, t := range f.PerTool {
			if want[t.Name] {
				tf.Tools = append(tf.Tools, t.Name)
				tf.ModelReadBytes += t.ModelReadBytes
			}
		}
		tf.ModelReadTokens = units.Tokens(tf.ModelReadBytes)
		out = append(out, tf)
	}
	return out, nil
}
