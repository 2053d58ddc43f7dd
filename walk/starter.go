package walk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// Starter is what StarterSpec writes a first walk from: the server, as a
// spec declares it, and its tools/list answer.
type Starter struct {
	// Walk is the walk's name, also the last part of its budget keys.
	Walk string
	// Command is a stdio server's argv (and Dir its working directory,
	// relative to the spec); URL an HTTP server's absolute address.
	Command []string
	Dir     string
	URL     string
	// Tools is the tools/list answer: a JSON-RPC response (every page
	// merged) or its bare result.
	Tools []byte
}

// StarterSpec writes a walk spec that takes the server's tool list and
// calls each of its tools once: initialize, initialized, the tool list,
// then one call per tool, with arguments made from its input schema (each
// required member: an enum's first value, a const, a default, an example,
// or a placeholder of its type). A call that may change something (its
// annotations mark it destructive or not read-only, or leave readOnlyHint
// out, which defaults to false; without annotations, its name says it
// writes) is written commented out, with the reason. The walk's total, its
// tool list and each call's answer are held to budgets (BLOCK.name keys a
// budget file takes with walks run --update).
func StarterSpec(s Starter) ([]byte, error) {
	if !gjson.ValidBytes(s.Tools) {
		return nil, fmt.Errorf("the tools/list answer is not JSON")
	}
	res := gjson.ParseBytes(s.Tools)
	if r := res.Get("result"); r.Exists() {
		res = r
	}
	tools := res.Get("tools")
	if !tools.IsArray() {
		return nil, fmt.Errorf("the tools/list answer has no tools array")
	}
	var b bytes.Buffer
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	key := keyPart(s.Walk)
	w("# A first walk of this server, written by walks new from its tool list.\n")
	w("# Each call's arguments are made from the tool's input schema: put in\n")
	w("# real ones. Calls that may change something are commented out.\n")
	w("walk: %s\n", s.Walk)
	w("about: %s\n", jsonText("The tool list, then each tool called once"))
	w("budget: ANSWER_TOKENS.%s\n", key)
	w("budgets:\n")
	w("  - { key: TOOL_LIST_TOKENS.%s, measure: \"tool_list:the tool list\" }\n", key)
	type call struct{ tool, args, unsafe, key string }
	var calls []call
	used := map[string]bool{}
	for _, t := range tools.Array() {
		name := t.Get("name").String()
		c := call{tool: name, args: starterArgs(t.Get("inputSchema")), unsafe: unsafeReason(t)}
		if c.unsafe == "" {
			k := keyPart(name)
			for i := 2; used[k]; i++ {
				k = keyPart(name) + "_" + strconv.Itoa(i)
			}
			used[k] = true
			c.key = k
			w("  - { key: ANSWER_BYTES.%s.%s, measure: %s }\n", key, k, jsonText("step:call "+name))
		}
		calls = append(calls, c)
	}
	w("servers:\n")
	if s.Command != nil {
		w("  server:\n    command: %s\n", jsonArray(s.Command))
		if s.Dir != "" && s.Dir != "." {
			w("    dir: %s\n", jsonText(s.Dir))
		}
	} else {
		w("  server:\n    url: %s\n", jsonText(s.URL))
	}
	w("steps:\n")
	w("  - part: initialize\n    mcp: initialize\n")
	w("  - part: initialized\n    mcp: { notify: notifications/initialized }\n")
	w("  - part: the tool list\n    mcp: list\n")
	for _, c := range calls {
		step := fmt.Sprintf("  - part: %s\n    mcp: { call: %s, args: %s }\n", jsonText("call "+c.tool), jsonText(c.tool), c.args)
		if c.unsafe == "" {
			b.WriteString(step)
			continue
		}
		w("  # %s: %s\n", c.tool, c.unsafe)
		for _, l := range strings.SplitAfter(strings.TrimSuffix(step, "\n"), "\n") {
			w("  #%s", strings.TrimPrefix(l, " "))
		}
		b.WriteString("\n")
	}
	return b.Bytes(), nil
}

// writes are the words of a tool name that say it changes something.
var writes = map[string]bool{}

func init() {
	for _, w := range strings.Fields("write delete remove create update edit move rename insert drop set put post send upload kill destroy toggle add append patch execute exec run") {
		writes[w] = true
	}
}

