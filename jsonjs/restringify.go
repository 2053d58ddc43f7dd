package jsonjs

import (
	"strconv"
	"unicode/utf8"
)

// AppendStringifyValid appends JSON.stringify(JSON.parse(value)) for the
// value that starts at b[i] in text Validate accepted, written straight
// from the text, and returns the index just past the value. White space
// goes, strings are quoted and numbers written again as JavaScript writes
// them; only an object whose keys JavaScript reorders or merges (a repeated
// or escaped key, an integer-like key) is parsed, and written from the
// parsed value.
func AppendStringifyValid(dst, b []byte, i int) ([]byte, int) {
	return appendValid(dst, b, i, nil)
}

// AppendStringifyValidKey is AppendStringifyValid that also returns the
// UTF-8 bytes of every string that is the value of a member named key at
// any depth, as MeasureValid counts them.
func AppendStringifyValidKey(dst, b []byte, i int, key string) ([]byte, int, int64) {
	kc := keyCount{key: key}
	dst, i = appendValid(dst, b, i, &kc)
	return dst, i, kc.n
}

// keyCount sums the UTF-8 bytes of the strings under key (see
// AppendStringifyValidKey).
type keyCount struct {
	key string
	n   int64
}

func appendValid(dst, b []byte, i int, kc *keyCount) ([]byte, int) {
	switch c := b[i]; {
	case c == '"':
		return appendStringValid(dst, b, i)
	case c == '{':
		return appendObjectValid(dst, b, i, kc)
	case c == '[':
		dst = append(dst, '[')
		i = validWS(b, i+1)
		if b[i] == ']' {
			return append(dst, ']'), i + 1
		}
		for {
			dst, i = appendValid(dst, b, i, kc)
			i = validWS(b, i)
			if b[i] == ']' {
				return append(dst, ']'), i + 1
			}
			dst = append(dst, ',')
			i = validWS(b, i+1)
		}
	case c == 't' || c == 'n':
		return append(dst, b[i:i+4]...), i + 4
	case c == 'f':
		return append(dst, "false"...), i + 5
	}
	j := i
	for j < len(b) {
		if c := b[j]; c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			break
		}
		j++
	}
	return AppendNumberText(dst, b[i:j]), j
}

// AppendNumberText appends String(Number(t)) for the valid JSON number
// token t ("null" when it overflows to an infinity, as JSON.stringify
// writes it).
func AppendNumberText(dst, t []byte) []byte {
	if plainInteger(t) {
		return append(dst, t...)
	}
	f, _ := strconv.ParseFloat(string(t), 64)
	return AppendStringify(dst, NumberValue(f))
}

