package jsonjs

import "testing"

// TestPresize: a list is sized for the rest of the text at the length of
// the elements so far, an eighth more, and never past a quarter of the
// text left when the first elements are short.
func TestPresize(t *testing.T) {
	elems := make([][]byte, 64)
	for _, tc := range []struct {
		read, left, min, max int
	}{
		{64 * 1000, 1_000_000, 64 + 1000, 64 + 1000 + 1000/8 + 8},   // as long as the first
		{64 * 10, 1 << 30, 0, 64 + (1<<30)/128 + (1<<30)/128/8 + 8}, // short first ones: at most a quarter
		{64 * 1000, 0, 64, 64}, // nothing left: as it was
	} {
		got := cap(presize(elems, tc.read, tc.left))
		if got < tc.min || got > tc.max {
			t.Errorf("read %d, left %d: room for %d, want %d to %d", tc.read, tc.left, got, tc.min, tc.max)
		}
		if 24*(got-64) > tc.left/4 {
			t.Errorf("read %d, left %d: %d bytes of list for %d of text", tc.read, tc.left, 24*(got-64), tc.left)
		}
	}
}
