package jsonjs

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Stringify returns JSON.stringify(v).
func Stringify(v Value) []byte { return AppendStringify(nil, v) }

// AppendStringify appends JSON.stringify(v) to dst.
func AppendStringify(dst []byte, v Value) []byte {
	switch v.kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.b {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		f := v.Num()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return append(dst, "null"...)
		}
		return AppendNumber(dst, f)
	case String:
		return AppendQuote(dst, v.Str())
	case Array:
		dst = append(dst, '[')
		for i, e := range v.Elems() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendStringify(dst, e)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i, m := range v.Members() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendQuote(dst, m.Key)
			dst = append(dst, ':')
			dst = AppendStringify(dst, m.Value)
		}
		return append(dst, '}')
	}
	return dst
}

// StringifyLen returns len(Stringify(v)) without building the text.
func StringifyLen(v Value) int {
	switch v.kind {
	case Null:
		return 4
	case Bool:
		if v.b {
			return 4
		}
		return 5
	case Number:
		f := v.Num()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return 4
		}
		var buf [32]byte
		return len(AppendNumber(buf[:0], f))
	case String:
		return quoteLen(v.Str())
	case Array:
		n := 2
		for i, e := range v.Elems() {
			if i > 0 {
				n++
			}
			n += StringifyLen(e)
		}
		return n
	case Object:
		n := 2
		for i, m := range v.Members() {
			if i > 0 {
				n++
			}
			n += quoteLen(m.Key) + 1 + StringifyLen(m.Value)
		}
		return n
	}
	return 0
}

const hexDigits = "0123456789abcdef"

// AppendQuote appends the JSON string JSON.stringify writes for the
// JavaScript string s (WTF-8): only '"', '\\' and control characters are
// escaped, and a lone surrogate is written as a \udxxx escape.
func AppendQuote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	i := 0
	// Eight bytes at a time while none is '"', '\\', a control character
	// or 0xED (which may start a surrogate).
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		q, bs, ed := w^(lsb*'"'), w^(lsb*'\\'), w^(lsb*0xED)
		if (((w-lsb*0x20)&^w)|((q-lsb)&^q)|((bs-lsb)&^bs)|((ed-lsb)&^ed))&msb != 0 {
			break
		}
	}
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != 0xED {
			i++
			continue
		}
		if c == 0xED {
			// U+D000..U+DFFF; 0xA0 and above in the second byte is a surrogate.
			if i+2 < len(s) && s[i+1] >= 0xA0 {
				dst = append(dst, s[start:i]...)
				u := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				dst = append(dst, '\\', 'u', hexDigits[u>>12], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
				i += 3
				start = i
				continue
			}
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"':
			dst = append(dst, '\\', '"')
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// quoteLen returns len(AppendQuote(nil, s)).
func quoteLen(s string) int {
	n := 2 + len(s)
	if len(s) >= 16 && strings.IndexByte(s, 0xED) < 0 {
		// runs of bytes written as they are, found sixteen at a time
		b := unsafe.Slice(unsafe.StringData(s), len(s))
		for i := plainRun(b, 0); i < len(b); i = plainRun(b, i+1) {
			switch c := b[i]; {
			case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n++
			case c < 0x20:
				n += 5
			}
		}
		return n
	}
	for i := 0; i < len(s); i++ {
		switch x := quoteExtra[s[i]]; {
		case x == 0:
		case x != leadED:
			n += int(x)
		case i+2 < len(s) && s[i+1] >= 0xA0:
			n += 3 // six bytes of escape for three of WTF-8
			i += 2
		}
	}
	return n
}

// quoteExtra is what AppendQuote adds for each byte of a string: 1 for a
// character written with a backslash, 5 for another control character
// (\u00XX), leadED for the byte that can lead a lone surrogate.
var quoteExtra = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 5
	}
	for _, c := range []byte{'"', '\\', '\b', '\f', '\n', '\r', '\t'} {
		t[c] = 1
	}
	t[0xED] = leadED
	return t
}()

const leadED = 0xFF

