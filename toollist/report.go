package toollist

import (
	"strconv"

	"readmeter/jsonjs"
)

// FiguresMembers returns the figures as the members of a --json report, in
// its order and with its names: wire_bytes, tools, model_read_bytes,
// model_read_tokens, description_bytes, field_description_bytes,
// longest_description {tool, chars} and per_tool [{name,
// model_read_bytes, model_read_tokens, description_chars}]. A tool's name
// is written as JavaScript's t.name reads it (a name that is not a string
// keeps its kind; an absent name is left out), as Node's report writes it;
// longest_description's tool is "" when no tool has a string description.
func FiguresMembers(f *Figures) []jsonjs.Member {
	v, err := jsonjs.Parse(append(AppendFiguresJSON([]byte{'{'}, f), '}'))
	if err != nil {
		panic("toollist: FiguresMembers: " + err.Error())
	}
	return v.Members()
}

// AppendFiguresJSON appends to dst the members of FiguresMembers as compact
// JSON text, without the braces around them, writing one tool at a time.
func AppendFiguresJSON(dst []byte, f *Figures) []byte {
	num := func(dst []byte, key string, n int64) []byte {
		dst = append(jsonjs.AppendQuote(dst, key), ':')
		return strconv.AppendInt(dst, n, 10)
	}
	name := func(dst []byte, t *ToolFigures) []byte {
		if t.NameJSON != "" {
			return append(dst, t.NameJSON...)
		}
		return jsonjs.AppendQuote(dst, t.Name)
	}
	dst = num(dst, "wire_bytes", f.WireBytes)
	dst = num(append(dst, ','), "tools", int64(f.Tools))
	dst = num(append(dst, ','), "model_read_bytes", f.ModelReadBytes)
	dst = num(append(dst, ','), "model_read_tokens", f.ModelReadTokens)
	dst = num(append(dst, ','), "description_bytes", f.DescriptionBytes)
	dst = num(append(dst, ','), "field_description_bytes", f.FieldDescriptionBytes)
	dst = append(dst, `,"longest_description":{`...)
	switch {
	case f.Longest.Index < 0:
		dst = append(dst, `"tool":"",`...)
	case f.PerTool[f.Longest.Index].HasName:
		dst = append(name(append(dst, `"tool":`...), &f.PerTool[f.Longest.Index]), ',')
	}
	dst = num(dst, "chars", int64(f.Longest.Chars))
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
		dst = num(dst, "model_read_bytes", t.ModelReadBytes)
		dst = num(append(dst, ','), "model_read_tokens", t.ModelReadTokens)
		dst = num(append(dst, ','), "description_chars", int64(t.DescriptionChars))
		dst = append(dst, '}')
	}
	return append(dst, ']')
}
