package nodeoracle

import "fmt"

// Diff describes where got and want first differ: the byte offset, both
// lengths, and up to 40 bytes of each side around that offset. It returns
// "" when they are equal.
func Diff(got, want []byte) string {
	n := min(len(got), len(want))
	i := 0
	for i < n && got[i] == want[i] {
		i++
	}
	if i == len(got) && i == len(want) {
		return ""
	}
	lo := max(0, i-40)
	return fmt.Sprintf("first difference at byte %d (got %d bytes, Node %d):\n  got:  %s\n  node: %s",
		i, len(got), len(want), excerpt(got, lo, i+40), excerpt(want, lo, i+40))
}

// excerpt quotes b[lo:hi], marking with … the ends that were cut.
func excerpt(b []byte, lo, hi int) string {
	hi = min(hi, len(b))
	lo = min(lo, hi)
	s := fmt.Sprintf("%q", b[lo:hi])
	if lo > 0 {
		s = "…" + s
	}
	if hi < len(b) {
		s += "…"
	}
	return s
}
