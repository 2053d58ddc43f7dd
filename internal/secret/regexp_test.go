package secret

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The regular expressions the matchers stand for.
var (
	credentialRe = regexp.MustCompile(`(?i)(^|[-_.])(auth|authorization|cookie|set-cookie|token|secret|session|password|passwd|credential|credentials|signature|api[-_]?key|apikey|access[-_]?key|private[-_]?key|key|jwt|bearer)($|[-_.])|apikey|authtoken|accesstoken|sessionid|jwt|[a-z]key$`)
	hexEscRe     = regexp.MustCompile(`%[0-9A-F]{2}`)
)

// TestAgainstRegexp holds credentialName and lowerHex to the regular
// expressions they replace, on names and texts built at random from the
// words, separators and characters that could tell them apart (the long
// s and the Kelvin sign fold to s and k).
func TestAgainstRegexp(t *testing.T) {
	parts := append([]string{"-", "_", ".", "x", "X-", "ſ", "K", "Å", "é", "\xff", "a", "Z", "%", "%4", "%4F", "%af", "%AF", "0", " ", "id", "s", "e"}, credentialWords...)
	parts = append(parts, "APIKEY", "Api_Key", "AuthToken", "accessTOKEN", "SessionId", "JWT", "kEy", "auTH", "ſession", "toKen", "SET-COOKIE")
	r := rand.New(rand.NewPCG(5, 6))
	names := []string{"", "key", "Key", "xkey", "1key", "_key", "X-Api-Key", "X-Userkey", "monkey", "keys", "X-Auth-Token", "x-jwt"}
	for range 50000 {
		var b strings.Builder
		for range 1 + r.IntN(5) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		names = append(names, b.String())
	}
	for _, n := range names {
		if got, want := credentialName(n), credentialRe.MatchString(n); got != want {
			t.Errorf("credentialName(%q) = %v, the regular expression says %v", n, got, want)
		}
		if got, want := lowerHex(n), hexEscRe.ReplaceAllStringFunc(n, strings.ToLower); got != want {
			t.Errorf("lowerHex(%q) = %q, want %q", n, got, want)
		}
	}
}

// TestFoldASCII: the characters a case-insensitive regular expression
// takes for an ASCII letter are the ones foldASCII maps to it.
func TestFoldASCII(t *testing.T) {
	letter := regexp.MustCompile(`(?i)^[a-z]$`)
	for c := rune(0); c <= 0x10ffff; c++ {
		if c >= 0xd800 && c < 0xe000 {
			continue
		}
		f := foldASCII(string(c))
		if got, want := len(f) == 1 && 'a' <= f[0] && f[0] <= 'z', letter.MatchString(string(c)); got != want {
			t.Errorf("U+%04X: folds to %q; the regular expression takes it for a letter: %v", c, f, want)
		}
	}
}
