package toollist

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/readmeter/readmeter/jsonjs"
)

// WriteFiguresJSON appends to dst the figures as the members of a --json
// report, as compact JSON text without the braces around them, writing one
// tool at a time. The members, in order: wire_bytes, tools,
// model_read_bytes, model_read_tokens, tokenizers {NAME: tokens} (when
// counted), description_bytes, field_description_bytes,
// longest_description {tool, chars} and per_tool [{name, model_read_bytes,
// model_read_tokens, description_chars}]. A tool's name is written as
// JavaScript's t.name reads it (a name that is not a string keeps its kind;
// an absent name is left out), as Node's report writes it;
// longest_description's tool is "" when no tool has a string description.
//
// It hands the text to flush whenever it passes 64 KiB after a tool's
// figures, and goes on with the buffer flush returns (a long list is never
// held whole); flush may be nil. What is left, since the last flush, is
// returned.
func WriteFiguresJSON(dst []byte, f *Figures, flush func([]byte) []byte) []byte {
	num := func(dst []byte, key string, n int64) []byte {
		return strconv.AppendInt(append(dst, key...), n, 10)
	}
	name := func(dst []byte, t *ToolFigures) []byte {
		if j, ok := f.NameJSON[t.Index]; ok {
			return append(dst, j...)
		}
		return jsonjs.AppendQuote(dst, t.Name)
	}
	dst = num(dst, `"wire_bytes":`, f.WireBytes)
	dst = num(dst, `,"tools":`, int64(f.Tools))
	dst = num(dst, `,"model_read_bytes":`, f.ModelReadBytes)
	dst = num(dst, `,"model_read_tokens":`, f.ModelReadTokens)
	dst = appendTokenizers(dst, f.Tokenizers)
	dst = num(dst, `,"description_bytes":`, f.DescriptionBytes)
	dst = num(dst, `,"field_description_bytes":`, f.FieldDescriptionBytes)
	dst = append(dst, `,"longest_description":{`...)
	switch {
	case f.Longest.Index < 0:
		dst = append(dst, `"tool":"",`...)
	case f.PerTool[f.Longest.Index].HasName:
		dst = append(name(append(dst, `"tool":`...), &f.PerTool[f.Longest.Index]), ',')
	}
	dst = num(dst, `"chars":`, int64(f.Longest.Chars))
	dst = append(dst, `},"per_tool":[`...)
	for i := range f.PerTool {
		t := &f.PerTool[i]
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		if t.HasName {
			dst = append(name(append(dst, `"name":`...), t), ',')
		}
		dst = num(dst, `"model_read_bytes":`, t.ModelReadBytes)
		dst = num(dst, `,"model_read_tokens":`, t.ModelReadTokens)
		dst = appendTokenCounts(dst, f.Tokenizers, f.toolCounts(i))
		dst = num(dst, `,"description_chars":`, int64(t.DescriptionChars))
		dst = append(dst, '}')
		if flush != nil && len(dst) >= 64<<10 {
			dst = flush(dst)
		}
	}
	return append(dst, ']')
}

// appendTokenizers appends ,"tokenizers":{"o200k":N,...} when there are
// counts.
func appendTokenizers(dst []byte, ts []TokenizerCount) []byte {
	if len(ts) == 0 {
		return dst
	}
	dst = append(dst, `,"tokenizers":{`...)
	for i, t := range ts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(jsonjs.AppendQuote(dst, t.Name), ':')
		dst = strconv.AppendInt(dst, t.Tokens, 10)
	}
	return append(dst, '}')
}

// appendTokenCounts is appendTokenizers of a tool's counts (see
// Figures.ToolTokenCounts), named as in totals, without the absent ones.
func appendTokenCounts(dst []byte, totals []TokenizerCount, counts []int64) []byte {
	first := true
	for k, n := range counts {
		if n < 0 {
			continue
		}
		if first {
			dst = append(dst, `,"tokenizers":{`...)
			first = false
		} else {
			dst = append(dst, ',')
		}
		dst = append(jsonjs.AppendQuote(dst, totals[k].Name), ':')
		dst = strconv.AppendInt(dst, n, 10)
	}
	if !first {
		dst = append(dst, '}')
	}
	return dst
}

// readTokenizers reads a report's "tokenizers" object of o, if any.
func readTokenizers(o jsonjs.Value) ([]TokenizerCount, bool) {
	v, has := o.Get("tokenizers")
	if !has {
		return nil, true
	}
	if v.Kind() != jsonjs.Object {
		return nil, false
	}
	var out []TokenizerCount
	for _, m := range v.Members() {
		n := m.Value
		if n.Kind() != jsonjs.Number || n.Num() != float64(int64(n.Num())) || n.Num() < 0 {
			return nil, false
		}
		out = append(out, TokenizerCount{Name: m.Key, Tokens: int64(n.Num())})
	}
	return out, true
}

