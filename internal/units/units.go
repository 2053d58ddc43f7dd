// Package units holds the toolkit's one token count and the way its
// numbers are written for people.
//
//	units.Tokens(35955)    // 11985: floor(bytes/3)
//	units.Group(23324)     // "23,324"
//	units.Signed(-5)       // "-5"
//	units.Delta(100, 150)  // "+50.00%"
//
// Data carries exact integers; these functions are for printing them.
package units

import (
	"fmt"
	"strconv"
)

// TokensLabel is how a table names a column or row of Tokens: the unit
// and how it is counted, so that no reader takes it for a tokenizer's.
const TokensLabel = "tokens (bytes/3)"

// Label returns unit as a table names it: "tokens" (Tokens' count) as
// TokensLabel, any other unit as it is.
func Label(unit string) string {
	if unit == "tokens" {
		return TokensLabel
	}
	return unit
}

// Tokens returns floor(bytes/3), the toolkit's token count.
func Tokens(bytes int64) int64 {
	if bytes <= 0 {
		return 0
	}
	return bytes / 3
}

// Group formats n with en-US digit grouping: 23324 -> "23,324".
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := false
	if n < 0 {
		neg = true
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Signed formats n with grouping and an explicit sign: "+1,234", "-5", "0".
func Signed(n int64) string {
	if n > 0 {
		return "+" + Group(n)
	}
	return Group(n)
}

// Delta formats the change from old to new as benchstat does: "%+.2f%%",
// or "?" when old is zero.
func Delta(old, new int64) string {
	if old == 0 {
		return "?"
	}
	return fmt.Sprintf("%+.2f%%", float64(new-old)/float64(old)*100)
}
