package toollist

import (
	"bytes"

	"github.com/readmeter/readmeter/jsonjs"
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
func skipValue(b []byte, i int) int { return jsonjs.SkipValid(b, i) }

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

// parseString returns the JavaScript string of the validated string token s.
func parseString(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1])
	}
	v, _ := jsonjs.Parse(s)
	return v.Str()
}