// nameWrites reports whether a word of the tool's name (split at every
// character that is not a letter, and where a lower-case letter meets an
// upper-case one) says it changes something.
func nameWrites(name string) bool {
	var words []string
	var cur []rune
	prevLower := false
	for _, r := range name {
		isUpper, isLower := r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z'
		if !isUpper && !isLower || (isUpper && prevLower) {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
		if isUpper || isLower {
			cur = append(cur, r)
		}
		prevLower = isLower
	}
	words = append(words, strings.ToLower(string(cur)))
	for _, w := range words {
		if writes[w] {
			return true
		}
	}
	return false
}

// unsafeReason says why calling the tool may change something, or "" when
// its annotations (or, without them, its name) say it only reads. Where
// a tool has annotations, only readOnlyHint true says it only reads: the
// MCP specification's ToolAnnotations default readOnlyHint to false.
func unsafeReason(t gjson.Result) string {
	a := t.Get("annotations")
	switch {
	case a.Get("destructiveHint").Type == gjson.True:
		return "destructive, per its annotations"
	case a.Get("readOnlyHint").Type == gjson.False:
		return "not read-only, per its annotations"
	case a.Get("readOnlyHint").Type == gjson.True:
		return ""
	case a.IsObject():
		return "annotated without readOnlyHint, which defaults to false"
	case nameWrites(t.Get("name").String()):
		return "its name says it changes something"
	}
	return ""
}

// starterArgs returns the arguments of a first call, as a JSON object:
// each required member of the schema, valued by exampleValue.
func starterArgs(schema gjson.Result) string {
	v := exampleValue(schema, 0)
	if !strings.HasPrefix(v, "{") {
		return "{}"
	}
	return v
}

// exampleValue is a value the schema takes, as compact JSON: an enum's
// first value, a const, a default, an example, or a placeholder of its
// type (an object holds its required members).
func exampleValue(s gjson.Result, depth int) string {
	if depth > 8 {
		return "null"
	}
	for _, path := range []string{"enum.0", "const", "default", "examples.0", "example"} {
		if v := s.Get(path); v.Exists() {
			return compact(v.Raw)
		}
	}
	for _, alt := range []string{"anyOf.0", "oneOf.0", "allOf.0"} {
		if v := s.Get(alt); v.Exists() {
			return exampleValue(v, depth+1)
		}
	}
	typ := s.Get("type")
	if typ.IsArray() {
		for _, t := range typ.Array() {
			if t.String() != "null" {
				typ = t
				break
			}
		}
	}
	switch typ.String() {
	case "string":
		switch s.Get("format").String() {
		case "date-time":
			return `"2026-01-01T00:00:00Z"`
		case "date":
			return `"2026-01-01"`
		case "uri", "url":
			return `"https://example.com/"`
		case "email":
			return `"someone@example.com"`
		}
		n := max(int(s.Get("minLength").Int()), 4)
		if n == 4 {
			return `"text"`
		}
		return strconv.Quote(strings.Repeat("x", min(n, 1000)))
	case "integer", "number":
		n := int64(1)
		if m := s.Get("minimum"); m.Exists() {
			n = m.Int()
		} else if m := s.Get("exclusiveMinimum"); m.Exists() && m.Type == gjson.Number {
			n = m.Int() + 1
		}
		if m := s.Get("maximum"); m.Exists() && n > m.Int() {
			n = m.Int()
		}
		return strconv.FormatInt(n, 10)
	case "boolean":
		return "false"
	case "array":
		n := int(s.Get("minItems").Int())
		items := make([]string, 0, min(n, 10))
		for range min(n, 10) {
			items = append(items, exampleValue(s.Get("items"), depth+1))
		}
		return "[" + strings.Join(items, ", ") + "]"
	case "null":
		return "null"
	case "object", "":
		if typ.String() == "" && !s.Get("properties").Exists() {
			if s.Exists() && depth > 0 {
				return `"text"`
			}
		}
		var members []string
		props := s.Get("properties")
		for _, r := range s.Get("required").Array() {
			name := r.String()
			members = append(members, jsonText(name)+": "+exampleValue(props.Get(gjson.Escape(name)), depth+1))
		}
		return "{" + strings.Join(members, ", ") + "}"
	}
	return `"text"`
}

// compact writes a JSON value on one line, as a YAML flow value reads it.
func compact(raw string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		return raw
	}
	return b.String()
}

// keyPart makes a name into a budget key's part: letters, digits and _.
func keyPart(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

// jsonText writes s as a JSON string, which YAML reads as the same string.
func jsonText(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

func jsonArray(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = jsonText(s)
	}
	return "[ " + strings.Join(q, ", ") + " ]"
}
