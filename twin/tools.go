package twin

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The connector's words live in words/: for each tool a description
// (words/tools/NAME.md) and its title, annotations and schemas
// (words/tools/NAME.json), and the instructions (words/instructions.md).
// They are embedded, so the twin serves exactly what the files say and a
// change of words shows in the captures and in the numbers.
//
//go:embed words/instructions.md words/tools/*.md words/tools/*.json
var wordsFS embed.FS

// mcpTools are the tools at /mcp, in the order tools/list gives them.
var mcpTools = []string{
	"schellingaf_guide",
	"schellingaf_whoami",
	"schellingaf_seek",
	"schellingaf_read_space",
	"schellingaf_get",
	"schellingaf_mailbox",
	"schellingaf_spaces",
	"schellingaf_messages",
	"schellingaf_post",
	"schellingaf_space_control",
	"schellingaf_oracle",
	"schellingaf_task",
	"schellingaf_join",
	"schellingaf_message",
}

// connectTools are the tools /mcp/connect lists after mcpTools.
var connectTools = []string{"search", "fetch"}

// toolsetCore are the tools every toolset holds.
var toolsetCore = []string{
	"schellingaf_whoami", "schellingaf_guide", "schellingaf_mailbox",
	"schellingaf_read_space", "schellingaf_seek", "schellingaf_get",
	"schellingaf_post", "schellingaf_join",
}

// Toolset is a named subset of the tools at /mcp, served at
// /mcp?tools=NAME.
type Toolset struct {
	// Name is the value of the tools query parameter.
	Name string
	// Tools are the set's tool names in /mcp's order.
	Tools []string
}

// Toolsets returns the toolsets in the order the instructions name them,
// each with its tools in /mcp's order.
func Toolsets() []Toolset {
	adds := []struct {
		name string
		add  []string
	}{
		{"tasks", []string{"schellingaf_task", "schellingaf_oracle"}},
		{"research", []string{"schellingaf_spaces", "schellingaf_oracle"}},
		{"coordinate", []string{"schellingaf_spaces", "schellingaf_space_control", "schellingaf_task", "schellingaf_oracle"}},
	}
	var sets []Toolset
	for _, a := range adds {
		in := map[string]bool{}
		for _, n := range toolsetCore {
			in[n] = true
		}
		for _, n := range a.add {
			in[n] = true
		}
		set := Toolset{Name: a.name}
		for _, n := range mcpTools {
			if in[n] {
				set.Tools = append(set.Tools, n)
			}
		}
		sets = append(sets, set)
	}
	return sets
}

// toolset returns the set named name.
func toolset(name string) (Toolset, bool) {
	for _, set := range Toolsets() {
		if set.Name == name {
			return set, true
		}
	}
	return Toolset{}, false
}

// setsHolding returns the names of the sets that hold tool, in order.
func setsHolding(tool string) []string {
	var names []string
	for _, set := range Toolsets() {
		for _, n := range set.Tools {
			if n == tool {
				names = append(names, set.Name)
			}
		}
	}
	return names
}

// toolWords is one tool as the words files define it.
type toolWords struct {
	Title        string               `json:"title"`
	Annotations  *mcp.ToolAnnotations `json:"annotations"`
	InputSchema  json.RawMessage      `json:"inputSchema"`
	OutputSchema json.RawMessage      `json:"outputSchema"`
	description  string
}

// words holds every tool's words and the instructions, read once.
type words struct {
	tools        map[string]*toolWords
	instructions string
}

var theWords = mustLoadWords()

func mustLoadWords() *words {
	w, err := loadWords()
	if err != nil {
		panic("twin: " + err.Error())
	}
	return w
}

// maxWordChars is the ceiling, in UTF-16 code units, of every description
// and of the instructions: one client cuts at 2,048, and we stay under
// 2,000.
const maxWordChars = 2000

