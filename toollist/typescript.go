package toollist

import (
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// RenderTypeScript writes one function as OpenAI's models are widely
// reported to read it: a TypeScript-like declaration inside the system
// message's "namespace functions" block (the profile's Prelude and
// Postlude hold the block around the declarations). OpenAI does not
// document the format, so this is an approximation of it, and exactly this
// text is counted:
//
//	// DESCRIPTION (every line of it, each behind "// ")
//	type NAME = (_: {
//	// PROPERTY DESCRIPTION
//	key?: TYPE,
//	}) => any;
//	(a blank line)
//
// A function whose parameters declare no property is "type NAME = () =>
// any;". A property is written "key:" when parameters.required lists it,
// "key?:" otherwise; a key that is not an identifier is written as
// JSON.stringify writes it. TYPE is: the enum's values (each as
// JSON.stringify writes it) joined by " | "; const's value; anyOf's or
// oneOf's types joined by " | "; for a list of types, each joined by " | ";
// string, number (for number and integer), boolean, null; an array as
// ITEMS[] ((A | B)[] for a union, any[] without items); an object with
// properties as a block of them indented two spaces deeper, closed at the
// object's own depth; object without properties; any for anything else.
// fn holds name, description and parameters; a name that is not a string
// is written as JSON.stringify writes it, and a description that is not a
// string is left out.
func RenderTypeScript(fn jsonjs.Value) []byte {
	var b strings.Builder
	if d, ok := fn.Get("description"); ok && d.Kind() == jsonjs.String && d.Str() != "" {
		comment(&b, d.Str(), 0)
	}
	name := ""
	if n, ok := fn.Get("name"); ok {
		if n.Kind() == jsonjs.String {
			name = n.Str()
		} else {
			name = string(jsonjs.Stringify(n))
		}
	}
	b.WriteString("type " + name + " = ")
	params, _ := fn.Get("parameters")
	if props, ok := params.Get("properties"); ok && len(props.Members()) > 0 {
		b.WriteString("(_: {\n")
		tsProps(&b, params, 0)
		b.WriteString("}) => any;\n\n")
	} else {
		b.WriteString("() => any;\n\n")
	}
	return []byte(b.String())
}

// comment writes text as // lines at depth.
func comment(b *strings.Builder, text string, depth int) {
	for line := range strings.SplitSeq(text, "\n") {
		b.WriteString(strings.Repeat("  ", depth) + "// " + line + "\n")
	}
}

// tsProps writes the properties of the object schema obj at depth, one
// line each (after its description's).
func tsProps(b *strings.Builder, obj jsonjs.Value, depth int) {
	props, _ := obj.Get("properties")
	var required []string
	if r, ok := obj.Get("required"); ok {
		for _, e := range r.Elems() {
			if e.Kind() == jsonjs.String {
				required = append(required, e.Str())
			}
		}
	}
	for _, m := range props.Members() {
		if d, ok := m.Value.Get("description"); ok && d.Kind() == jsonjs.String && d.Str() != "" {
			comment(b, d.Str(), depth)
		}
		key := m.Key
		if !identifier(key) {
			key = string(jsonjs.Stringify(jsonjs.StringValue(key)))
		}
		opt := "?"
		for _, r := range required {
			if r == m.Key {
				opt = ""
				break
			}
		}
		b.WriteString(strings.Repeat("  ", depth) + key + opt + ": " + tsType(m.Value, depth) + ",\n")
	}
}

// tsType returns the TypeScript-like type of the schema s at depth.
func tsType(s jsonjs.Value, depth int) string {
	if s.Kind() != jsonjs.Object {
		return "any"
	}
	if e, ok := s.Get("enum"); ok && e.Kind() == jsonjs.Array && len(e.Elems()) > 0 {
		parts := make([]string, len(e.Elems()))
		for i, v := range e.Elems() {
			parts[i] = string(jsonjs.Stringify(v))
		}
		return strings.Join(parts, " | ")
	}
	if c, ok := s.Get("const"); ok {
		return string(jsonjs.Stringify(c))
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if u, ok := s.Get(k); ok && u.Kind() == jsonjs.Array && len(u.Elems()) > 0 {
			parts := make([]string, len(u.Elems()))
			for i, v := range u.Elems() {
				parts[i] = tsType(v, depth)
			}
			return strings.Join(parts, " | ")
		}
	}
	t, _ := s.Get("type")
	if t.Kind() == jsonjs.Array {
		var parts []string
		for _, e := range t.Elems() {
			if e.Kind() == jsonjs.String {
				parts = append(parts, tsNamed(s, e.Str(), depth))
			}
		}
		if len(parts) == 0 {
			return "any"
		}
		return strings.Join(parts, " | ")
	}
	if t.Kind() != jsonjs.String {
		return "any"
	}
	return tsNamed(s, t.Str(), depth)
}

// tsNamed returns the type of the schema s taken as of the JSON Schema
// type named t.
func tsNamed(s jsonjs.Value, t string, depth int) string {
	switch t {
	case "string", "boolean", "null":
		return t
	case "number", "integer":
		return "number"
	case "array":
		items, ok := s.Get("items")
		if !ok || items.Kind() != jsonjs.Object {
			return "any[]"
		}
		it := tsType(items, depth)
		if strings.Contains(it, " | ") {
			it = "(" + it + ")"
		}
		return it + "[]"
	case "object":
		if props, ok := s.Get("properties"); ok && len(props.Members()) > 0 {
			var b strings.Builder
			b.WriteString("{\n")
			tsProps(&b, s, depth+1)
			b.WriteString(strings.Repeat("  ", depth) + "}")
			return b.String()
		}
		return "object"
	}
	return "any"
}

// identifier reports whether k can be written as a TypeScript property
// name without quotes: ASCII letters, digits, _ and $, not starting with a
// digit.
func identifier(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c == '$' || 'a' <= c|0x20 && c|0x20 <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
