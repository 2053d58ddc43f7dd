package toollist

import (
	"fmt"

	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
)

// AnswerLimit is one rule a client holds a tool's answer (a tools/call
// result) to before its model reads it: a row of AnswerLimits. Every field
// is data; CheckAnswer applies every row the same way. Each fact's source,
// and the date it was checked, is in docs/clients.md.
type AnswerLimit struct {
	// Client is the profile the rule belongs to (Profile.Name).
	Client string
	// Name names the rule in a phrase ("file threshold").
	Name string
	// Unit is what Max counts: "characters" (JavaScript string length of
	// the answer as rendered, AnswerText) or "tokens" (floor of its UTF-8
	// bytes / 3).
	Unit string
	// Max is the most the client takes as it is: an answer over Max meets
	// the rule's Effect.
	Max int64
	// On says which answers the rule holds: "ok" (isError absent or
	// false), "error" (isError true) or "any".
	On string
	// TextOnly reports that the rule holds only answers with no image
	// block.
	TextOnly bool
	// MetaKey is the key of a tool's _meta (in its tools/list entry) that
	// raises Max for that tool, up to MetaMax; "" for none.
	MetaKey string
	MetaMax int64
	// Setting names what a user changes to move Max ("MAX_MCP_OUTPUT_TOKENS").
	Setting string
	// Effect says what the client does to an answer over Max, in a phrase.
	Effect string
	// Estimate marks a rule whose figure, or whose way of counting, the
	// client does not document exactly: the count is readmeter's, and the
	// client's may differ.
	Estimate bool
}

// AnswerLimits are the answer rules of the clients, in the order warnings
// name them. docs/clients.md gives each one's source.
var AnswerLimits = []AnswerLimit{
	{
		Client: "claude-code", Name: "file threshold", Unit: "characters", Max: 50_000, On: "ok", TextOnly: true,
		MetaKey: "anthropic/maxResultSizeChars", MetaMax: 500_000,
		Effect: "saves the answer to a file and hands the model only its path",
	},
	{
		Client: "claude-code", Name: "output warning", Unit: "tokens", Max: 10_000, On: "any",
		Effect: "warns the user that the answer is large", Estimate: true,
	},
	{
		Client: "claude-code", Name: "output limit", Unit: "tokens", Max: 25_000, On: "any",
		Setting: "MAX_MCP_OUTPUT_TOKENS",
		Effect:  "refuses the answer", Estimate: true,
	},
	{
		Client: "claude-code", Name: "error cut", Unit: "characters", Max: 11_000, On: "error",
		Effect: "hands the model only the head of the error", Estimate: true,
	},
}

// Answer is a tool's answer as a client hands it to its model: the text of
// its content blocks (AnswerText), counted.
type Answer struct {
	// Chars is the rendered text's length in UTF-16 code units.
	Chars int64 `json:"chars"`
	// Bytes is the rendered text's UTF-8 bytes; Tokens is floor(Bytes/3).
	Bytes  int64 `json:"bytes"`
	Tokens int64 `json:"tokens"`
	// IsError is the result's isError.
	IsError bool `json:"is_error,omitempty"`
	// Images counts the image blocks, which are not text.
	Images int `json:"images,omitempty"`
}

// ReadAnswer reads a tools/call answer (a JSON-RPC response, or its bare
// result) and counts what a client hands its model: the text of each text
// block, the text of each embedded text resource, the JSON of each
// resource link, and, when there are no content blocks, the structured
// content as JSON.stringify writes it. Images, audio and binary resources
// are not text; images are counted apart. The JSON-RPC framing is not
// counted.
func ReadAnswer(message []byte) (Answer, error) {
	text, _ := jsonjs.Decode(message) // invalid UTF-8 as U+FFFD, as a client's decoder reads it
	v, err := jsonjs.Parse(text)
	if err != nil {
		return Answer{}, fmt.Errorf("the answer is not JSON: %v", err)
	}
	if r, ok := v.Get("result"); ok {
		v = r
	}
	if v.Kind() != jsonjs.Object {
		return Answer{}, fmt.Errorf("the answer's result is %s, not an object", v.Kind())
	}
	var a Answer
	add := func(s string) {
		a.Chars += int64(jsonjs.Len16(s))
		a.Bytes += int64(len(s))
	}
	if e, ok := v.Get("isError"); ok && e.Kind() == jsonjs.Bool {
		a.IsError = e.Bool()
	}
	content, _ := v.Get("content")
	blocks := content.Elems()
	for _, b := range blocks {
		typ, _ := b.Get("type")
		switch typ.Str() {
		case "text":
			t, _ := b.Get("text")
			add(t.Str())
		case "resource":
			res, _ := b.Get("resource")
			if t, ok := res.Get("text"); ok {
				add(t.Str())
			}
		case "resource_link":
			add(string(jsonjs.Stringify(b)))
		case "image":
			a.Images++
		}
	}
	if len(blocks) == 0 {
		if sc, ok := v.Get("structuredContent"); ok {
			add(string(jsonjs.Stringify(sc)))
		}
	}
	a.Tokens = units.Tokens(a.Bytes)
	return a, nil
}

// AnswerLint is an answer over one of a client's limits.
type AnswerLint struct {
	// Limit is the rule met.
	Limit *AnswerLimit
	// Max is the rule's figure for this tool (a tool's _meta may raise it).
	Max int64
	// Read is what the answer counts in the rule's unit.
	Read int64
}

// CheckAnswer holds a answer to every rule of AnswerLimits and returns
// those it is over, in their order. meta is the tool's _meta from its
// tools/list entry (nil when the walk did not list it).
func CheckAnswer(a Answer, meta map[string]int64) []AnswerLint {
	var out []AnswerLint
	for i := range AnswerLimits {
		l := &AnswerLimits[i]
		switch {
		case l.On == "ok" && a.IsError, l.On == "error" && !a.IsError, l.TextOnly && a.Images > 0:
			continue
		}
		max := l.Max
		if n, ok := meta[l.MetaKey]; ok && l.MetaKey != "" && n > 0 {
			max = min(n, l.MetaMax)
		}
		read := a.Chars
		if l.Unit == "tokens" {
			read = a.Tokens
		}
		if read > max {
			out = append(out, AnswerLint{Limit: l, Max: max, Read: read})
		}
	}
	return out
}

// ToolMeta returns, by tool name, the numbers of each tool's _meta that
// an AnswerLimit reads (its MetaKey), from a tools/list answer (a JSON-RPC
// response, or its bare result). Tools without one are left out.
func ToolMeta(list []byte) map[string]map[string]int64 {
	out := map[string]map[string]int64{}
	text, _ := jsonjs.Decode(list)
	v, err := jsonjs.Parse(text)
	if err != nil {
		return out
	}
	if r, ok := v.Get("result"); ok {
		v = r
	}
	tools, _ := v.Get("tools")
	for _, t := range tools.Elems() {
		name, _ := t.Get("name")
		meta, ok := t.Get("_meta")
		if !ok {
			continue
		}
		for _, l := range AnswerLimits {
			if l.MetaKey == "" {
				continue
			}
			if n, ok := meta.Get(l.MetaKey); ok && n.Kind() == jsonjs.Number {
				if out[name.Str()] == nil {
					out[name.Str()] = map[string]int64{}
				}
				out[name.Str()][l.MetaKey] = int64(n.Num())
			}
		}
	}
	return out
}
