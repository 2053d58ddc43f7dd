package toollist

import (
	"bytes"

	"readmeter/jsonjs"
)

// The scanner below walks JSON text that jsonjs has already validated: it
// finds where values end and what keys say without checking the text again
// and without building values, so a large capture costs one validating
// pass and a few fast ones.

// skipWS returns the index of the first byte at or after i that is not
// JSON white space.
func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at b[i] == '"'.
func skipString(b []byte, i int) int { return jsonjs.StringEnd(b, i) }

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			switch b[j] {
			case '"':
				j = skipString(b, j)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
			j++
		}
		return len(b)
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
		j++
	}
	return j
}

// member is one member of an object's validated text: its key as written
// between the quotes (escapes not yet undone) and its value's text.
type member struct {
	key   []byte
	value []byte
}

// members appends the members of the validated object text b (starting
// with '{') to dst, in the order written.
func members(dst []member, b []byte) []member {
	i := skipWS(b, 0) + 1
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] == '}' {
			return dst
		}
		if b[i] == ',' {
			i++
			continue
		}
		ke := skipString(b, i)
		key := b[i+1 : ke-1]
		i = skipWS(b, ke) + 1 // past ':'
		i = skipWS(b, i)
		ve := skipValue(b, i)
		dst = append(dst, member{key: key, value: b[i:ve]})
		i = ve
	}
}

// elems appends the elements of the validated array text b to dst.
func elems(dst [][]byte, b []byte) [][]byte {
	i := skipWS(b, 0) + 1
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] == ']' {
			return dst
		}
		if b[i] == ',' {
			i++
			continue
		}
		e := skipValue(b, i)
		dst = append(dst, b[i:e])
		i = e
	}
}

// keyIs reports whether the raw key text (between quotes) names want, its
// escapes undone.
func keyIs(raw []byte, want string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == want
	}
	return unescapeKey(raw) == want
}

// unescapeKey undoes the escapes of a raw key.
func unescapeKey(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	v, err := jsonjs.Parse(q)
	if err != nil {
		return string(raw)
	}
	return v.Str()
}

// sameKey reports whether two raw keys name the same property.
func sameKey(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if bytes.IndexByte(a, '\\') < 0 && bytes.IndexByte(b, '\\') < 0 {
		return false
	}
	return unescapeKey(a) == unescapeKey(b)
}

// lastMember returns the value JavaScript reads for key: the last member
// of that name.
func lastMember(ms []member, key string) ([]byte, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if keyIs(ms[i].key, key) {
			return ms[i].value, true
		}
	}
	return nil, false
}

// stringBytes returns the UTF-8 byte length (WTF-8, as Buffer.byteLength
// counts) of the validated string token s, with its quotes.
func stringBytes(s []byte) int64 {
	if bytes.IndexByte(s, '\\') < 0 {
		return int64(len(s) - 2)
	}
	v, err := jsonjs.Parse(s)
	if err != nil {
		return 0
	}
	return int64(jsonjs.ByteLen(v.Str()))
}

// parseString returns the JavaScript string of the validated string token s.
func parseString(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1])
	}
	v, _ := jsonjs.Parse(s)
	return v.Str()
}

// fieldDescriptionText sums the UTF-8 bytes of every string value of a
// member named "description" at any depth of the validated text b, as
// JavaScript would see the parsed value: of repeated keys, only the last
// counts. stack is scratch space reused across calls.
func fieldDescriptionText(b []byte, stack *[]member) int64 {
	b = b[skipWS(b, 0):]
	if len(b) == 0 {
		return 0
	}
	switch b[0] {
	case '[':
		var n int64
		i := 1
		for {
			i = skipWS(b, i)
			if i >= len(b) || b[i] == ']' {
				return n
			}
			if b[i] == ',' {
				i++
				continue
			}
			e := skipValue(b, i)
			if c := b[i]; c == '{' || c == '[' {
				n += fieldDescriptionText(b[i:e], stack)
			}
			i = e
		}
	case '{':
		base := len(*stack)
		*stack = members(*stack, b)
		ms := (*stack)[base:]
		var n int64
		var last map[string]int // for large objects: key -> last index
		if len(ms) > 32 {
			last = make(map[string]int, len(ms))
			for i, m := range ms {
				last[unescapeKey(m.key)] = i
			}
		}
		for i, m := range ms {
			if last != nil {
				if last[unescapeKey(m.key)] != i {
					continue
				}
			} else if laterKey(ms[i+1:], m.key) {
				continue
			}
			switch c := m.value[0]; {
			case c == '"' && keyIs(m.key, "description"):
				n += stringBytes(m.value)
			case c == '{' || c == '[':
				n += fieldDescriptionText(m.value, stack)
			}
		}
		*stack = (*stack)[:base]
		return n
	}
	return 0
}

// laterKey reports whether one of ms names key.
func laterKey(ms []member, key []byte) bool {
	for _, m := range ms {
		if sameKey(key, m.key) {
			return true
		}
	}
	return false
}