// loadWords reads the embedded words and checks them: every tool has both
// files, schemas are JSON objects of type object with no $schema and no
// maximum of 2^53-1, and no description or instructions reach
// maxWordChars.
func loadWords() (*words, error) {
	w := &words{tools: map[string]*toolWords{}}
	for _, name := range append(append([]string{}, mcpTools...), connectTools...) {
		desc, err := wordsFS.ReadFile("words/tools/" + name + ".md")
		if err != nil {
			return nil, err
		}
		raw, err := wordsFS.ReadFile("words/tools/" + name + ".json")
		if err != nil {
			return nil, err
		}
		tw := &toolWords{description: strings.TrimRight(string(desc), "\n")}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(tw); err != nil {
			return nil, fmt.Errorf("words/tools/%s.json: %v", name, err)
		}
		if n := utf16Len(tw.description); n >= maxWordChars {
			return nil, fmt.Errorf("words/tools/%s.md: %d characters, the ceiling is under %d", name, n, maxWordChars)
		}
		for _, sc := range []struct {
			field string
			raw   json.RawMessage
		}{{"inputSchema", tw.InputSchema}, {"outputSchema", tw.OutputSchema}} {
			if sc.raw == nil {
				continue
			}
			var buf bytes.Buffer
			if err := json.Compact(&buf, sc.raw); err != nil {
				return nil, fmt.Errorf("words/tools/%s.json: %s: %v", name, sc.field, err)
			}
			if err := leanCheck(buf.Bytes()); err != nil {
				return nil, fmt.Errorf("words/tools/%s.json: %s: %v", name, sc.field, err)
			}
			var top struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(buf.Bytes(), &top); err != nil || top.Type != "object" {
				return nil, fmt.Errorf("words/tools/%s.json: %s: not a schema of type object", name, sc.field)
			}
			if sc.field == "inputSchema" {
				tw.InputSchema = append(json.RawMessage(nil), buf.Bytes()...)
			} else {
				tw.OutputSchema = append(json.RawMessage(nil), buf.Bytes()...)
			}
		}
		if tw.InputSchema == nil {
			return nil, fmt.Errorf("words/tools/%s.json: no inputSchema", name)
		}
		w.tools[name] = tw
	}
	instr, err := wordsFS.ReadFile("words/instructions.md")
	if err != nil {
		return nil, err
	}
	text := strings.TrimRight(string(instr), "\n")
	const slot = "{{toolsets}}"
	if strings.Count(text, slot) != 1 {
		return nil, fmt.Errorf("words/instructions.md: %s must appear once", slot)
	}
	w.instructions = strings.Replace(text, slot, toolsetSentence(), 1)
	if n := utf16Len(w.instructions); n >= maxWordChars {
		return nil, fmt.Errorf("words/instructions.md: %d characters with the toolset sentence, the ceiling is under %d", n, maxWordChars)
	}
	return w, nil
}

// toolsetSentence says, from Toolsets, what each set leaves out.
func toolsetSentence() string {
	var parts []string
	for _, set := range Toolsets() {
		in := map[string]bool{}
		for _, n := range set.Tools {
			in[n] = true
		}
		var out []string
		for _, n := range mcpTools {
			if !in[n] {
				out = append(out, n)
			}
		}
		parts = append(parts, set.Name+" leaves out "+andList(out))
	}
	return "Toolsets, at /mcp?tools=SET: " + strings.Join(parts, "; ") + "."
}

// andList joins names as "a, b and c".
func andList(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// leanCheck refuses a schema that holds $schema, or a maximum equal to
// 9007199254740991, at any depth.
func leanCheck(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	var walk func(path string, v any) error
	walk = func(path string, v any) error {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if k == "$schema" {
					return fmt.Errorf("%s: $schema is not served in a lean list", path)
				}
				if k == "maximum" {
					if n, ok := c.(json.Number); ok {
						if f, err := n.Float64(); err == nil && f == 9007199254740991 {
							return fmt.Errorf("%s.maximum: 9007199254740991 is not served in a lean list", path)
						}
					}
				}
				if err := walk(path+"."+k, c); err != nil {
					return err
				}
			}
		case []any:
			for i, c := range v {
				if err := walk(fmt.Sprintf("%s[%d]", path, i), c); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk("$", v)
}

// utf16Len is a string's JavaScript length.
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// Instructions returns the connector's instructions, as initialize and
// server/discover give them.
func Instructions() string { return theWords.instructions }

// toolDef returns the tool named name as tools/list lists it.
func toolDef(name string) *mcp.Tool {
	tw := theWords.tools[name]
	t := &mcp.Tool{
		Name:        name,
		Title:       tw.Title,
		Description: tw.description,
		Annotations: tw.Annotations,
		InputSchema: tw.InputSchema,
	}
	if tw.OutputSchema != nil {
		t.OutputSchema = tw.OutputSchema
	}
	return t
}
