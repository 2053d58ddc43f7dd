package toollist

import (
	"fmt"

	"readmeter/jsonjs"
)

// Figures are what a model reads of one tool list, in exact integers.
type Figures struct {
	// WireBytes is the size of the answer as received.
	WireBytes int64
	// Tools is how many tools the list holds.
	Tools int
	// ModelReadBytes is the sum over tools of the UTF-8 bytes of
	// JSON.stringify({name, description, input_schema: inputSchema}).
	ModelReadBytes int64
	// ModelReadTokens is floor(ModelReadBytes / 3).
	ModelReadTokens int64
	// DescriptionBytes is the UTF-8 bytes of the tools' string descriptions.
	DescriptionBytes int64
	// FieldDescriptionBytes is the UTF-8 bytes of every string under a key
	// named "description" inside the tools' input schemas.
	FieldDescriptionBytes int64
	// Longest is the longest tool description.
	Longest Longest
	// PerTool holds each tool's figures in the capture's order.
	PerTool []ToolFigures
	// Warnings are what the reader should know, each a sentence naming the
	// file and the place.
	Warnings []string
}

// Longest is the longest tool description: the tool (the first on ties)
// and its length in UTF-16 code units. Tool is "" and Index -1 when no tool
// has a string description.
type Longest struct {
	Tool  string
	Index int
	Chars int
	// Name is the tool's name member as JavaScript reads t.name, for
	// reports that write it as Node would; HasName is false when absent.
	Name    jsonjs.Value
	HasName bool
}

// ToolFigures are one tool's figures.
type ToolFigures struct {
	// Name is the tool's name, or "tools[i]" when its name is not a string.
	Name string
	// Index is the tool's place in the capture.
	Index int
	// NameValue is the tool's name member, whatever its kind, as
	// JavaScript's t.name reads it; HasName is false when it is absent.
	NameValue jsonjs.Value
	HasName   bool
	// ModelReadBytes is the UTF-8 bytes of what a model reads of the tool.
	ModelReadBytes int64
	// ModelReadTokens is floor(ModelReadBytes / 3).
	ModelReadTokens int64
	// DescriptionChars is the description's length in UTF-16 code units,
	// 0 when it is not a string.
	DescriptionChars int
	// DescriptionBytes is the description's UTF-8 bytes, 0 when it is not
	// a string.
	DescriptionBytes int64
	// FieldDescriptionBytes is the UTF-8 bytes of the descriptions inside
	// the tool's inputSchema.
	FieldDescriptionBytes int64
}

// Tokens returns floor(bytes/3), the toolkit's token count.
func Tokens(bytes int64) int64 {
	if bytes <= 0 {
		return 0
	}
	return bytes / 3
}

// ModelRead returns the object a model reads of tool:
// {name, description, input_schema: inputSchema}, absent members dropped.
func ModelRead(tool jsonjs.Value) jsonjs.Value {
	ms := make([]jsonjs.Member, 0, 3)
	if v, ok := tool.Get("name"); ok {
		ms = append(ms, jsonjs.Member{Key: "name", Value: v})
	}
	if v, ok := tool.Get("description"); ok {
		ms = append(ms, jsonjs.Member{Key: "description", Value: v})
	}
	if v, ok := tool.Get("inputSchema"); ok {
		ms = append(ms, jsonjs.Member{Key: "input_schema", Value: v})
	}
	return jsonjs.ObjectValue(ms)
}

// ModelReadBytes returns the UTF-8 bytes of JSON.stringify of what a model
// reads of tool.
func ModelReadBytes(tool jsonjs.Value) int64 {
	return int64(jsonjs.StringifyLen(ModelRead(tool)))
}

// Measure counts the capture's figures, parsing one tool at a time.
func Measure(c *Capture) (*Figures, error) {
	f := &Figures{
		WireBytes: c.WireBytes,
		Tools:     len(c.Tools),
		Longest:   Longest{Index: -1},
		PerTool:   make([]ToolFigures, 0, len(c.Tools)),
	}
	if c.Replaced > 0 {
		f.Warnings = append(f.Warnings, fmt.Sprintf("%s: %d invalid UTF-8 %s decoded as U+FFFD, as Node decodes them",
			c.Path, c.Replaced, plural(c.Replaced, "sequence", "sequences")))
	}
	seen := make(map[string]int, len(c.Tools))
	for i := range c.Tools {
		tool, err := c.tool(i)
		if err != nil {
			return nil, err
		}
		name, named := toolLabel(tool, i)
		at := fmt.Sprintf("%s: %s[%d]", c.Path, c.toolsAt(), i)
		if !named {
			if n, ok := tool.Get("name"); ok {
				f.Warnings = append(f.Warnings, fmt.Sprintf("%s: name is %s, not a string", at, article(n.Kind())))
			} else {
				f.Warnings = append(f.Warnings, fmt.Sprintf("%s: has no name", at))
			}
		} else if j, dup := seen[name]; dup {
			f.Warnings = append(f.Warnings, fmt.Sprintf("%s: the name %q is also the name of %s[%d]", at, name, c.toolsAt(), j))
		} else {
			seen[name] = i
		}
		tf := ToolFigures{Name: name, Index: i, ModelReadBytes: ModelReadBytes(tool)}
		tf.NameValue, tf.HasName = tool.Get("name")
		tf.ModelReadTokens = Tokens(tf.ModelReadBytes)
		if d, ok := tool.Get("description"); ok {
			if d.Kind() == jsonjs.String {
				tf.DescriptionChars = jsonjs.Len16(d.Str())
				tf.DescriptionBytes = int64(jsonjs.ByteLen(d.Str()))
				if tf.DescriptionChars > f.Longest.Chars || f.Longest.Index < 0 {
					f.Longest = Longest{Tool: name, Index: i, Chars: tf.DescriptionChars, Name: tf.NameValue, HasName: tf.HasName}
				}
			} else {
				f.Warnings = append(f.Warnings, fmt.Sprintf("%s: description is %s, not a string; it counts in what a model reads, not in description bytes", at, article(d.Kind())))
			}
		}
		if s, ok := tool.Get("inputSchema"); ok {
			tf.FieldDescriptionBytes = fieldDescriptionBytes(s)
		}
		f.ModelReadBytes += tf.ModelReadBytes
		f.DescriptionBytes += tf.DescriptionBytes
		f.FieldDescriptionBytes += tf.FieldDescriptionBytes
		f.PerTool = append(f.PerTool, tf)
	}
	f.ModelReadTokens = Tokens(f.ModelReadBytes)
	return f, nil
}

// fieldDescriptionBytes sums the UTF-8 bytes of every string value of a
// member named "description" at any depth of v.
func fieldDescriptionBytes(v jsonjs.Value) int64 {
	var n int64
	switch v.Kind() {
	case jsonjs.Object:
		for _, m := range v.Members() {
			if m.Key == "description" && m.Value.Kind() == jsonjs.String {
				n += int64(jsonjs.ByteLen(m.Value.Str()))
				continue
			}
			n += fieldDescriptionBytes(m.Value)
		}
	case jsonjs.Array:
		for _, e := range v.Elems() {
			n += fieldDescriptionBytes(e)
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
