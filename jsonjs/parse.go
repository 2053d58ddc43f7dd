package jsonjs

import (
	"bytes"
	"fmt"
	"strconv"
	"sync"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and objects may nest before Parse refuses
// the text. Node's JSON.stringify overflows its stack long before this.
const MaxDepth = 100000

// SyntaxError is text that JSON.parse refuses: where (byte offset, 1-based
// line and column in characters) and what is wrong.
type SyntaxError struct {
	Offset int
	Line   int
	Column int
	Msg    string
}

// Error returns "line L, column C: MSG".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// RawMember is one member of an object's text, found without parsing its
// value: the key (unescaped, WTF-8), the value's exact bytes, and the
// value's byte offset in the text given.
type RawMember struct {
	Key    string
	Value  []byte
	Offset int
}

type parser struct {
	text  []byte
	pos   int
	depth int
	buf   []byte   // scratch for strings with escapes
	ms    []Member // members of the objects being read, a stack
	es    []Value  // elements of the arrays being read, a stack
	// the members and elements of the objects and arrays read are cut
	// from slabs, a few allocations a text rather than one an object
	mslab []Member
	eslab []Value
	// short strings read lately, so that a key or a value the text
	// repeats ("type", "string") is one string: a Parser's, kept from
	// text to text, or else the parser's own
	kept *[256]string
	seen [64]string
}

// parseStacks are a parser's scratch, kept from one Parse to the next.
type parseStacks struct {
	buf []byte
	ms  []Member
	es  []Value
}

var stacks = sync.Pool{New: func() any { return new(parseStacks) }}

// slabMax is the most members or elements a slab holds (unless one object
// or array needs more).
const slabMax = 1024

// intern returns the string b holds, the one read before when it was read
// lately.
func (p *parser) intern(b []byte) string {
	n := len(b)
	if n == 0 || n > 32 {
		return string(b)
	}
	h := uint(n)*0x9e5 ^ uint(b[0])*0x1f ^ uint(b[n-1])<<2 ^ uint(b[n/2])*0x7 ^ uint(b[n/3])<<5 ^ uint(b[n-n/4-1])*0x3b
	var slot *string
	if p.kept != nil {
		slot = &p.kept[h&uint(len(p.kept)-1)]
	} else {
		slot = &p.seen[h&uint(len(p.seen)-1)]
	}
	if s := *slot; s == string(b) {
		return s
	}
	s := string(b)
	*slot = s
	return s
}

// members returns room for n members, cut from the slab. The first slab
// holds as many members as the text has colons (up to slabMax), which is
// at least all of them unless the text is large.
func (p *parser) members(n int) []Member {
	l := len(p.mslab)
	if cap(p.mslab)-l < n {
		size := slabMax
		if p.mslab == nil {
			size = min(bytes.Count(p.text, colon)+1, slabMax)
		}
		p.mslab = make([]Member, 0, max(n, size))
		l = 0
	}
	p.mslab = p.mslab[:l+n]
	return p.mslab[l : l+n : l+n]
}

var colon = []byte{':'}

// elems returns room for n elements, cut from the slab.
func (p *parser) elems(n int) []Value {
	l := len(p.eslab)
	if cap(p.eslab)-l < n {
		p.eslab = make([]Value, 0, max(n, min(2*cap(p.eslab), slabMax), 16))
		l = 0
	}
	p.eslab = p.eslab[:l+n]
	return p.eslab[l : l+n : l+n]
}

func newSyntaxError(text []byte, off int, msg string) *SyntaxError {
	if off > len(text) {
		off = len(text)
	}
	line, col := 1, 1
	for i := 0; i < off; {
		if text[i] == '\n' {
			line++
			col = 1
			i++
			continue
		}
		_, n := utf8.DecodeRune(text[i:])
		i += n
		col++
	}
	return &SyntaxError{Offset: off, Line: line, Column: col, Msg: msg}
}

func (p *parser) fail(msg string) error { return newSyntaxError(p.text, p.pos, msg) }

func (p *parser) unexpected() error {
	if p.pos >= len(p.text) {
		return p.fail("unexpected end of JSON input")
	}
	r, _ := utf8.DecodeRune(p.text[p.pos:])
	if r < 0x20 || r == 0x7f || r == 0xFEFF || r == 0xA0 || r == 0x2028 || r == 0x2029 {
		return p.fail(fmt.Sprintf("unexpected character U+%04X", r))
	}
	return p.fail(fmt.Sprintf("unexpected character %q", r))
}

func (p *parser) ws() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// Parse reads text (valid UTF-8, as Decode returns it) as JSON.parse does.
// Its errors are *SyntaxError.
func Parse(text []byte) (Value, error) {
	p := parser{text: text}
	return p.parse()
}

// A Parser parses texts one after another, as Parse does, in the room of
// the values it built before: the arrays and objects the last Parse
// returned are valid only until the next one (their strings stay valid).
// Where each text's value is dropped before the next is read, it spares
// an allocation a text, and fresh memory. Its zero value is ready; one
// goroutine at a time uses it.
type Parser struct {
	ms   []Member    // the members of the values returned last
	es   []Value     // their elements
	kept [256]string // the short strings read lately (see parser.kept)
}

// Parse reads text as Parse does; the arrays and objects of the values
// the Parser returned before are no longer valid.
func (ps *Parser) Parse(text []byte) (Value, error) {
	// what the last text left in the room is overwritten, not cleared:
	// it keeps at most one text's strings alive
	// room for as many members as the text has colons, and elements as
	// it has commas and opening brackets: at least as many as it holds
	if n := bytes.Count(text, colon) + 1; cap(ps.ms) < n {
		ps.ms = make([]Member, 0, n+n/4)
	}
	if n := bytes.Count(text, comma) + bytes.Count(text, bracket) + 1; cap(ps.es) < n {
		ps.es = make([]Value, 0, n+n/4)
	}
	// the short strings read lately are kept from text to text: tools
	// repeat their keys ("type", "description")
	p := parser{text: text, mslab: ps.ms[:0], eslab: ps.es[:0], kept: &ps.kept}
	v, err := p.parse()
	ps.ms, ps.es = p.mslab, p.eslab // what the next Parse overwrites
	return v, err
}

var comma, bracket = []byte{','}, []byte{'['}

// parse reads p.text whole.
func (p *parser) parse() (Value, error) {
	sc := stacks.Get().(*parseStacks)
	p.buf, p.ms, p.es = sc.buf[:0], sc.ms[:0], sc.es[:0]
	defer func() {
		// the stacks are kept with what was last on them, overwritten by
		// the next parse, not cleared: they keep alive at most what one
		// parse put on them
		sc.buf, sc.ms, sc.es = p.buf[:0], p.ms[:0], p.es[:0]
		stacks.Put(sc)
	}()
	p.ws()
	v, err := p.value()
	if err != nil {
		return Value{}, err
	}
	p.ws()
	if p.pos != len(p.text) {
		return Value{}, p.unexpected()
	}
	return v, nil
}

// Validate reports the first error Parse would report, building nothing.
func Validate(text []byte) error {
	p := parser{text: text}
	p.ws()
	if err := p.skip(); err != nil {
		return err
	}
	p.ws()
	if p.pos != len(p.text) {
		return p.unexpected()
	}
	return nil
}

func (p *parser) value() (Value, error) {
	if p.pos >= len(p.text) {
		return Value{}, p.unexpected()
	}
	switch c := p.text[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		if err != nil {
			return Value{}, err
		}
		return StringValue(s), nil
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		if err := p.number(); err != nil {
			return Value{}, err
		}
		f, _ := strconv.ParseFloat(string(p.text[start:p.pos]), 64) // a range error still gives ±Inf or 0, as JavaScript
		return NumberValue(f), nil
	default:
		return p.literal()
	}
}

func (p *parser) literal() (Value, error) {
	for _, l := range [...]struct {
		word string
		v    Value
	}{{"true", Value{kind: Bool, b: true}}, {"false", Value{kind: Bool}}, {"null", Value{}}} {
		if p.text[p.pos] != l.word[0] {
			continue
		}
		for i := 0; i < len(l.word); i++ {
			if p.pos >= len(p.text) || p.text[p.pos] != l.word[i] {
				return Value{}, p.unexpected()
			}
			p.pos++
		}
		return l.v, nil
	}
	return Value{}, p.unexpected()
}

func (p *parser) number() error {
	if p.text[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.text) && p.text[p.pos] >= '0' && p.text[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos < len(p.text) && p.text[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		return p.unexpected()
	}
	if p.pos < len(p.text) && p.text[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.unexpected()
		}
	}
	if p.pos < len(p.text) && (p.text[p.pos] == 'e' || p.text[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.text) && (p.text[p.pos] == '+' || p.text[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.unexpected()
		}
	}
	return nil
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// hex4 reads the four hex digits after "\u" at p.pos.
func (p *parser) hex4() (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		if p.pos >= len(p.text) {
			return 0, p.unexpected()
		}
		h := hexVal(p.text[p.pos])
		if h < 0 {
			return 0, p.fail("bad Unicode escape")
		}
		r = r<<4 | h
		p.pos++
	}
	return r, nil
}

// str reads a string at p.pos (on the opening quote) and returns it as
// WTF-8.
func (p *parser) str() (string, error) {
	b, err := p.strBytes(false)
	if err != nil {
		return "", err
	}
	return p.intern(b), nil
}

// strBytes reads a string; with skip it only checks it. The bytes returned
// may alias the text or the scratch buffer.
func (p *parser) strBytes(skip bool) ([]byte, error) {
	p.pos++ // opening quote
	start := p.pos
	// Most strings have no escape: one run of plain bytes, then the
	// closing quote, and the bytes are the text's own.
	p.pos = plainRun(p.text, p.pos)
	if p.pos >= len(p.text) {
		return nil, p.fail("unterminated string")
	}
	switch c := p.text[p.pos]; c {
	case '"':
		p.pos++
		return p.text[start : p.pos-1], nil
	case '\\':
	default:
		return nil, p.fail(fmt.Sprintf("control character U+%04X in string", c))
	}
	buf := append(p.buf[:0], p.text[start:p.pos]...)
	pendingHigh := rune(-1) // a high surrogate from the escape just before
	for {
		if p.pos >= len(p.text) {
			return nil, p.fail("unterminated string")
		}
		c := p.text[p.pos]
		switch {
		case c == '"':
			p.pos++
			p.buf = buf
			return buf, nil
		case c < 0x20:
			return nil, p.fail(fmt.Sprintf("control character U+%04X in string", c))
		case c != '\\':
			pendingHigh = -1
			end := plainRun(p.text, p.pos+1)
			buf = append(buf, p.text[p.pos:end]...)
			p.pos = end
			continue
		}
		p.pos++ // backslash
		if p.pos >= len(p.text) {
			return nil, p.fail("unterminated string")
		}
		e := p.text[p.pos]
		p.pos++
		var r rune
		switch e {
		case '"', '\\', '/':
			r = rune(e)
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			u, err := p.hex4()
			if err != nil {
				return nil, err
			}
			if u >= 0xDC00 && u <= 0xDFFF && pendingHigh >= 0 {
				// Join with the high surrogate written just before.
				buf = buf[:len(buf)-3]
				buf = utf8.AppendRune(buf, 0x10000+(pendingHigh-0xD800)<<10+(u-0xDC00))
				pendingHigh = -1
				continue
			}
			if u >= 0xD800 && u <= 0xDFFF {
				buf = appendSurrogate(buf, u)
				if u <= 0xDBFF {
					pendingHigh = u
				} else {
					pendingHigh = -1
				}
				continue
			}
			r = u
		default:
			p.pos--
			return nil, p.fail(fmt.Sprintf("bad escape \\%c", rune(e)))
		}
		pendingHigh = -1
		buf = utf8.AppendRune(buf, r)
	}
}

// appendSurrogate appends the three-byte WTF-8 form of a lone surrogate.
func appendSurrogate(b []byte, u rune) []byte {
	return append(b, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.fail(fmt.Sprintf("nested deeper than %d", MaxDepth))
	}
	return nil
}

func (p *parser) array() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	p.pos++
	p.ws()
	if p.pos < len(p.text) && p.text[p.pos] == ']' {
		p.pos++
		p.depth--
		return Value{kind: Array}, nil
	}
	base := len(p.es)
	for {
		p.ws()
		v, err := p.value()
		if err != nil {
			return Value{}, err
		}
		p.es = append(p.es, v)
		done, err := p.afterValue(']')
		if err != nil {
			return Value{}, err
		}
		if done {
			elems := p.elems(len(p.es) - base)
			copy(elems, p.es[base:])
			p.es = p.es[:base]
			return ArrayValue(elems), nil
		}
	}
}

func (p *parser) object() (Value, error) {
	if err := p.enter(); err != nil {
		return Value{}, err
	}
	p.pos++
	p.ws()
	base := len(p.ms)
	if p.pos < len(p.text) && p.text[p.pos] == '}' {
		p.pos++
		p.depth--
		return Value{kind: Object}, nil
	}
	for {
		p.ws()
		if p.pos >= len(p.text) || p.text[p.pos] != '"' {
			return Value{}, p.unexpected()
		}
		kb, err := p.strBytes(false)
		if err != nil {
			return Value{}, err
		}
		k := p.intern(kb)
		p.ws()
		if p.pos >= len(p.text) || p.text[p.pos] != ':' {
			return Value{}, p.unexpected()
		}
		p.pos++
		p.ws()
		v, err := p.value()
		if err != nil {
			return Value{}, err
		}
		p.ms = append(p.ms, Member{Key: k, Value: v})
		done, err := p.afterValue('}')
		if err != nil {
			return Value{}, err
		}
		if done {
			members := p.members(len(p.ms) - base)
			copy(members, p.ms[base:])
			p.ms = p.ms[:base]
			return objectOf(orderMembers(members)), nil
		}
	}
}

// skip checks one value at p.pos and moves past it, building nothing.
func (p *parser) skip() error {
	if p.pos >= len(p.text) {
		return p.unexpected()
	}
	switch c := p.text[p.pos]; {
	case c == '"':
		_, err := p.strBytes(true)
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '{' || c == '[':
		if err := p.enter(); err != nil {
			return err
		}
		closer := byte(']')
		if c == '{' {
			closer = '}'
		}
		p.pos++
		p.ws()
		if p.pos < len(p.text) && p.text[p.pos] == closer {
			p.pos++
			p.depth--
			return nil
		}
		for {
			p.ws()
			if c == '{' {
				if p.pos >= len(p.text) || p.text[p.pos] != '"' {
					return p.unexpected()
				}
				if _, err := p.strBytes(true); err != nil {
					return err
				}
				p.ws()
				if p.pos >= len(p.text) || p.text[p.pos] != ':' {
					return p.unexpected()
				}
				p.pos++
				p.ws()
			}
			if err := p.skip(); err != nil {
				return err
			}
			if done, err := p.afterValue(closer); done || err != nil {
				return err
			}
		}
	default:
		_, err := p.literal()
		return err
	}
}

// RawMembers lists the members of the object whose text is raw, in the
// order written, duplicates kept (JavaScript keeps the last value at the
// first one's place). Surrounding whitespace is allowed.
func RawMembers(raw []byte) ([]RawMember, error) {
	p := parser{text: raw}
	p.ws()
	if p.pos >= len(raw) || raw[p.pos] != '{' {
		return nil, p.fail("not an object")
	}
	p.pos++
	p.depth++
	p.ws()
	var out []RawMember
	if p.pos < len(raw) && raw[p.pos] == '}' {
		p.pos++
		return out, p.end()
	}
	for {
		p.ws()
		if p.pos >= len(raw) || raw[p.pos] != '"' {
			return nil, p.unexpected()
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.pos >= len(raw) || raw[p.pos] != ':' {
			return nil, p.unexpected()
		}
		p.pos++
		p.ws()
		start := p.pos
		if err := p.skip(); err != nil {
			return nil, err
		}
		out = append(out, RawMember{Key: k, Value: raw[start:p.pos], Offset: start})
		if done, err := p.afterValue('}'); err != nil {
			return nil, err
		} else if done {
			return out, p.end()
		}
	}
}

// afterValue reads what follows a value inside an array or an object: a
// comma (more to come) or the closer, which it consumes, leaving the
// nesting level (done).
func (p *parser) afterValue(closer byte) (done bool, err error) {
	p.ws()
	if p.pos >= len(p.text) {
		return false, p.unexpected()
	}
	switch p.text[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case closer:
		p.pos++
		p.depth--
		return true, nil
	}
	return false, p.unexpected()
}

func (p *parser) end() error {
	p.ws()
	if p.pos != len(p.text) {
		return p.unexpected()
	}
	return nil
}
