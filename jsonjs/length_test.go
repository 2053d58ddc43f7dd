package jsonjs

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// The length oracle: what JSON.stringify(JSON.parse(text)) writes, counted
// in one pass over the text. MeasureValid is checked against it.

// StringifyLenText returns len(JSON.stringify(JSON.parse(text))) for the
// JSON text of one value (valid UTF-8, as Decode returns it), computed in
// one pass over the text without building the value. Only an object with
// a repeated key is parsed whole, since JavaScript drops all but the last.
// Its errors are those Parse would report.
func StringifyLenText(text []byte) (int, error) {
	p := parser{text: text}
	p.ws()
	n, err := p.lenValue()
	if err != nil {
		return 0, err
	}
	p.ws()
	if p.pos != len(text) {
		return 0, p.unexpected()
	}
	return n, nil
}

func (p *parser) lenValue() (int, error) {
	if p.pos >= len(p.text) {
		return 0, p.unexpected()
	}
	switch c := p.text[p.pos]; {
	case c == '"':
		return p.lenString()
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		if err := p.number(); err != nil {
			return 0, err
		}
		return numberLen(p.text[start:p.pos]), nil
	case c == '[':
		return p.lenArray()
	case c == '{':
		return p.lenObject()
	default:
		v, err := p.literal()
		if err != nil {
			return 0, err
		}
		return StringifyLen(v), nil
	}
}

// lenString returns the length of the string at p.pos as JSON.stringify
// writes it again.
func (p *parser) lenString() (int, error) {
	p.pos++
	n := 2
	pendingHigh := false
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		switch {
		case c == '"':
			p.pos++
			return n, nil
		case c < 0x20:
			return 0, p.fail("control character in string")
		case c != '\\':
			end := plainRun(p.text, p.pos+1)
			n += end - p.pos
			p.pos = end
			pendingHigh = false
			continue
		}
		p.pos++
		if p.pos >= len(p.text) {
			return 0, p.fail("unterminated string")
		}
		e := p.text[p.pos]
		p.pos++
		switch e {
		case '"', '\\', 'b', 'f', 'n', 'r', 't':
			n += 2
		case '/':
			n++
		case 'u':
			u, err := p.hex4()
			if err != nil {
				return 0, err
			}
			switch {
			case u >= 0xDC00 && u <= 0xDFFF && pendingHigh:
				n += 4 - 6 // the pair is four bytes of UTF-8, not two escapes
				pendingHigh = false
				continue
			case u >= 0xD800 && u <= 0xDFFF:
				n += 6
				pendingHigh = u <= 0xDBFF
				continue
			case u == '"' || u == '\\' || u == '\b' || u == '\f' || u == '\n' || u == '\r' || u == '\t':
				n += 2
			case u < 0x20:
				n += 6
			default:
				n += utf8.RuneLen(u)
			}
		default:
			p.pos--
			return 0, p.fail("bad escape \\" + string(rune(e)))
		}
		pendingHigh = false
	}
	return 0, p.fail("unterminated string")
}

func (p *parser) lenArray() (int, error) {
	if err := p.enter(); err != nil {
		return 0, err
	}
	p.pos++
	p.ws()
	n := 2
	if p.pos < len(p.text) && p.text[p.pos] == ']' {
		p.pos++
		p.depth--
		return n, nil
	}
	for i := 0; ; i++ {
		if i > 0 {
			n++
		}
		p.ws()
		m, err := p.lenValue()
		if err != nil {
			return 0, err
		}
		n += m
		if done, err := p.afterValue(']'); err != nil {
			return 0, err
		} else if done {
			return n, nil
		}
	}
}

func (p *parser) lenObject() (int, error) {
	start := p.pos
	if err := p.enter(); err != nil {
		return 0, err
	}
	p.pos++
	p.ws()
	n := 2
	if p.pos < len(p.text) && p.text[p.pos] == '}' {
		p.pos++
		p.depth--
		return n, nil
	}
	var keysBuf [16][]byte
	keys := keysBuf[:0]
	escaped := false
	for i := 0; ; i++ {
		if i > 0 {
			n++
		}
		p.ws()
		if p.pos >= len(p.text) || p.text[p.pos] != '"' {
			return 0, p.unexpected()
		}
		ks := p.pos
		kn, err := p.lenString()
		if err != nil {
			return 0, err
		}
		key := p.text[ks+1 : p.pos-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			escaped = true
		}
		keys = append(keys, key)
		n += kn + 1
		p.ws()
		if p.pos >= len(p.text) || p.text[p.pos] != ':' {
			return 0, p.unexpected()
		}
		p.pos++
		p.ws()
		m, err := p.lenValue()
		if err != nil {
			return 0, err
		}
		n += m
		done, err := p.afterValue('}')
		if err != nil {
			return 0, err
		}
		if !done {
			continue
		}
		if escaped || HasDuplicate(keys) {
			// Rare: parse the object to drop what JavaScript drops.
			q := parser{text: p.text, pos: start, depth: p.depth}
			v, err := q.object()
			if err != nil {
				return 0, err
			}
			return StringifyLen(v), nil
		}
		return n, nil
	}
}

// TestUnits16 holds units16 to utf16.Encode on random mixes of one- to
// four-byte characters, at every alignment of the eight-byte words.
func TestUnits16(t *testing.T) {
	chars := []string{"a", "~", "é", "ß", "—", "€", "\uffff", "😀", "\U0010ffff", "\u0800"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(chars[r.IntN(len(chars))])
		}
		s := b.String()
		if got, want := units16([]byte(s)), len(utf16.Encode([]rune(s))); got != want {
			t.Fatalf("units16(%q) = %d, want %d", s, got, want)
		}
	}
}
