package jsonjs

import "encoding/binary"

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainRun returns the index of the first byte at or after i that ends a
// run of plain string bytes: a quote, a backslash or a control character.
// It reads eight bytes at a time.
func plainRun(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		q := w ^ (lsb * '"')
		s := w ^ (lsb * '\\')
		special := ((w - lsb*0x20) & ^w) | ((q - lsb) & ^q) | ((s - lsb) & ^s)
		if special&msb != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}
