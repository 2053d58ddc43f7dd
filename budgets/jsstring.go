package budgets

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/readmeter/readmeter/jsonjs"
)

// unquoteTS decodes a quoted TypeScript key (' or " quotes included) as
// JavaScript does: \n \t \r \b \f \v \0, \xHH, \uHHHH and \u{H...} (a
// surrogate pair joined into one character), a line continuation (a
// backslash before a line end) dropped, and any other escaped character
// standing for itself.
func unquoteTS(q string) string {
	in := q[1 : len(q)-1]
	if !strings.Contains(in, `\`) {
		return in
	}
	var units []uint16 // UTF-16, as JavaScript holds a string
	for i := 0; i < len(in); {
		c := in[i]
		if c != '\\' || i+1 == len(in) {
			r, n := utf8.DecodeRuneInString(in[i:])
			units = utf16.AppendRune(units, r)
			i += n
			continue
		}
		i++
		switch e := in[i]; e {
		case 'n':
			units, i = append(units, '\n'), i+1
		case 't':
			units, i = append(units, '\t'), i+1
		case 'r':
			units, i = append(units, '\r'), i+1
		case 'b':
			units, i = append(units, '\b'), i+1
		case 'f':
			units, i = append(units, '\f'), i+1
		case 'v':
			units, i = append(units, '\v'), i+1
		case '0':
			units, i = append(units, 0), i+1
		case '\r':
			i++
			if i < len(in) && in[i] == '\n' {
				i++
			}
		case '\n':
			i++
		case 'x':
			if v, err := strconv.ParseUint(safeSlice(in, i+1, i+3), 16, 8); err == nil {
				units, i = append(units, uint16(v)), i+3
			} else {
				units, i = append(units, 'x'), i+1
			}
		case 'u':
			if i+1 < len(in) && in[i+1] == '{' {
				if end := strings.IndexByte(in[i:], '}'); end > 0 {
					if v, err := strconv.ParseUint(in[i+2:i+end], 16, 32); err == nil && v <= 0x10FFFF {
						units = utf16.AppendRune(units, rune(v))
						i += end + 1
						continue
					}
				}
			} else if v, err := strconv.ParseUint(safeSlice(in, i+1, i+5), 16, 16); err == nil {
				units, i = append(units, uint16(v)), i+5
				continue
			}
			units, i = append(units, 'u'), i+1
		default:
			r, n := utf8.DecodeRuneInString(in[i:])
			if r == '\u2028' || r == '\u2029' {
				i += n // a line continuation
				continue
			}
			units = utf16.AppendRune(units, r)
			i += n
		}
	}
	return wtf8(units)
}

func safeSlice(s string, i, j int) string {
	if j > len(s) {
		return ""
	}
	return s[i:j]
}

// wtf8 writes UTF-16 code units as WTF-8: pairs joined, a lone surrogate
// written as its own three bytes (as jsonjs keeps keys).
func wtf8(units []uint16) string {
	var b []byte
	for i := 0; i < len(units); i++ {
		u := rune(units[i])
		if utf16.IsSurrogate(u) && u < 0xDC00 && i+1 < len(units) {
			if r := utf16.DecodeRune(u, rune(units[i+1])); r != utf8.RuneError {
				b = utf8.AppendRune(b, r)
				i++
				continue
			}
		}
		if utf16.IsSurrogate(u) {
			b = append(b, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
			continue
		}
		b = utf8.AppendRune(b, u)
	}
	return string(b)
}

// numericKey returns the property name JavaScript makes of a numeric
// literal key: 0x10 is "16", 1_000 is "1000", 1.50 is "1.5".
func numericKey(lit string) string {
	lit = strings.ReplaceAll(lit, "_", "")
	if len(lit) > 2 && lit[0] == '0' {
		base := 0
		switch lit[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			v, err := strconv.ParseUint(lit[2:], base, 64)
			if err != nil {
				return lit
			}
			return string(jsonjs.AppendNumberText(nil, []byte(strconv.FormatFloat(float64(v), 'g', -1, 64))))
		}
	}
	v, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return lit
	}
	return string(jsonjs.AppendNumberText(nil, []byte(strconv.FormatFloat(v, 'g', -1, 64))))
}
