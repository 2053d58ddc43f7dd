package jsonjs

// Checker checks JSON text handed to it in pieces, as it is read, and
// accepts exactly what Validate accepts (one value, JSON white space
// around it), so that an answer read from the network is checked while
// it arrives instead of in a second pass after. It also notes where the
// members of a top-level object lie, so that they can be read without
// another pass.
//
//	var c jsonjs.Checker
//	for each piece read { c.Write(piece) }
//	if c.Valid() { members := c.Members() ... }
//
// It says only whether the text is JSON: to report where it is not, run
// Validate on the whole text.
type Checker struct {
	off     int    // bytes handed over so far
	stack   []byte // the open containers: '{' or '['
	state   uint8
	sub     uint8  // within a number, an escape or a literal
	lit     string // the literal being read
	bad     bool
	isKey   bool // the string being read is a key
	members []Span
	cur     Span
}

// Span is one member of a top-level object: where its key (quotes
// included) and its value lie in the text, as byte offsets.
type Span struct {
	KeyStart, KeyEnd, ValueStart, ValueEnd int
}

const (
	cValue   = iota // a value is expected
	cObjOpen        // after '{': a key or '}'
	cArrOpen        // after '[': a value or ']'
	cKey            // after ',' in an object: a key
	cColon          // after a key
	cAfter          // after a value
	cString
	cEscape
	cHex
	cNumber
	cLiteral
)

// number states: after '-', after a leading 0, in the integer digits,
// after '.', in the fraction, after 'e', after its sign, in the exponent
const (
	nMinus = iota
	nZero
	nInt
	nDot
	nFrac
	nE
	nESign
	nExp
)

// Write checks the next piece of the text. It never fails: Valid says
// what the text was.
func (c *Checker) Write(p []byte) (int, error) {
	for i := 0; i < len(p) && !c.bad; {
		i = c.step(p, i)
	}
	c.off += len(p)
	return len(p), nil
}

// step reads from p[i] and returns where it stopped.
func (c *Checker) step(p []byte, i int) int {
	b := p[i]
	switch c.state {
	case cString:
		j := plainRun(p, i)
		if j >= len(p) {
			return j
		}
		switch p[j] {
		case '"':
			c.endString(j + 1)
		case '\\':
			c.state, c.sub = cEscape, 0
		default: // a control character
			c.bad = true
		}
		return j + 1
	case cEscape:
		switch b {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			c.state = cString
		case 'u':
			c.state, c.sub = cHex, 0
		default:
			c.bad = true
		}
		return i + 1
	case cHex:
		if hexVal(b) < 0 {
			c.bad = true
		}
		c.sub++
		if c.sub == 4 {
			c.state = cString
		}
		return i + 1
	case cNumber:
		if c.number(b) {
			return i + 1
		}
		if c.sub != nZero && c.sub != nInt && c.sub != nFrac && c.sub != nExp {
			c.bad = true
			return i
		}
		c.endValue(c.off + i)
		return i // the byte is read after the value
	case cLiteral:
		if b != c.lit[c.sub] {
			c.bad = true
			return i
		}
		c.sub++
		if int(c.sub) == len(c.lit) {
			c.endValue(c.off + i + 1)
		}
		return i + 1
	}
	if b == ' ' || b == '\t' || b == '\n' || b == '\r' {
		return i + 1
	}
	at := c.off + i
	switch c.state {
	case cValue, cArrOpen:
		if c.state == cArrOpen && b == ']' {
			c.close('[', at)
			return i + 1
		}
		c.value(b, at)
	case cObjOpen, cKey:
		switch {
		case b == '"':
			c.state, c.isKey = cString, true
			if len(c.stack) == 1 {
				c.cur = Span{KeyStart: at}
			}
		case b == '}' && c.state == cObjOpen:
			c.close('{', at)
		default:
			c.bad = true
		}
	case cColon:
		if b != ':' {
			c.bad = true
		}
		c.state = cValue
	case cAfter:
		if len(c.stack) == 0 {
			c.bad = true // a second value
			return i + 1
		}
		top := c.stack[len(c.stack)-1]
		switch {
		case b == ',' && top == '{':
			c.state = cKey
		case b == ',':
			c.state = cValue
		case (b == '}' && top == '{') || (b == ']' && top == '['):
			c.close(top, at)
		default:
			c.bad = true
		}
	default:
		c.bad = true
	}
	return i + 1
}

