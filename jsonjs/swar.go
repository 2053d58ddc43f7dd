package jsonjs

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// KeyEnd is StringEnd for a key, which also reports whether the key
// holds an escape (valid text holds no control character in a string).
func KeyEnd(b []byte, i int) (end int, escaped bool) {
	if j := plainRun(b, i+1); j < len(b) && b[j] == '"' {
		return j + 1, false
	}
	return StringEnd(b, i), true
}

// StringEnd returns the index just past the string that starts at b[i]
// (an opening quote) in text that Validate accepted, or len(b) when the
// text ends first. It reads eight bytes at a time.
func StringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		j = plainRun(b, j)
		if j >= len(b) {
			break
		}
		switch b[j] {
		case '"':
			return j + 1
		case '\\':
			j += 2
		default: // a control character, which valid text does not hold here
			j++
		}
	}
	return len(b)
}