// ReadFigures reads the figures of a tool list from a capture or from a
// report that `measure --json` wrote for one capture (an object holding
// per_tool), so an earlier run can serve as the base of a comparison.
func ReadFigures(path string) (*Figures, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if f, ok, err := parseReport(path, data); ok || err != nil {
		return f, err
	}
	c, err := openBytes(path, data, Options{})
	if err != nil {
		return nil, err
	}
	return c.Figures, nil
}

// parseReport reads a --json report; ok is false when data is not one.
func parseReport(path string, data []byte) (f *Figures, ok bool, err error) {
	text, _ := jsonjs.Decode(data)
	if jsonjs.KindValid(text) != jsonjs.Object || jsonjs.Validate(text) != nil {
		return nil, false, nil
	}
	if _, has := jsonjs.LastMember(jsonjs.MembersValid(nil, text), "per_tool"); !has {
		return nil, false, nil
	}
	v, err := jsonjs.Parse(text)
	if err != nil {
		return nil, false, nil
	}
	bad := func(what string) (*Figures, bool, error) {
		return nil, true, inputErr(path, "a measure --json report, but %s", what)
	}
	num := func(o jsonjs.Value, key string) (int64, bool) {
		n, ok := o.Get(key)
		if !ok || n.Kind() != jsonjs.Number || n.Num() != float64(int64(n.Num())) || n.Num() < 0 {
			return 0, false
		}
		return int64(n.Num()), true
	}
	f = &Figures{Longest: Longest{Index: -1}}
	var okAll = true
	for _, m := range []struct {
		key string
		dst *int64
	}{{"wire_bytes", &f.WireBytes}, {"model_read_bytes", &f.ModelReadBytes}, {"model_read_tokens", &f.ModelReadTokens},
		{"description_bytes", &f.DescriptionBytes}, {"field_description_bytes", &f.FieldDescriptionBytes}} {
		n, ok := num(v, m.key)
		if !ok {
			return bad(m.key + " is not a count")
		}
		*m.dst = n
	}
	if f.Tokenizers, okAll = readTokenizers(v); !okAll {
		return bad("tokenizers is not an object of counts")
	}
	per, _ := v.Get("per_tool")
	if per.Kind() != jsonjs.Array {
		return bad("per_tool is not an array")
	}
	for i, e := range per.Elems() {
		t := ToolFigures{Index: i, Name: fmt.Sprintf("tools[%d]", i), HasInputSchema: true}
		if n, has := e.Get("name"); has {
			t.HasName = true
			if n.Kind() == jsonjs.String {
				t.Name = n.Str()
			} else {
				if f.NameJSON == nil {
					f.NameJSON = map[int]string{}
				}
				f.NameJSON[i] = string(jsonjs.Stringify(n))
			}
		}
		var dc int64
		t.ModelReadBytes, okAll = num(e, "model_read_bytes")
		if okAll {
			t.ModelReadTokens, okAll = num(e, "model_read_tokens")
		}
		if okAll {
			dc, okAll = num(e, "description_chars")
		}
		var tks []TokenizerCount
		if okAll {
			tks, okAll = readTokenizers(e)
		}
		if !okAll {
			return bad(fmt.Sprintf("per_tool[%d] lacks a count", i))
		}
		t.DescriptionChars = int(dc)
		f.PerTool = append(f.PerTool, t)
		if len(tks) > 0 {
			if f.ToolTokenCounts == nil {
				f.ToolTokenCounts = make([]int64, len(per.Elems())*len(f.Tokenizers))
				for j := range f.ToolTokenCounts {
					f.ToolTokenCounts[j] = -1
				}
			}
			for _, tk := range tks {
				k := slices.IndexFunc(f.Tokenizers, func(t TokenizerCount) bool { return t.Name == tk.Name })
				if k < 0 {
					return bad(fmt.Sprintf("per_tool[%d] has %s counts, and the totals none", i, tk.Name))
				}
				f.ToolTokenCounts[i*len(f.Tokenizers)+k] = tk.Tokens
			}
		}
	}
	f.Tools = len(f.PerTool)
	if l, has := v.Get("longest_description"); has {
		if c, ok := num(l, "chars"); ok {
			f.Longest.Chars = int(c)
		}
		if tv, ok := l.Get("tool"); ok && tv.Kind() == jsonjs.String && tv.Str() != "" {
			f.Longest.Tool = tv.Str()
			for i, t := range f.PerTool {
				if t.Name == tv.Str() {
					f.Longest.Index = i
					break
				}
			}
		}
	}
	return f, true, nil
}
