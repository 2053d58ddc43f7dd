package jsonjs

import "bytes"

// The scanner below walks JSON text that Validate (or ValidateFindEach) has
// already accepted: it finds where values end and what keys say without
// checking the text again and without building values, so a large text
// costs one validating pass and a few fast ones. Given text Validate
// refuses, its results mean nothing.
//
//	ms := jsonjs.MembersValid(nil, text)            // text: a validated object
//	tools, ok := jsonjs.LastMember(ms, "tools")     // the member JSON.parse keeps
//	if ok && jsonjs.KindValid(tools) == jsonjs.Array {
//		for _, tool := range jsonjs.ElemsValid(nil, tools) { ... }
//	}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int { return validWS(b, i) }

// MemberValid is one member of an object's validated text: its key as
// written between the quotes (escapes not undone) and its value's text.
type MemberValid struct {
	Key   []byte
	Value []byte
}

// MembersValid appends the members of the validated object text b
// (starting with '{', white space around allowed) to dst, in the order
// written, repeated keys kept.
func MembersValid(dst []MemberValid, b []byte) []MemberValid {
	for i := validWS(b, 0) + 1; ; {
		key, v, ok := NextMemberValid(b, i)
		if !ok {
			return dst
		}
		i = SkipValid(b, v)
		dst = append(dst, MemberValid{Key: key, Value: b[v:i]})
	}
}

// NextMemberValid reads the next member of the validated object text b
// from b[i], just past the object's '{' or past a member's value: its key
// as written between the quotes (escapes not undone) and where its value
// starts. ok is false at the object's end.
func NextMemberValid(b []byte, i int) (key []byte, value int, ok bool) {
	i = validWS(b, i)
	if i < len(b) && b[i] == ',' {
		i = validWS(b, i+1)
	}
	if i >= len(b) || b[i] == '}' {
		return nil, i, false
	}
	ke := StringEnd(b, i)
	return b[i+1 : ke-1], validWS(b, validWS(b, ke)+1), true
}

// ElemsValid appends the elements of the validated array text b to dst.
func ElemsValid(dst [][]byte, b []byte) [][]byte {
	i := validWS(b, 0) + 1
	for {
		i = validWS(b, i)
		if i >= len(b) || b[i] == ']' {
			return dst
		}
		if b[i] == ',' {
			i++
			continue
		}
		e := SkipValid(b, i)
		dst = append(dst, b[i:e])
		i = e
	}
}

// KeyIs reports whether the raw key text (between the quotes, as
// MembersValid gives it) names want once its escapes are undone.
func KeyIs(raw []byte, want string) bool {
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
	p := parser{text: make([]byte, 0, len(raw)+2)}
	p.text = append(append(append(p.text, '"'), raw...), '"')
	s, err := p.str()
	if err != nil {
		return string(raw)
	}
	return s
}

// LastMember returns the value JSON.parse keeps for key: that of the last
// member of that name.
func LastMember(ms []MemberValid, key string) ([]byte, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if KeyIs(ms[i].Key, key) {
			return ms[i].Value, true
		}
	}
	return nil, false
}

// StringValid returns the JavaScript string (WTF-8) of the validated
// string token s, quotes included.
func StringValid(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1])
	}
	p := parser{text: s}
	v, _ := p.str()
	return v
}

// KindValid returns the kind of the validated value text raw from its
// first byte (white space before it allowed); Null for empty text.
func KindValid(raw []byte) Kind {
	i := validWS(raw, 0)
	if i >= len(raw) {
		return Null
	}
	switch raw[i] {
	case '{':
		return Object
	case '[':
		return Array
	case '"':
		return String
	case 't', 'f':
		return Bool
	case 'n':
		return Null
	}
	return Number
}
