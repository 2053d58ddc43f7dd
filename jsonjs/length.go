package jsonjs

import (
	"bytes"
	"strconv"
)

// numberLen returns the length of String(Number(t)) for the JSON number t.
func numberLen(t []byte) int {
	// A plain integer of up to 2^53, no leading zero, is exact as a double
	// and written as is.
	if len(t) <= 17 {
		plain := true
		d := t
		if len(d) > 0 && d[0] == '-' {
			d = d[1:]
		}
		if len(d) == 0 || len(d) > 16 || (len(d) == 16 && string(d) > "9007199254740992") || (d[0] == '0' && (len(d) > 1 || len(t) != len(d))) {
			plain = false
		}
		for _, c := range d {
			if c < '0' || c > '9' {
				plain = false
				break
			}
		}
		if plain {
			return len(t)
		}
	}
	f, _ := strconv.ParseFloat(string(t), 64)
	return StringifyLen(NumberValue(f))
}

// HasDuplicate reports whether a key repeats among keys (raw, as they
// are written).
func HasDuplicate(keys [][]byte) bool {
	if len(keys) <= 24 {
		for i := 1; i < len(keys); i++ {
			for j := 0; j < i; j++ {
				if bytes.Equal(keys[i], keys[j]) {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		if _, ok := seen[string(k)]; ok {
			return true
		}
		seen[string(k)] = struct{}{}
	}
	return false
}
