package toollist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/units"
)

// Lint is a limit of an MCP client or a model API that a tool list passes:
// a fact about the clients that read it, reported as a warning (a command
// may make it a finding). Each limit's source is cited in docs/mcp-server.md.
type Lint struct {
	// Rule names the limit: description-cut, instructions-cut, tool-name,
	// tool-count, input-schema.
	Rule string
	// Tool names the tool the lint is about; "" for the whole list.
	Tool string
	// Text says what passes which limit, in a sentence without the file.
	Text string
}

// ClaudeCodeCutChars is the length at which Claude Code cuts a tool's
// description and a server's instructions (2 KB each) before the model
// reads them: the claude-code profile's DescriptionCut.
const ClaudeCodeCutChars = 2048

// ToolLimit is an MCP client's limit on the number of tools it can hand a
// model.
type ToolLimit struct {
	// Client names the client.
	Client string
	// Tools is the most tools it takes.
	Tools int
	// Effect says what happens past the limit.
	Effect string
}

// ToolLimits are the clients' tool-count limits, smallest first: the caps
// of Profiles.
var ToolLimits = toolLimits()

func toolLimits() []ToolLimit {
	var out []ToolLimit
	for _, p := range Profiles {
		if p.Cap > 0 {
			out = append(out, ToolLimit{strings.TrimPrefix(p.Title, "the "), p.Cap, p.CapEffect})
		}
	}
	slices.SortStableFunc(out, func(a, b ToolLimit) int { return a.Tools - b.Tools })
	return out
}

// The tool-name rules of the major model APIs: OpenAI and Anthropic take
// ^[a-zA-Z0-9_-]{1,64}$; Gemini also takes dots and colons but wants a
// letter or an underscore first, and at most 64 characters. They are
// checked byte by byte (every byte they take is ASCII), with no regular
// expression to compile when the program starts.

// openAIName reports whether name matches ^[a-zA-Z0-9_-]{1,64}$.
func openAIName(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !asciiWord(c) && c != '-' {
			return false
		}
	}
	return true
}

// geminiName reports whether name matches ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$.
func geminiName(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	if c := name[0]; !(c == '_' || 'a' <= c|0x20 && c|0x20 <= 'z') {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !asciiWord(c) && c != '.' && c != ':' && c != '-' {
			return false
		}
	}
	return true
}

// asciiWord reports whether c is an ASCII letter, digit or underscore.
func asciiWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
}

// NameLint returns the lint of a tool name the major model APIs refuse,
// and whether there is one.
func NameLint(name string) (Lint, bool) {
	var refused []string
	if !openAIName(name) {
		refused = append(refused, "OpenAI and Anthropic take ^[a-zA-Z0-9_-]{1,64}$")
	}
	if !geminiName(name) {
		refused = append(refused, "Gemini wants a letter or _ first, then letters, digits, _ . : -, 64 at most")
	}
	if len(refused) == 0 {
		return Lint{}, false
	}
	return Lint{Rule: "tool-name", Tool: name, Text: fmt.Sprintf("the tool name %q is refused by model APIs: %s", name, strings.Join(refused, "; "))}, true
}

// Lints returns the limits the tool list passes: descriptions Claude Code
// cuts, names model APIs refuse, tools without the inputSchema MCP requires, more tools than a client takes; and the
// instructions Claude Code cuts, when in holds them. Tools are named in
// the capture's order.
func Lints(f *Figures, in *Init) []Lint {
	var out []Lint
	for _, t := range f.PerTool {
		if t.DescriptionChars > ClaudeCodeCutChars {
			out = append(out, Lint{Rule: "description-cut", Tool: t.Name, Text: fmt.Sprintf(
				"%s's description is %s characters: Claude Code cuts descriptions at %s",
				t.Name, units.Group(int64(t.DescriptionChars)), units.Group(ClaudeCodeCutChars))})
		}
	}
	for _, t := range f.PerTool {
		if _, notString := f.NameJSON[t.Index]; !t.HasName || notString {
			continue // reported as a warning already
		}
		if l, ok := NameLint(t.Name); ok {
			out = append(out, l)
		}
	}
	if l, ok := schemaLint(f.PerTool); ok {
		out = append(out, l)
	}
	if in != nil && in.HasInstructions && in.Chars > ClaudeCodeCutChars {
		out = append(out, Lint{Rule: "instructions-cut", Text: fmt.Sprintf(
			"the instructions are %s characters: Claude Code cuts instructions at %s",
			units.Group(int64(in.Chars)), units.Group(ClaudeCodeCutChars))})
	}
	if l, ok := CountLint(f.Tools); ok {
		out = append(out, l)
	}
	return out
}

// schemaLint returns the one lint of the tools without the inputSchema
// MCP requires (the first few named, the rest counted), and whether there
// is one.
func schemaLint(tools []ToolFigures) (Lint, bool) {
	const named = 5
	var names []string
	n := 0
	for _, t := range tools {
		if !t.HasInputSchema {
			if n < named {
				names = append(names, strconv.Quote(t.Name))
			}
			n++
		}
	}
	if n == 0 {
		return Lint{}, false
	}
	list := strings.Join(names, ", ")
	if n > named {
		list += fmt.Sprintf(" and %d more", n-named)
	}
	l := Lint{Rule: "input-schema", Text: fmt.Sprintf("%s %s no inputSchema: MCP requires one (a tool without parameters takes {\"type\":\"object\"}), and clients may refuse the tool", list, plural(n, "has", "have"))}
	if n == 1 {
		l.Tool = tools[slices.IndexFunc(tools, func(t ToolFigures) bool { return !t.HasInputSchema })].Name
	}
	return l, true
}

// CountLint returns the lint of n tools, more than some client takes, and
// whether there is one.
func CountLint(n int) (Lint, bool) {
	var passed []string
	for _, l := range ToolLimits {
		if n > l.Tools {
			passed = append(passed, fmt.Sprintf("%s %s", l.Client, l.Effect))
		}
	}
	if len(passed) == 0 {
		return Lint{}, false
	}
	return Lint{Rule: "tool-count", Text: fmt.Sprintf("%d tools: %s", n, strings.Join(passed, "; "))}, true
}
