package jsonjs

import (
	"encoding/binary"
	"math/bits"
)

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainRunSWAR returns the index of the first byte at or after i that
// ends a run of plain string bytes: a quote, a backslash or a control
// character. It reads eight bytes at a time. plainRun is it, but on amd64,
// where it is written with SSE2 (swar_amd64.s).
func plainRunSWAR(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i : i+8])
		q := w ^ (lsb * '"')
		s := w ^ (lsb * '\\')
		special := (((w - lsb*0x20) & ^w) | ((q - lsb) & ^q) | ((s - lsb) & ^s)) & msb
		if special != 0 {
			// The lowest flagged byte is always a true match: a borrow
			// only ever flags bytes above one.
			return i + bits.TrailingZeros64(special)>>3
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			return i
		}
	}
	return i
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
