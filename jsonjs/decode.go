package jsonjs

import "unicode/utf8"

// Decode turns bytes into text as Node's buffer.toString("utf8") does: the
// WHATWG UTF-8 decoder, where each maximal invalid subpart becomes one
// U+FFFD. It returns data itself when data is valid UTF-8, and how many
// replacements it made.
func Decode(data []byte) (text []byte, replaced int) {
	if utf8.Valid(data) {
		return data, 0
	}
	out := make([]byte, 0, len(data)+len(data)/8+4)
	var (
		cp           rune
		needed, seen int
		lower, upper byte = 0x80, 0xBF
		start        int
	)
	for i := 0; i < len(data); i++ {
		b := data[i]
		if needed == 0 {
			switch {
			case b < 0x80:
				out = append(out, b)
			case b >= 0xC2 && b <= 0xDF:
				needed, cp, start = 1, rune(b&0x1F), i
			case b >= 0xE0 && b <= 0xEF:
				if b == 0xE0 {
					lower = 0xA0
				} else if b == 0xED {
					upper = 0x9F
				}
				needed, cp, start = 2, rune(b&0x0F), i
			case b >= 0xF0 && b <= 0xF4:
				if b == 0xF0 {
					lower = 0x90
				} else if b == 0xF4 {
					upper = 0x8F
				}
				needed, cp, start = 3, rune(b&0x07), i
			default:
				out = utf8.AppendRune(out, utf8.RuneError)
				replaced++
			}
			continue
		}
		if b < lower || b > upper {
			needed, seen, cp, lower, upper = 0, 0, 0, 0x80, 0xBF
			out = utf8.AppendRune(out, utf8.RuneError)
			replaced++
			i-- // the byte starts afresh
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(b&0x3F)
		seen++
		if seen == needed {
			out = append(out, data[start:i+1]...)
			needed, seen, cp = 0, 0, 0
		}
	}
	if needed != 0 {
		out = utf8.AppendRune(out, utf8.RuneError)
		replaced++
	}
	return out, replaced
}
