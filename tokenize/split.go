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

	// cAbove marks, in asciiClasses, a byte that starts a character
	// outside ASCII, whose classes classesAbove reads.
	cAbove = 0x80
)

// asciiClasses are the classes of the ASCII characters, by byte; cAbove
// for the bytes of other characters.
var asciiClasses = [256]uint8{
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
	'z':  cL | cLower,
	0x80: cAbove, 0x81: cAbove, 0x82: cAbove, 0x83: cAbove, 0x84: cAbove, 0x85: cAbove, 0x86: cAbove, 0x87: cAbove,
	0x88: cAbove, 0x89: cAbove, 0x8a: cAbove, 0x8b: cAbove, 0x8c: cAbove, 0x8d: cAbove, 0x8e: cAbove, 0x8f: cAbove,
	0x90: cAbove, 0x91: cAbove, 0x92: cAbove, 0x93: cAbove, 0x94: cAbove, 0x95: cAbove, 0x96: cAbove, 0x97: cAbove,
	0x98: cAbove, 0x99: cAbove, 0x9a: cAbove, 0x9b: cAbove, 0x9c: cAbove, 0x9d: cAbove, 0x9e: cAbove, 0x9f: cAbove,
	0xa0: cAbove, 0xa1: cAbove, 0xa2: cAbove, 0xa3: cAbove, 0xa4: cAbove, 0xa5: cAbove, 0xa6: cAbove, 0xa7: cAbove,
	0xa8: cAbove, 0xa9: cAbove, 0xaa: cAbove, 0xab: cAbove, 0xac: cAbove, 0xad: cAbove, 0xae: cAbove, 0xaf: cAbove,
	0xb0: cAbove, 0xb1: cAbove, 0xb2: cAbove, 0xb3: cAbove, 0xb4: cAbove, 0xb5: cAbove, 0xb6: cAbove, 0xb7: cAbove,
	0xb8: cAbove, 0xb9: cAbove, 0xba: cAbove, 0xbb: cAbove, 0xbc: cAbove, 0xbd: cAbove, 0xbe: cAbove, 0xbf: cAbove,
	0xc0: cAbove, 0xc1: cAbove, 0xc2: cAbove, 0xc3: cAbove, 0xc4: cAbove, 0xc5: cAbove, 0xc6: cAbove, 0xc7: cAbove,
	0xc8: cAbove, 0xc9: cAbove, 0xca: cAbove, 0xcb: cAbove, 0xcc: cAbove, 0xcd: cAbove, 0xce: cAbove, 0xcf: cAbove,
	0xd0: cAbove, 0xd1: cAbove, 0xd2: cAbove, 0xd3: cAbove, 0xd4: cAbove, 0xd5: cAbove, 0xd6: cAbove, 0xd7: cAbove,
	0xd8: cAbove, 0xd9: cAbove, 0xda: cAbove, 0xdb: cAbove, 0xdc: cAbove, 0xdd: cAbove, 0xde: cAbove, 0xdf: cAbove,
	0xe0: cAbove, 0xe1: cAbove, 0xe2: cAbove, 0xe3: cAbove, 0xe4: cAbove, 0xe5: cAbove, 0xe6: cAbove, 0xe7: cAbove,
	0xe8: cAbove, 0xe9: cAbove, 0xea: cAbove, 0xeb: cAbove, 0xec: cAbove, 0xed: cAbove, 0xee: cAbove, 0xef: cAbove,
	0xf0: cAbove, 0xf1: cAbove, 0xf2: cAbove, 0xf3: cAbove, 0xf4: cAbove, 0xf5: cAbove, 0xf6: cAbove, 0xf7: cAbove,
	0xf8: cAbove, 0xf9: cAbove, 0xfa: cAbove, 0xfb: cAbove, 0xfc: cAbove, 0xfd: cAbove, 0xfe: cAbove, 0xff: cAbove,
}

// classes returns the classes of the character at s[i] and its length in
// bytes. A byte that starts no valid UTF-8 sequence is one character of
// its own, U+FFFD's classes (none).
func classes(s string, i int) (uint8, int) {
	if c := asciiClasses[s[i]]; c != cAbove {
		return c, 1
	}
	return classesAbove(s, i)
}

// classesAbove is classes of a character outside ASCII.
func classesAbove(s string, i int) (uint8, int) {
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
	// the commonest pieces first: a word in lower case, with a space
	// before it or not (what the alternatives below decide for them)
	if b := s[i]; b-'a' < 26 {
		return contraction(s, lower(s, i+1))
	} else if b == ' ' && i+1 < len(s) && s[i+1]-'a' < 26 {
		return contraction(s, lower(s, i+2))
	}
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
	// the commonest pieces first: a word, with a space before it or not
	if b := s[i]; b|0x20-'a' < 26 {
		return letters(s, i+1)
	} else if b == ' ' && i+1 < len(s) && s[i+1]|0x20-'a' < 26 {
		return letters(s, i+2)
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
		c, w := asciiClasses[s[j]], 1
		if c == cAbove {
			c, w = classesAbove(s, j)
		}
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
		c, w := asciiClasses[s[j]], 1
		if c == cAbove {
			c, w = classesAbove(s, j)
		}
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
	for j < len(s) && s[j]-'a' < 26 {
		j++
	}
	for j < len(s) {
		c, w := asciiClasses[s[j]], 1
		if c == cAbove {
			c, w = classesAbove(s, j)
		}
		if c&cLower == 0 {
			break
		}
		j += w
	}
	return j
}

// letters returns the end of the run of \p{L} characters at s[j].
func letters(s string, j int) int {
	for j < len(s) && s[j]|0x20-'a' < 26 {
		j++
	}
	for j < len(s) {
		c, w := asciiClasses[s[j]], 1
		if c == cAbove {
			c, w = classesAbove(s, j)
		}
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
		c, w := asciiClasses[s[j]], 1
		if c == cAbove {
			c, w = classesAbove(s, j)
		}
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
		c, w := asciiClasses[s[j]], 1
		if c == cAbove {
			c, w = classesAbove(s, j)
		}
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
		c, w := asciiClasses[s[j]], 1
		if c == cAbove {
			c, w = classesAbove(s, j)
		}
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
