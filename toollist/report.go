package toollist

import "readmeter/jsonjs"

// FiguresMembers returns the figures as the members of a --json report, in
// its order and with its names: wire_bytes, tools, model_read_bytes,
// model_read_tokens, description_bytes, field_description_bytes,
// longest_description {tool, chars} and per_tool [{name,
// model_read_bytes, model_read_tokens, description_chars}]. A tool's name
// is written as JavaScript's t.name reads it (a name that is not a string
// keeps its kind; an absent name is left out), as Node's report writes it;
// longest_description's tool is "" when no tool has a string description.
func FiguresMembers(f *Figures) []jsonjs.Member {
	num := func(n int64) jsonjs.Value { return jsonjs.NumberValue(float64(n)) }
	longest := jsonjs.StringValue("")
	if f.Longest.Index >= 0 {
		longest = f.Longest.Name
		if !f.Longest.HasName {
			longest = jsonjs.Value{}
		}
	}
	longestMembers := []jsonjs.Member{{Key: "tool", Value: longest}, {Key: "chars", Value: num(int64(f.Longest.Chars))}}
	if f.Longest.Index >= 0 && !f.Longest.HasName {
		longestMembers = longestMembers[1:]
	}
	per := make([]jsonjs.Value, len(f.PerTool))
	for i, t := range f.PerTool {
		ms := make([]jsonjs.Member, 0, 4)
		if t.HasName {
			ms = append(ms, jsonjs.Member{Key: "name", Value: t.NameValue})
		}
		ms = append(ms,
			jsonjs.Member{Key: "model_read_bytes", Value: num(t.ModelReadBytes)},
			jsonjs.Member{Key: "model_read_tokens", Value: num(t.ModelReadTokens)},
			jsonjs.Member{Key: "description_chars", Value: num(int64(t.DescriptionChars))},
		)
		per[i] = jsonjs.ObjectValue(ms)
	}
	return []jsonjs.Member{
		{Key: "wire_bytes", Value: num(f.WireBytes)},
		{Key: "tools", Value: num(int64(f.Tools))},
		{Key: "model_read_bytes", Value: num(f.ModelReadBytes)},
		{Key: "model_read_tokens", Value: num(f.ModelReadTokens)},
		{Key: "description_bytes", Value: num(f.DescriptionBytes)},
		{Key: "field_description_bytes", Value: num(f.FieldDescriptionBytes)},
		{Key: "longest_description", Value: jsonjs.ObjectValue(longestMembers)},
		{Key: "per_tool", Value: jsonjs.ArrayValue(per)},
	}
}
