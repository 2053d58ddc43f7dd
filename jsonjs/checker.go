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
		if c.state >= cString {
			i = c.token(p, i)
		} else {
			i = c.scan(p, i)
		}
	}
	c.off += len(p)
	return len(p), nil
}

// jsonSpace holds JSON's four white-space bytes.
var jsonSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// How a token read within one piece ended: whole, cut by the piece's end
// (read again byte by byte from its start, by token), or refused.
const (
	tokDone = iota
	tokCut
	tokBad
)

// scan reads from p[i] between tokens, in one tight loop, reading every
// token that ends within p on the spot. It returns where it stopped: at
// the end of p, or inside a token cut by the end of p, whose state it
// leaves for token.
func (c *Checker) scan(p []byte, i int) int {
	state := c.state
	for i < len(p) {
		b := p[i]
		if jsonSpace[b] {
			i++
			continue
		}
		switch state {
		case cAfter:
			d := len(c.stack)
			if d == 0 {
				c.bad = true // a second value
				return len(p)
			}
			top := c.stack[d-1]
			switch {
			case b == ',' && top == '{':
				state = cKey
			case b == ',':
				state = cValue
			case b == top+2: // '}' closes '{', ']' closes '['
				c.stack = c.stack[:d-1]
				c.member(c.off + i + 1)
			default:
				c.bad = true
				return len(p)
			}
			i++
		case cColon:
			if b != ':' {
				c.bad = true
				return len(p)
			}
			state = cValue
			i++
		case cObjOpen, cKey:
			if b == '}' && state == cObjOpen {
				c.stack = c.stack[:len(c.stack)-1]
				c.member(c.off + i + 1)
				state = cAfter
				i++
				continue
			}
			if b != '"' {
				c.bad = true
				return len(p)
			}
			top := len(c.stack) == 1
			if top {
				c.cur = Span{KeyStart: c.off + i}
			}
			j, how := stringEnd(p, i+1)
			if how != tokDone {
				c.bad = how == tokBad
				c.state, c.isKey = cString, true
				return i + 1
			}
			if top {
				c.cur.KeyEnd = c.off + j
			}
			state = cColon
			i = j
		case cValue, cArrOpen:
			if b == ']' && state == cArrOpen {
				c.stack = c.stack[:len(c.stack)-1]
				c.member(c.off + i + 1)
				state = cAfter
				i++
				continue
			}
			if len(c.stack) == 1 && c.stack[0] == '{' {
				c.cur.ValueStart = c.off + i
			}
			switch {
			case b == '{' || b == '[':
				if len(c.stack) >= MaxDepth {
					c.bad = true
					return len(p)
				}
				c.stack = append(c.stack, b)
				state = cObjOpen
				if b == '[' {
					state = cArrOpen
				}
				i++
			case b == '"':
				j, how := stringEnd(p, i+1)
				if how != tokDone {
					c.bad = how == tokBad
					c.state, c.isKey = cString, false
					return i + 1
				}
				c.member(c.off + j)
				state = cAfter
				i = j
			case b == '-' || (b >= '0' && b <= '9'):
				j, how := numberEnd(p, i)
				switch how {
				case tokBad:
					c.bad = true
					return len(p)
				case tokCut:
					c.state, c.sub = cNumber, nInt
					switch b {
					case '-':
						c.sub = nMinus
					case '0':
						c.sub = nZero
					}
					return i + 1
				}
				c.member(c.off + j)
				state = cAfter
				i = j
			case b == 't' || b == 'f' || b == 'n':
				lit := "true"
				switch b {
				case 'f':
					lit = "false"
				case 'n':
					lit = "null"
				}
				if len(p)-i < len(lit) {
					c.state, c.sub, c.lit = cLiteral, 1, lit
					return i + 1
				}
				if string(p[i:i+len(lit)]) != lit {
					c.bad = true
					return len(p)
				}
				i += len(lit)
				c.member(c.off + i)
				state = cAfter
			default:
				c.bad = true
				return len(p)
			}
		default:
			c.bad = true
			return len(p)
		}
	}
	c.state = state
	return i
}

// stringEnd reads the rest of a string from p[i] (just past its opening
// quote) and returns the index just past its closing quote.
func stringEnd(p []byte, i int) (int, int) {
	for {
		i = plainRun(p, i)
		if i >= len(p) {
			return i, tokCut
		}
		switch p[i] {
		case '"':
			return i + 1, tokDone
		case '\\':
			if i+1 >= len(p) {
				return i, tokCut
			}
			switch p[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := i + 2; k < i+6; k++ {
					if k >= len(p) {
						return i, tokCut
					}
					if hexVal(p[k]) < 0 {
						return i, tokBad
					}
				}
				i += 6
			default:
				return i, tokBad
			}
		default: // a control character
			return i, tokBad
		}
	}
}

// numberEnd reads the number that starts at p[i] and returns the index of
// the byte after it. A number that runs to the end of p is cut: more
// digits may follow.
func numberEnd(p []byte, i int) (int, int) {
	n := len(p)
	if p[i] == '-' {
		i++
		if i == n {
			return i, tokCut
		}
	}
	switch b := p[i]; {
	case b == '0':
		i++
	case b >= '1' && b <= '9':
		i++
		for i < n && p[i]-'0' < 10 {
			i++
		}
	default:
		return i, tokBad
	}
	if i == n {
		return i, tokCut
	}
	if p[i] == '.' {
		i++
		if i == n {
			return i, tokCut
		}
		if p[i]-'0' >= 10 {
			return i, tokBad
		}
		for i < n && p[i]-'0' < 10 {
			i++
		}
		if i == n {
			return i, tokCut
		}
	}
	if p[i] == 'e' || p[i] == 'E' {
		i++
		if i < n && (p[i] == '+' || p[i] == '-') {
			i++
		}
		if i == n {
			return i, tokCut
		}
		if p[i]-'0' >= 10 {
			return i, tokBad
		}
		for i < n && p[i]-'0' < 10 {
			i++
		}
		if i == n {
			return i, tokCut
		}
	}
	return i, tokDone
}

// token reads on from p[i] in a token cut by the end of the piece before
// (or of this one: it is read a byte at a time here) and returns where it
// stopped: past the token's end, or at the end of p.
func (c *Checker) token(p []byte, i int) int {
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
	c.bad = true
	return i
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
	c.member(end)
}

// member notes the end of a value at offset end: when it is the value of
// a member of the top-level object, the member is complete.
func (c *Checker) member(end int) {
	if len(c.stack) == 1 && c.stack[0] == '{' {
		c.cur.ValueEnd = end
		c.members = append(c.members, c.cur)
	}
}

// Reset makes c ready for a new text, as a zero Checker.
func (c *Checker) Reset() { *c = Checker{stack: c.stack[:0]} }

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

// Refused reports whether the text handed over so far can no longer begin
// a JSON text: nothing more makes it valid, and Validate reports an error
// within it.
func (c *Checker) Refused() bool { return c.bad }

// Members returns the members of the top-level object, in the order
// written, repeated keys kept; nil when the text is not an object. Only
// meaningful when Valid.
func (c *Checker) Members() []Span { return c.members }
