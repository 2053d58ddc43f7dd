package twin

import (
	"bytes"
	"encoding/json"
	"strings"
)

// renderText writes an API answer as the text a tool result carries: one
// "key: value" line per scalar, in the answer's own order; nested objects
// indented under their key; lists of scalars on one line; a list of
// objects as "- " items; text with line breaks as an indented block. It is
// the same facts as structuredContent, in a form a model reads as prose.
func renderText(body []byte) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	v, err := decodeOrdered(dec)
	if err != nil {
		return string(body)
	}
	var b strings.Builder
	writeValue(&b, v, 0)
	return strings.TrimRight(b.String(), "\n")
}

// textMember is one member of an object, in order.
type textMember struct {
	key string
	val any
}

// textObject is a JSON object with its members in order.
type textObject []textMember

// decodeOrdered reads one JSON value, keeping object member order.
func decodeOrdered(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var o textObject
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, textMember{kt.(string), v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		var a []any
		for dec.More() {
			v, err := decodeOrdered(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}

func scalarText(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "null", true
	case bool:
		if v {
			return "true", true
		}
		return "false", true
	case json.Number:
		return v.String(), true
	case string:
		return v, true
	}
	return "", false
}

func writeValue(b *strings.Builder, v any, indent int) {
	pad := strings.Repeat("  ", indent)
	switch v := v.(type) {
	case textObject:
		for _, m := range v {
			writeMember(b, m.key, m.val, indent)
		}
	case []any:
		for _, it := range v {
			writeItem(b, it, indent)
		}
	default:
		s, _ := scalarText(v)
		b.WriteString(pad + s + "\n")
	}
}

func writeMember(b *strings.Builder, key string, v any, indent int) {
	pad := strings.Repeat("  ", indent)
	if s, ok := scalarText(v); ok {
		if str, isStr := v.(string); isStr && strings.Contains(str, "\n") {
			b.WriteString(pad + key + ":\n")
			for _, line := range strings.Split(str, "\n") {
				b.WriteString(pad + "  " + line + "\n")
			}
			return
		}
		b.WriteString(pad + key + ": " + s + "\n")
		return
	}
	switch v := v.(type) {
	case textObject:
		if len(v) == 0 {
			b.WriteString(pad + key + ": {}\n")
			return
		}
		b.WriteString(pad + key + ":\n")
		writeValue(b, v, indent+1)
	case []any:
		if len(v) == 0 {
			b.WriteString(pad + key + ": none\n")
			return
		}
		if line, ok := scalarList(v); ok {
			b.WriteString(pad + key + ": " + line + "\n")
			return
		}
		b.WriteString(pad + key + ":\n")
		for _, it := range v {
			writeItem(b, it, indent+1)
		}
	}
}

// writeItem writes one list item: "- " then its first member on the same
// line, the rest under it.
func writeItem(b *strings.Builder, it any, indent int) {
	pad := strings.Repeat("  ", indent)
	if s, ok := scalarText(it); ok {
		b.WriteString(pad + "- " + s + "\n")
		return
	}
	var inner strings.Builder
	writeValue(&inner, it, indent+1)
	text := inner.String()
	text = strings.TrimPrefix(text, pad+"  ")
	b.WriteString(pad + "- " + text)
}

// scalarList joins a list of scalars with ", ", unless one holds a line
// break.
func scalarList(a []any) (string, bool) {
	parts := make([]string, len(a))
	for i, it := range a {
		s, ok := scalarText(it)
		if !ok || strings.Contains(s, "\n") {
			return "", false
		}
		parts[i] = s
	}
	return strings.Join(parts, ", "), true
}
