package tokenize

import (
	_ "embed"
	"unicode/utf8"
)

// The split patterns, as js-tiktoken writes them (its regular expressions
// run with the u flag; tiktoken's own add (?i) to the contractions, which
// comes to the same on ASCII):
//
// o200k:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// cl100k:
//
//	('s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// (every contraction in either case: 's|'S|'t|'T|'re|'rE|'Re|'RE|...).
// A regular expression tries the alternatives in order at each place and
// takes the first that matches, a greedy quantifier giving back one
// character at a time until the rest matches. The splitters below take
// the same decisions by looking at each character's classes once: which
// alternative matches, and where the backtracking would stop. Every
// character is matched by one alternative, so the pieces cover the text.
// They are held to the regular expressions in Node on every character of
// the first two planes in context (TestSplitAgainstNode) and on random
// texts.
//
// The classes of the characters are Node's: its regular expressions
// follow a later Unicode (17.0 in Node 20.20) than Go's unicode package
// (15.0), and letters added since would split otherwise.
// TestClassTable writes classes.bin from Node's \p{L}, \p{N}, ... and \s
// (-update) and holds the file to them.

// The classes of a character, as bits.
const (
	cL     = 1 << iota // \p{L}
	cN                 // \p{N}
	cUpper             // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLower             // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cSpace             // \s, as JavaScript has it
	cNL                // \r or \n
)

// asciiClasses are the classes of the ASCII characters.
var asciiClasses = [128]uint8{
	'\t': cSpace, '\n': cSpace | cNL, '\v': cSpace, '\f': cSpace, '\r': cSpace | cNL, ' ': cSpace,
	'0': cN, '1': cN, '2': cN, '3': cN, '4': cN, '5': cN, '6': cN, '7': cN, '8': cN, '9': cN,
	'A': cL | cUpper, 'B': cL | cUpper, 'C': cL | cUpper, 'D': cL | cUpper, 'E': cL | cUpper,
	'F': cL | cUpper, 'G': cL | cUpper, 'H': cL | cUpper, 'I': cL | cUpper, 'J': cL | cUpper,
	'K': cL | cUpper, 'L': cL | cUpper, 'M': cL | cUpper, 'N': cL | cUpper, 'O': cL | cUpper,
	'P': cL | cUpper, 'Q': cL | cUpper, 'R': cL | cUpper, 'S': cL | cUpper, 'T': cL | cUpper,
	'U': cL | cUpper, 'V': cL | cUpper, 'W': cL | cUpper, 'X': cL | cUpper, 'Y': cL | cUpper,
	'Z': cL | cUpper,
	'a': cL | cLower, 'b': cL | cLower, 'c': cL | cLower, 'd': cL | cLower, 'e': cL | cLower,
	'f': cL | cLower, 'g': cL | cLower, 'h': cL | cLower, 'i': cL | cLower, 'j': cL | cLower,
	'k': cL | cLower, 'l': cL | cLower, 'm': cL | cLower, 'n': cL | cLower, 'o': cL | cLower,
	'p': cL | cLower, 'q': cL | cLower, 'r': cL | cLower, 's': cL | cLower, 't': cL | cLower,
	'u': cL | cLower, 'v': cL | cLower, 'w': cL | cLower, 'x': cL | cLower, 'y': cL | cLower,
	'z': cL | cLower,
}

// classes returns the classes of the character at s[i] and its length in
// bytes. A byte that starts no valid UTF-8 sequence is one character of
// its own, U+FFFD's classes (none).
func classes(s string, i int) (uint8, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClasses[b], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return runeClasses(r), w
}

// classTable holds the classes of every code point, in blocks of 128:
// 0x110000>>7 little-endian uint16 block numbers, then the distinct
// blocks, one byte a code point.
//
//go:embed classes.bin
var classTable string

const classIndex = (0x110000 >> 7) * 2

func runeClasses(r rune) uint8 {
	b := int(classTable[2*(r>>7)]) | int(classTable[2*(r>>7)+1])<<8
	return classTable[classIndex+b<<7|int(r&127)]
}

// isPrefix: [^\r\n\p{L}\p{N}], the character before a word.
func isPrefix(c uint8) bool { return c&(cL|cN|cNL) == 0 }

// isPunct: [^\s\p{L}\p{N}].
func isPunct(c uint8) bool { return c&(cL|cN|cSpace) == 0 }

