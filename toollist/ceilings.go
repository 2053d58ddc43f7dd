package toollist

import (
	"github.com/readmeter/readmeter/jsonjs"
)

// Init is what an initialize or server/discover answer tells a model
// before any tool: its instructions.
type Init struct {
	// Path is the file the answer was read from.
	Path string
	// Form is how the file holds the answer.
	Form Form
	// HasInstructions reports whether result.instructions is a string.
	HasInstructions bool
	// Instructions is result.instructions.
	Instructions string
	// Chars is the instructions' length in UTF-16 code units.
	Chars int
	// Bytes is the instructions' UTF-8 bytes.
	Bytes int64
	// Replaced counts invalid UTF-8 sequences decoded as U+FFFD.
	Replaced int
	// ServerName is result.serverInfo.name, "" when it is not a string;
	// ServerTitle result.serverInfo.title, likewise.
	ServerName, ServerTitle string
}

// ReadInit reads an initialize or server/discover answer, in any of the
// forms a capture comes in, and takes result.instructions. An answer with
// no instructions is not an error; instructions that are not a string are.
func ReadInit(path string) (*Init, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseInit(path, data)
}

// ParseInit reads an initialize or server/discover answer from its bytes.
func ParseInit(path string, data []byte) (*Init, error) {
	a, err := readAnswer(path, data, "initialize or server/discover answer")
	if err != nil {
		return nil, err
	}
	in := &Init{Path: path, Form: a.form, Replaced: a.replaced}
	members := jsonjs.MembersValid(nil, a.result)
	if raw, ok := jsonjs.LastMember(members, "serverInfo"); ok {
		if v, err := jsonjs.Parse(raw); err == nil {
			if n, ok := v.Get("name"); ok && n.Kind() == jsonjs.String {
				in.ServerName = n.Str()
			}
			if t, ok := v.Get("title"); ok && t.Kind() == jsonjs.String {
				in.ServerTitle = t.Str()
			}
		}
	}
	raw, ok := jsonjs.LastMember(members, "instructions")
	if !ok {
		return in, nil
	}
	v, err := jsonjs.Parse(raw)
	if err != nil {
		return nil, inputErr(path, "instructions: %v", err)
	}
	if v.Kind() != jsonjs.String {
		return nil, inputErr(path, "instructions is %s, not a string", article(v.Kind()))
	}
	in.HasInstructions = true
	in.Instructions = v.Str()
	in.Chars = jsonjs.Len16(v.Str())
	in.Bytes = int64(jsonjs.ByteLen(v.Str()))
	return in, nil
}

// Over is one text longer than its ceiling.
type Over struct {
	// What is "description" or "instructions".
	What string
	// Tool names the tool whose description is over; "" for instructions.
	Tool string
	// Chars is the text's length in UTF-16 code units; Max the ceiling.
	Chars, Max int
}

// OverDescriptions lists the tool descriptions longer than max characters,
// in the capture's order.
func OverDescriptions(f *Figures, max int) []Over {
	var out []Over
	for _, t := range f.PerTool {
		if t.DescriptionChars > max {
			out = append(out, Over{What: "description", Tool: t.Name, Chars: t.DescriptionChars, Max: max})
		}
	}
	return out
}

// OverInstructions reports the instructions when they are longer than max
// characters.
func OverInstructions(in *Init, max int) []Over {
	if in == nil || !in.HasInstructions || in.Chars <= max {
		return nil
	}
	return []Over{{What: "instructions", Chars: in.Chars, Max: max}}
}
