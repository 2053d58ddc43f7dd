//go:build !amd64

package jsonjs

import (
	"encoding/binary"
	"math/bits"
)

// plainRun returns the index of the first byte at or after i that ends a
// run of plain string bytes: a quote, a backslash or a control character.
// It reads eight bytes at a time (on amd64, sixteen with SSE2:
// swar_amd64.s).
func plainRun(b []byte, i int) int {
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