// nextO200k returns the end of o200k's piece that starts at s[i].
func nextO200k(s string, i int) int {
	c, w := classes(s, i)
	// [^\r\n\p{L}\p{N}]?[upper]*[lower]+ and then [^\r\n\p{L}\p{N}]?[upper]+[lower]*
	if isPrefix(c) && i+w < len(s) {
		if e := upperLower(s, i+w); e > 0 {
			return contraction(s, e)
		}
	}
	if c&(cUpper|cLower) != 0 {
		if e := upperLower(s, i); e > 0 {
			return contraction(s, e)
		}
	}
	if isPrefix(c) && i+w < len(s) {
		if e := upperThenLower(s, i+w); e > 0 {
			return contraction(s, e)
		}
	}
	if c&cUpper != 0 {
		return contraction(s, upperThenLower(s, i))
	}
	if c&cN != 0 {
		return digits(s, i+w)
	}
	if e := punct(s, i, c); e > 0 {
		// [\r\n/]*
		for e < len(s) && (s[e] == '\r' || s[e] == '\n' || s[e] == '/') {
			e++
		}
		return e
	}
	return spaces(s, i)
}

// nextCl100k returns the end of cl100k's piece that starts at s[i].
func nextCl100k(s string, i int) int {
	if s[i] == '\'' {
		if e := contraction(s, i); e > i {
			return e
		}
	}
	c, w := classes(s, i)
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if isPrefix(c) && i+w < len(s) {
		if c2, _ := classes(s, i+w); c2&cL != 0 {
			return letters(s, i+w)
		}
	}
	if c&cL != 0 {
		return letters(s, i)
	}
	if c&cN != 0 {
		return digits(s, i+w)
	}
	if e := punct(s, i, c); e > 0 {
		// [\r\n]*
		for e < len(s) && (s[e] == '\r' || s[e] == '\n') {
			e++
		}
		return e
	}
	return spaces(s, i)
}

// upperLower matches [upper]*[lower]+ at s[j] and returns its end, or 0.
// The greedy [upper]* gives back characters until [lower]+ matches: at
// the first character that is not [upper] when it is [lower], else at the
// last [upper] character that is also [lower] (Lm, Lo, M), which [lower]+
// then takes alone.
func upperLower(s string, j int) int {
	lastLower := 0
	for j < len(s) {
		c, w := classes(s, j)
		if c&cUpper == 0 {
			if c&cLower != 0 {
				return lower(s, j)
			}
			break
		}
		if c&cLower != 0 {
			lastLower = j + w
		}
		j += w
	}
	return lastLower
}

// upperThenLower matches [upper]+[lower]* at s[j] and returns its end, or
// 0.
func upperThenLower(s string, j int) int {
	start := j
	for j < len(s) {
		c, w := classes(s, j)
		if c&cUpper == 0 {
			break
		}
		j += w
	}
	if j == start {
		return 0
	}
	return lower(s, j)
}

// lower returns the end of the run of [lower] characters at s[j].
func lower(s string, j int) int {
	for j < len(s) {
		c, w := classes(s, j)
		if c&cLower == 0 {
			break
		}
		j += w
	}
	return j
}

// letters returns the end of the run of \p{L} characters at s[j].
func letters(s string, j int) int {
	for j < len(s) {
		c, w := classes(s, j)
		if c&cL == 0 {
			break
		}
		j += w
	}
	return j
}

// digits returns the end of \p{N}{1,3} whose first character ends at j.
func digits(s string, j int) int {
	for range 2 {
		if j == len(s) {
			break
		}
		c, w := classes(s, j)
		if c&cN == 0 {
			break
		}
		j += w
	}
	return j
}

// contraction returns the end of ('s|'t|'re|'ve|'m|'ll|'d)? at s[e], in
// either case.
func contraction(s string, e int) int {
	if e+1 >= len(s) || s[e] != '\'' {
		return e
	}
	switch s[e+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return e + 2
	case 'r', 'v':
		if e+2 < len(s) && s[e+2]|0x20 == 'e' {
			return e + 3
		}
	case 'l':
		if e+2 < len(s) && s[e+2]|0x20 == 'l' {
			return e + 3
		}
	}
	return e
}

// punct matches " ?[^\s\p{L}\p{N}]+" at s[i], whose first character's
// classes are c, and returns its end, or 0.
func punct(s string, i int, c uint8) int {
	j := i
	if s[i] == ' ' && i+1 < len(s) {
		if c2, _ := classes(s, i+1); isPunct(c2) {
			j = i + 1
		}
	}
	if j == i && !isPunct(c) {
		return 0
	}
	for j < len(s) {
		c, w := classes(s, j)
		if !isPunct(c) {
			break
		}
		j += w
	}
	return j
}

// spaces returns the end of the piece of white space at s[i], the
// alternatives \s*[\r\n]+, \s+(?!\S) and \s+ in turn: up to the last line
// break of the run when it holds one; else the whole run when it ends the
// text; else the run but its last character, which goes with what
// follows; else the one character.
func spaces(s string, i int) int {
	j, lastNL, last := i, 0, i
	for j < len(s) {
		c, w := classes(s, j)
		if c&cSpace == 0 {
			break
		}
		if c&cNL != 0 {
			lastNL = j + w
		}
		last = j
		j += w
	}
	switch {
	case lastNL > 0:
		return lastNL
	case j == len(s):
		return j
	case last > i:
		return last
	}
	return j
}
