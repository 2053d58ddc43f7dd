package jsonjs

import (
	"math/bits"
	"unicode/utf8"
)

// The functions below read text that Validate has already accepted: they
// find where values end and count what JSON.stringify would write without
// checking the text again and without building values. Given text Validate
// refuses, their results mean nothing.

// validWS returns the index of the first byte at or after i that is not
// JSON white space.
func validWS(b []byte, i int) int {
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

// SkipValid returns the index just past the value that starts at b[i] in
// text Validate accepted.
func SkipValid(b []byte, i int) int {
	switch b[i] {
	case '"':
		return StringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			switch b[j] {
			case '"':
				j = StringEnd(b, j)
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

// MeasureValid reads the value that starts at b[i] in text Validate
// accepted, in one pass, and returns the index just past it, the length of
// JSON.stringify(JSON.parse(value)) in UTF-8 bytes (len(Stringify(v)) for
// the Value v Parse makes of it), and the UTF-8 bytes (WTF-8, as
// Buffer.byteLength counts them) of every string that is the value of a
// member named key at any depth, as JavaScript sees the parsed value: of
// repeated keys only the last counts.
// An empty key counts nothing. Objects with a repeated or escaped key are
// parsed whole, since JavaScript drops all but the last of a key.
func MeasureValid(b []byte, i int, key string) (end, n int, keyBytes int64) {
	w := validWalker{b: b, key: key}
	return w.value(i)
}

type validWalker struct {
	b   []byte
	key string
}

func (w *validWalker) value(i int) (end, n int, kb int64) {
	b := w.b
	switch c := b[i]; {
	case c == '"':
		end, n, _ = validString(b, i)
		return end, n, 0
	case c == '{':
		return w.object(i)
	case c == '[':
		return w.array(i)
	case c == 't' || c == 'n':
		return i + 4, 4, 0
	case c == 'f':
		return i + 5, 5, 0
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j, numberLen(b[i:j]), 0
		}
		j++
	}
	return j, numberLen(b[i:j]), 0
}

func (w *validWalker) array(i int) (end, n int, kb int64) {
	b := w.b
	i = validWS(b, i+1)
	if b[i] == ']' {
		return i + 1, 2, 0
	}
	n = 1
	for {
		e, m, k := w.value(i)
		n += m + 1 // the value, then ',' or ']'
		kb += k
		i = validWS(b, e)
		if b[i] == ']' {
			return i + 1, n, kb
		}
		i = validWS(b, i+1) // past ','
	}
}

func (w *validWalker) object(i int) (end, n int, kb int64) {
	b := w.b
	start := i
	i = validWS(b, i+1)
	if b[i] == '}' {
		return i + 1, 2, 0
	}
	n = 1
	var keysBuf [16][]byte
	keys := keysBuf[:0]
	slow := false
	for {
		ke, kn, kraw := validString(b, i)
		key := b[i+1 : ke-1]
		if kraw != len(key) { // an escape always makes the key shorter

			slow = true
		}
		keys = append(keys, key)
		i = validWS(b, validWS(b, ke)+1) // past ':'
		var e, m int
		var k int64
		if b[i] == '"' && w.key != "" && string(key) == w.key {
			var sb int
			e, m, sb = validString(b, i)
			k = int64(sb)
		} else {
			e, m, k = w.value(i)
		}
		n += kn + 1 + m + 1 // "key":value, then ',' or '}'
		kb += k
		i = validWS(b, e)
		if b[i] == '}' {
			end = i + 1
			break
		}
		i = validWS(b, i+1) // past ','
	}
	if slow || HasDuplicate(keys) {
		// Rare: parse the object to drop what JavaScript drops.
		p := parser{text: b, pos: start}
		v, err := p.object()
		if err != nil {
			return end, 0, 0
		}
		return end, StringifyLen(v), keyStringBytes(v, w.key)
	}
	return end, n, kb
}

// keyStringBytes is the slow form of MeasureValid's key count, over a
// parsed value.
func keyStringBytes(v Value, key string) int64 {
	if key == "" {
		return 0
	}
	var n int64
	switch v.Kind() {
	case Array:
		for _, e := range v.Elems() {
			n += keyStringBytes(e, key)
		}
	case Object:
		for _, m := range v.Members() {
			if m.Value.Kind() == String && m.Key == key {
				n += int64(ByteLen(m.Value.Str()))
			} else {
				n += keyStringBytes(m.Value, key)
			}
		}
	}
	return n
}

// validString reads the string that starts at b[i] (its opening quote) in
// text Validate accepted and returns the index just past it, the length
// of JSON.stringify of it, and its UTF-8 bytes (WTF-8) once parsed.
func validString(b []byte, i int) (end, n, bytes int) {
	i++
	n = 2
	pendingHigh := false
	for i < len(b) {
		c := b[i]
		if c == '"' {
			return i + 1, n, bytes
		}
		if c != '\\' {
			e := plainRun(b, i+1)
			n += e - i
			bytes += e - i
			i = e
			pendingHigh = false
			continue
		}
		if i+1 >= len(b) {
			return len(b), n, bytes
		}
		e := b[i+1]
		i += 2
		switch e {
		case '"', '\\', 'b', 'f', 'n', 'r', 't':
			n += 2
			bytes++
		case '/':
			n++
			bytes++
		case 'u':
			if i+4 > len(b) {
				return len(b), n, bytes
			}
			u := hexVal(b[i])<<12 | hexVal(b[i+1])<<8 | hexVal(b[i+2])<<4 | hexVal(b[i+3])
			i += 4
			switch {
			case u >= 0xDC00 && u <= 0xDFFF && pendingHigh:
				n += 4 - 6 // the pair is four bytes of UTF-8, not two escapes
				bytes += 4 - 3
				pendingHigh = false
				continue
			case u >= 0xD800 && u <= 0xDFFF:
				n += 6
				bytes += 3
				pendingHigh = u <= 0xDBFF
				continue
			case u == '"' || u == '\\' || u == '\b' || u == '\f' || u == '\n' || u == '\r' || u == '\t':
				n += 2
				bytes++
			case u < 0x20:
				n += 6
				bytes++
			default:
				l := utf8.RuneLen(u)
				n += l
				bytes += l
			}
		}
		pendingHigh = false
	}
	return len(b), n, bytes
}

// MeasureStringValid returns the index just past the string token at
// b[i], from text Validate accepted, the length of JSON.stringify of the
// string, and its UTF-8 bytes (WTF-8) once parsed, in one pass.
func MeasureStringValid(b []byte, i int) (end, n, bytes int) { return validString(b, i) }

// StringLensValid returns the length in UTF-16 code units (as JavaScript's
// length counts) and in UTF-8 bytes (WTF-8, as Buffer.byteLength counts)
// of the string token s, quotes included, from text Validate accepted,
// once parsed.
func StringLensValid(s []byte) (units, bytes int) {
	i := 1
	pendingHigh := false
	for i < len(s) {
		c := s[i]
		if c == '"' {
			return units, bytes
		}
		if c != '\\' {
			e := plainRun(s, i+1)
			units += units16(s[i:e])
			bytes += e - i
			i = e
			pendingHigh = false
			continue
		}
		if i+1 >= len(s) {
			break
		}
		esc := s[i+1]
		i += 2
		units++
		if esc != 'u' {
			bytes++
			pendingHigh = false
			continue
		}
		if i+4 > len(s) {
			break
		}
		u := hexVal(s[i])<<12 | hexVal(s[i+1])<<8 | hexVal(s[i+2])<<4 | hexVal(s[i+3])
		i += 4
		switch {
		case u >= 0xDC00 && u <= 0xDFFF && pendingHigh:
			bytes += 4 - 3 // the pair is four bytes, not two lone surrogates
			pendingHigh = false
			continue
		case u >= 0xD800 && u <= 0xDFFF:
			bytes += 3
			pendingHigh = u <= 0xDBFF
			continue
		}
		bytes += utf8.RuneLen(u)
		pendingHigh = false
	}
	return units, bytes
}

// units16 returns the UTF-16 code units of the valid UTF-8 text b: every
// byte but a continuation byte starts a character, and a four-byte
// character is two units. It reads eight bytes at a time.
func units16(b []byte) int {
	n := 0
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := uint64(b[i]) | uint64(b[i+1])<<8 | uint64(b[i+2])<<16 | uint64(b[i+3])<<24 |
			uint64(b[i+4])<<32 | uint64(b[i+5])<<40 | uint64(b[i+6])<<48 | uint64(b[i+7])<<56
		// a continuation byte is 10xxxxxx (no unit), a four-byte lead
		// 11110xxx (two): shifted left, a byte's lower bits reach its top
		// bit without leaving it
		cont := w & msb &^ (w << 1)
		four := w & (w << 1) & (w << 2) & (w << 3) & msb
		n += 8 - bits.OnesCount64(cont) + bits.OnesCount64(four)
	}
	for _, c := range b[i:] {
		n += unitsOf(c)
	}
	return n
}

func unitsOf(c byte) int {
	switch {
	case c < 0x80:
		return 1
	case c < 0xC0:
		return 0
	case c < 0xF0:
		return 1
	}
	return 2
}
