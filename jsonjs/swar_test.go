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

// slowAppendQuote is AppendQuote a byte at a time, as JSON.stringify
// writes a string: '"', '\\' and control characters escaped, a lone
// surrogate (WTF-8: 0xED, then 0xA0 or above) as a \udxxx escape.
func slowAppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\b':
			dst = append(dst, `\b`...)
		case c == '\f':
			dst = append(dst, `\f`...)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		case c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0:
			u := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			dst = append(dst, '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// TestAppendQuote holds AppendQuote (eight bytes at a time while they are
// plain) to a byte-at-a-time writing, on random strings of every length up
// to 80: plain bytes, each byte it escapes at every place in a word, and
// lone surrogates.
func TestAppendQuote(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	pieces := []string{"a", "Z", " ", "~", "\x7f", "é", "😀", "\"", "\\", "\x00", "\x1f", "\n", "\t", "\xed\xa0\x80", "\xed\xbf\xbf", "\xed\x9f\xbf", "\xed"}
	for range 20000 {
		var b []byte
		for len(b) < r.IntN(81) {
			if r.IntN(8) == 0 {
				b = append(b, pieces[r.IntN(len(pieces))]...)
			} else {
				b = append(b, pieces[r.IntN(6)]...)
			}
		}
		s := string(b)
		if got, want := AppendQuote([]byte("x"), s), slowAppendQuote([]byte("x"), s); string(got) != string(want) {
			t.Fatalf("AppendQuote(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestKeyEnd holds KeyEnd to StringEnd and the key's bytes, on keys of
// every length up to 40 with and without escapes, in longer texts.
func TestKeyEnd(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	escapes := []string{`\"`, `\\`, `\n`, `\u00e9`, `\/`}
	for range 3000 {
		key := make([]byte, 0, 48)
		escaped := false
		for range r.IntN(41) {
			if r.IntN(15) == 0 {
				key = append(key, escapes[r.IntN(len(escapes))]...)
				escaped = true
			} else {
				key = append(key, "aZ9_$é~ "[r.IntN(8)])
			}
		}
		text := append(append(append([]byte(`{"`), key...), `":"v\"x","k":1}`...), make([]byte, r.IntN(20))...)
		end, esc := KeyEnd(text, 1)
		if want := StringEnd(text, 1); end != want || esc != escaped {
			t.Fatalf("KeyEnd(%q) = %d, %v; want %d, %v", text, end, esc, want, escaped)
		}
	}
}
