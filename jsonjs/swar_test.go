package jsonjs

import (
	"math/rand/v2"
	"testing"
)

// slowPlainRun is plainRun a byte at a time.
func slowPlainRun(b []byte, i int) int {
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}

// TestPlainRun holds plainRun (SSE2 on amd64, eight bytes at a time
// elsewhere) to a byte-at-a-time reading, on random texts of every length
// up to 80 from every start: plain bytes, quotes, backslashes, each
// control character, DEL and bytes above 0x7f.
func TestPlainRun(t *testing.T) {
	slow := slowPlainRun
	r := rand.New(rand.NewPCG(11, 12))
	alphabet := []byte{'a', 'Z', ' ', '~', 0x7f, 0x80, 0xff, 0xe2, '"', '\\', 0x00, 0x1f, 0x20, '!', 0x21, 0x5b, 0x5d}
	for range 4000 {
		b := make([]byte, r.IntN(81))
		for k := range b {
			if r.IntN(12) == 0 {
				b[k] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[k] = byte(0x20 + r.IntN(0x60))
				if b[k] == '"' || b[k] == '\\' {
					b[k] = 'x'
				}
			}
		}
		for i := 0; i <= len(b); i++ {
			want := slow(b, i)
			if got := plainRun(b, i); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", b, i, got, want)
			}
		}
	}
	for c := 0; c < 256; c++ {
		b := make([]byte, 40)
		for k := range b {
			b[k] = 'a'
		}
		b[37] = byte(c)
		want := 40
		if c < 0x20 || c == '"' || c == '\\' {
			want = 37
		}
		if got := plainRun(b, 0); got != want {
			t.Errorf("byte %#02x at 37: plainRun = %d, want %d", c, got, want)
		}
	}
}

func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`hello "world"`), 0)
	f.Fuzz(func(t *testing.T, b []byte, i int) {
		if i < 0 || i > len(b) {
			return
		}
		if got, want := plainRun(b, i), slowPlainRun(b, i); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, want %d", b, i, got, want)
		}
	})
}