// value starts the value whose first byte is b, at offset at.
func (c *Checker) value(b byte, at int) {
	if len(c.stack) == 1 && c.stack[0] == '{' {
		c.cur.ValueStart = at
	}
	switch {
	case b == '{' || b == '[':
		if len(c.stack) >= MaxDepth {
			c.bad = true
			return
		}
		c.stack = append(c.stack, b)
		c.state = cObjOpen
		if b == '[' {
			c.state = cArrOpen
		}
	case b == '"':
		c.state, c.isKey = cString, false
	case b == '-':
		c.state, c.sub = cNumber, nMinus
	case b == '0':
		c.state, c.sub = cNumber, nZero
	case b >= '1' && b <= '9':
		c.state, c.sub = cNumber, nInt
	case b == 't':
		c.state, c.sub, c.lit = cLiteral, 1, "true"
	case b == 'f':
		c.state, c.sub, c.lit = cLiteral, 1, "false"
	case b == 'n':
		c.state, c.sub, c.lit = cLiteral, 1, "null"
	default:
		c.bad = true
	}
}

// number takes b into the number being read, or reports that it ends it.
func (c *Checker) number(b byte) bool {
	digit := b >= '0' && b <= '9'
	switch c.sub {
	case nMinus:
		switch {
		case b == '0':
			c.sub = nZero
		case digit:
			c.sub = nInt
		default:
			return false
		}
	case nZero, nInt:
		switch {
		case digit && c.sub == nInt:
		case b == '.':
			c.sub = nDot
		case b == 'e' || b == 'E':
			c.sub = nE
		default:
			return false
		}
	case nDot, nFrac:
		switch {
		case digit:
			c.sub = nFrac
		case b == 'e' || b == 'E':
			if c.sub == nDot {
				return false
			}
			c.sub = nE
		default:
			return false
		}
	case nE:
		switch {
		case b == '+' || b == '-':
			c.sub = nESign
		case digit:
			c.sub = nExp
		default:
			return false
		}
	case nESign, nExp:
		if !digit {
			return false
		}
		c.sub = nExp
	}
	return true
}

// endString ends a string at offset end (in the piece, relative to off).
func (c *Checker) endString(endInPiece int) {
	end := c.off + endInPiece
	if c.isKey {
		if len(c.stack) == 1 {
			c.cur.KeyEnd = end
		}
		c.state = cColon
		return
	}
	c.endValue(end)
}

// endValue ends a value at offset end.
func (c *Checker) endValue(end int) {
	c.state = cAfter
	if len(c.stack) == 1 && c.stack[0] == '{' {
		c.cur.ValueEnd = end
		c.members = append(c.members, c.cur)
	}
}

// close closes the container opened by open, whose closer is at offset at.
func (c *Checker) close(open byte, at int) {
	c.stack = c.stack[:len(c.stack)-1]
	c.endValue(at + 1)
	_ = open
}

// Valid reports whether the text handed over is one JSON value, as
// Validate would.
func (c *Checker) Valid() bool {
	if c.bad || len(c.stack) > 0 {
		return false
	}
	switch c.state {
	case cAfter:
		return true
	case cNumber:
		return c.sub == nZero || c.sub == nInt || c.sub == nFrac || c.sub == nExp
	}
	return false
}

// Members returns the members of the top-level object, in the order
// written, repeated keys kept; nil when the text is not an object. Only
// meaningful when Valid.
func (c *Checker) Members() []Span { return c.members }