// plainInteger reports whether the number token t is an integer that
// JavaScript writes back as it is: no fraction or exponent, no leading
// zero, no "-0", at most 2^53.
func plainInteger(t []byte) bool {
	d := t
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 16 || (len(d) == 16 && string(d) > "9007199254740992") || (d[0] == '0' && (len(d) > 1 || len(t) != len(d))) {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// appendObjectValid writes an object: straight from the text when its keys
// are plain and distinct, else parsed.
func appendObjectValid(dst, b []byte, i int, kc *keyCount) ([]byte, int) {
	start, mark := i, len(dst)
	var counted int64 // what kc counted here, taken back when parsed
	dst = append(dst, '{')
	i = validWS(b, i+1)
	if b[i] == '}' {
		return append(dst, '}'), i + 1
	}
	var keysBuf [16][]byte
	keys := keysBuf[:0]
	for {
		ke := StringEnd(b, i)
		key := b[i+1 : ke-1]
		if PlainKey(key) {
			// written as it is
		} else {
			return appendObjectParsed(dst[:mark], b, start, kc, counted)
		}
		keys = append(keys, key)
		dst = append(dst, b[i:ke]...)
		dst = append(dst, ':')
		i = validWS(b, validWS(b, ke)+1)
		if kc != nil && b[i] == '"' && string(key) == kc.key && kc.key != "" {
			vi := i
			dst, i = appendStringValid(dst, b, i)
			_, n := StringLensValid(b[vi:i])
			kc.n += int64(n)
			counted += int64(n)
		} else if kc != nil {
			before := kc.n
			dst, i = appendValid(dst, b, i, kc)
			counted += kc.n - before
		} else {
			dst, i = appendValid(dst, b, i, nil)
		}
		i = validWS(b, i)
		if b[i] == '}' {
			i++
			break
		}
		dst = append(dst, ',')
		i = validWS(b, i+1)
	}
	if HasDuplicate(keys) {
		return appendObjectParsed(dst[:mark], b, start, kc, counted)
	}
	return append(dst, '}'), i
}

// PlainKey reports whether a raw key is written back as it is and keeps
// its place: no escape, and not starting with a digit (an integer-like
// key moves first).
func PlainKey(key []byte) bool {
	if len(key) > 0 && key[0] >= '0' && key[0] <= '9' {
		return false
	}
	for _, c := range key {
		if c == '\\' {
			return false
		}
	}
	return true
}

// appendObjectParsed writes the object at b[start] from its parsed
// value; kc, when not nil, takes back what it counted of the object's text
// (counted) and counts the parsed value, as JavaScript keeps it.
func appendObjectParsed(dst, b []byte, start int, kc *keyCount, counted int64) ([]byte, int) {
	p := parser{text: b, pos: start}
	v, err := p.object()
	if err != nil {
		return dst, SkipValid(b, start)
	}
	if kc != nil {
		kc.n += keyStringBytes(v, kc.key) - counted
	}
	return AppendStringify(dst, v), p.pos
}

// appendStringValid appends the string token that starts at b[i] (its
// opening quote) in text Validate accepted as JSON.stringify writes the
// parsed string back, and returns the index just past the token: escapes
// JSON.stringify does not write are undone (\/, \u00e9, a surrogate pair),
// the ones it writes are written its way (\u001f, \ud800 for a lone
// surrogate, \n).
func appendStringValid(dst, b []byte, i int) ([]byte, int) {
	dst, i = appendStringBody(append(dst, '"'), b, i+1)
	return append(dst, '"'), i
}

// AppendKeyValid appends the key whose raw text (between the quotes, as
// MembersValid gives it) is raw, as JSON.stringify writes it.
func AppendKeyValid(dst, raw []byte) []byte {
	dst, _ = appendStringBody(append(dst, '"'), raw, 0)
	return append(dst, '"')
}

// appendStringBody writes the string's characters from b[i] up to its
// closing quote (or the end of b) and returns the index past the quote.
func appendStringBody(dst, b []byte, i int) ([]byte, int) {
	for i < len(b) {
		e := plainRun(b, i)
		dst = append(dst, b[i:e]...)
		i = e
		if i >= len(b) {
			break
		}
		if b[i] == '"' {
			return dst, i + 1
		}
		if b[i] != '\\' || i+1 >= len(b) {
			i++ // not in valid text
			continue
		}
		esc := b[i+1]
		i += 2
		switch esc {
		case '"', '\\', 'b', 'f', 'n', 'r', 't':
			dst = append(dst, '\\', esc)
			continue
		case '/':
			dst = append(dst, '/')
			continue
		case 'u':
		default:
			continue // not in valid text
		}
		if i+4 > len(b) {
			break
		}
		u := hexVal(b[i])<<12 | hexVal(b[i+1])<<8 | hexVal(b[i+2])<<4 | hexVal(b[i+3])
		i += 4
		switch {
		case u >= 0xD800 && u <= 0xDBFF && i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u':
			lo := hexVal(b[i+2])<<12 | hexVal(b[i+3])<<8 | hexVal(b[i+4])<<4 | hexVal(b[i+5])
			if lo >= 0xDC00 && lo <= 0xDFFF {
				dst = utf8.AppendRune(dst, 0x10000+(u-0xD800)<<10+(lo-0xDC00))
				i += 6
				continue
			}
			dst = appendEscape(dst, u)
		case u >= 0xD800 && u <= 0xDFFF:
			dst = appendEscape(dst, u)
		case u == '"' || u == '\\':
			dst = append(dst, '\\', byte(u))
		case u == '\b':
			dst = append(dst, '\\', 'b')
		case u == '\f':
			dst = append(dst, '\\', 'f')
		case u == '\n':
			dst = append(dst, '\\', 'n')
		case u == '\r':
			dst = append(dst, '\\', 'r')
		case u == '\t':
			dst = append(dst, '\\', 't')
		case u < 0x20:
			dst = appendEscape(dst, u)
		default:
			dst = utf8.AppendRune(dst, u)
		}
	}
	return dst, len(b)
}

// OrderValid returns the members of an object's validated text (as
// MembersValid lists them) in the order JSON.parse leaves them: a repeated
// key keeps its first place and takes the last value, and integer-like
// keys come first, ascending. It returns ms itself when nothing moves.
func OrderValid(ms []MemberValid) []MemberValid {
	moves := false
	for _, m := range ms {
		if !PlainKey(m.Key) {
			moves = true
			break
		}
	}
	if !moves {
		keys := make([][]byte, len(ms))
		for i, m := range ms {
			keys[i] = m.Key
		}
		if !HasDuplicate(keys) {
			return ms
		}
	}
	tmp := make([]Member, len(ms))
	for i, m := range ms {
		tmp[i] = Member{Key: unescapeKey(m.Key), Value: NumberValue(float64(i))}
	}
	tmp = orderMembers(tmp)
	out := make([]MemberValid, len(tmp))
	for i, m := range tmp {
		out[i] = ms[int(m.Value.Num())]
	}
	return out
}

// appendEscape appends \uXXXX with lowercase hex digits, as JSON.stringify
// writes it.
func appendEscape(dst []byte, u rune) []byte {
	return append(dst, '\\', 'u', hexDigits[u>>12&0xF], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
}