// AppendNumber appends String(f) as JavaScript writes it.
func AppendNumber(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		return append(dst, '0') // -0 too
	}
	if f < 0 {
		dst = append(dst, '-')
		f = -f
	}
	if f == math.Trunc(f) && f < 1e21 {
		if f < 1<<53 {
			return strconv.AppendInt(dst, int64(f), 10)
		}
	}
	// Shortest digits that round-trip, as "d.ddde±x".
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	ep := strings.IndexByte(string(e), 'e')
	mant, expText := e[:ep], e[ep+1:]
	exp, _ := strconv.Atoi(string(expText))
	var digits [24]byte
	k := 0
	for _, c := range mant {
		if c != '.' {
			digits[k] = c
			k++
		}
	}
	n := exp + 1 // value = 0.digits × 10^n
	switch {
	case k <= n && n <= 21:
		dst = append(dst, digits[:k]...)
		for i := 0; i < n-k; i++ {
			dst = append(dst, '0')
		}
	case 0 < n && n <= 21:
		dst = append(dst, digits[:n]...)
		dst = append(dst, '.')
		dst = append(dst, digits[n:k]...)
	case -6 < n && n <= 0:
		dst = append(dst, '0', '.')
		for i := 0; i < -n; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits[:k]...)
	default:
		dst = append(dst, digits[0])
		if k > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:k]...)
		}
		dst = append(dst, 'e')
		if n-1 >= 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, int64(n-1), 10)
	}
	return dst
}

// arrayIndex reports whether key is an array index as JavaScript sees it:
// the canonical decimal form of an integer from 0 to 2^32-2.
func arrayIndex(key string) (uint32, bool) {
	if len(key) == 0 || len(key) > 10 {
		return 0, false
	}
	if key[0] == '0' && len(key) > 1 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n >= 1<<32-1 {
		return 0, false
	}
	return uint32(n), true
}

// ArrayIndex reports whether key is an array index as JavaScript sees it
// (the canonical decimal form of an integer from 0 to 2^32-2), and which:
// the keys JSON.stringify writes first of an object, in ascending order.
func ArrayIndex(key string) (uint32, bool) { return arrayIndex(key) }

// orderMembers applies JavaScript's property order to members assigned in
// the order given: a repeated key keeps its first place and takes its last
// value; array-index keys come first, ascending; the rest keep insertion
// order. It may reuse m's storage.
func orderMembers(m []Member) []Member {
	if len(m) < 2 {
		if len(m) == 1 {
			return m
		}
		return []Member{}
	}
	hasIndex := false
	for i := range m {
		if _, ok := arrayIndex(m[i].Key); ok {
			hasIndex = true
			break
		}
	}
	// Duplicates: small objects compare pairwise, large ones use a map.
	dup := false
	if len(m) <= 16 {
	scan:
		for i := 1; i < len(m); i++ {
			for j := 0; j < i; j++ {
				if m[i].Key == m[j].Key {
					dup = true
					break scan
				}
			}
		}
	} else {
		seen := make(map[string]struct{}, len(m))
		for _, mem := range m {
			if _, ok := seen[mem.Key]; ok {
				dup = true
				break
			}
			seen[mem.Key] = struct{}{}
		}
	}
	out := m
	if dup {
		seen := make(map[string]int, len(m))
		out = make([]Member, 0, len(m))
		for _, mem := range m {
			if j, ok := seen[mem.Key]; ok {
				out[j].Value = mem.Value
				continue
			}
			seen[mem.Key] = len(out)
			out = append(out, mem)
		}
	}
	if !hasIndex {
		return out
	}
	var idx, rest []Member
	for _, mem := range out {
		if _, ok := arrayIndex(mem.Key); ok {
			idx = append(idx, mem)
		} else {
			rest = append(rest, mem)
		}
	}
	slices.SortStableFunc(idx, func(a, b Member) int {
		x, _ := arrayIndex(a.Key)
		y, _ := arrayIndex(b.Key)
		return cmp.Compare(x, y)
	})
	return append(idx, rest...)
}
