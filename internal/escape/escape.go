// Package escape shows text that a server or a file controls (tool
// names and descriptions, error text, part names, spec values, budget
// names, file paths) where the commands print it, so that it reads as
// what it is and never acts on its reader.
//
//	fmt.Fprintf(stdout, "%s: %d tools\n", escape.Term(path), n)   // a terminal or a CI log line
//	fmt.Fprintf(stderr, "walks: %s\n", escape.Lines(failure))     // our own lines, kept; each escaped
//	fmt.Fprintf(md, "- %s\n", escape.Markdown(warning))           // Markdown text
//	cell := escape.MarkdownCell(name)                             // a Markdown table cell
//	fmt.Fprintf(md, "the lines: %s\n", escape.Code(name))         // a Markdown code span
//	fmt.Fprintf(svg, "<title>%s</title>", escape.XML(subject))    // XML text or attribute
//
// The stance: data stays raw (counts are taken on the raw strings, JSON
// reports carry them as they are); only printing escapes, and each sink
// has one function here. package table escapes its cells with them,
// package junit its names and texts, package ghactions its annotations;
// the commands escape the strings they put into lines of their own.
//
// Term, the base of all of them, shows as escapes what a terminal or a
// log viewer would act on or hide: C0 controls (tab, line feed and
// carriage return as \t \n \r, the others as \x1b), DEL (\x7f), C1
// controls (\u0085), the line and paragraph separators U+2028 and U+2029,
// every invisible format character (Unicode category Cf: the bidi
// embeddings, overrides, isolates and marks, zero-width space, word
// joiner, byte-order mark, soft hyphen, the tag characters that can hide
// text) except the zero-width joiner and non-joiner that emoji and many
// scripts need, and the noncharacters (U+FFFE, U+FFFF, ...). Invalid UTF-8
// is shown byte by byte as \xff. A GitHub Actions runner reads every line
// a step prints, on stdout and stderr, for workflow commands: "::name::" at
// the start of a line (after any spaces) and "##[name]" anywhere in it. So
// Term shows a "::" that starts its text (after spaces) as "\x3a:", and
// the "[" of every "##[" as "\x5b": no server's text can start a command,
// whatever line it lands at the start of. Everything else, a backslash
// included, is printed as it is: a backslash in the text is not doubled,
// so "\x1b" in the output may also be those four characters.
package escape

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Term returns s for one line of a terminal or a CI log: every character
// that a terminal or a log viewer would act on, or that would not show,
// written as an escape (see the package doc), a "::" at its start and
// every "##[" kept from reading as a workflow command. A string with
// nothing to escape is returned as it is.
func Term(s string) string { return term(s, false) }

// Lines returns s with each of its lines escaped as Term escapes it and
// its line feeds kept: for a text of several lines the toolkit composed
// (a walk failure, a budget breach and its parts) whose pieces may hold a
// server's text. Each line is guarded against starting a workflow
// command, so a line feed in a server's text cannot forge one either.
func Lines(s string) string { return term(s, true) }

// needs reports whether Term writes r (decoded from size bytes) as an
// escape; lf is whether a line feed is kept.
func needs(r rune, size int, lf bool) bool {
	switch {
	case r == utf8.RuneError && size == 1: // an invalid byte
		return true
	case r == '\n':
		return !lf
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r < 0x80:
		return false
	case r == 0x2028, r == 0x2029:
		return true
	case r == 0x200c, r == 0x200d: // zero-width non-joiner and joiner: scripts and emoji need them
		return false
	case unicode.Is(unicode.Cf, r):
		return true
	}
	return noncharacter(r)
}

// noncharacter reports whether r is one of Unicode's 66 noncharacters.
func noncharacter(r rune) bool {
	return (r >= 0xfdd0 && r <= 0xfdef) || r&0xfffe == 0xfffe
}

// clean reports whether term(s, lf) is s itself.
func clean(s string, lf bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			if c == '[' && i >= 2 && s[i-2:i] == "##" {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if needs(r, size, lf) {
			return false
		}
		i += size
	}
	return !startsCommand(s, lf)
}

// startsCommand reports whether s, or with lf any of its lines, starts
// with "::" after spaces.
func startsCommand(s string, lf bool) bool {
	for {
		if strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") {
			return true
		}
		i := strings.IndexByte(s, '\n')
		if !lf || i < 0 {
			return false
		}
		s = s[i+1:]
	}
}

func term(s string, lf bool) string {
	if clean(s, lf) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	lineStart := true // only unescaped spaces written since the start of the line
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case r == '\n' && lf:
			b.WriteByte('\n')
			lineStart = true
			i += size
			continue
		case needs(r, size, lf):
			writeEscape(&b, r)
		case lineStart && r == ':' && strings.HasPrefix(s[i+1:], ":"):
			b.WriteString(`\x3a`)
		case r == '[' && i >= 2 && s[i-2:i] == "##":
			b.WriteString(`\x5b`)
		default:
			b.WriteString(s[i : i+size])
			if lineStart && unicode.IsSpace(r) {
				i += size
				continue
			}
		}
		lineStart = false
		i += size
	}
	return b.String()
}

func writeEscape(b *strings.Builder, r rune) {
	switch {
	case r == '\t':
		b.WriteString(`\t`)
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r < 0x80:
		b.WriteString(`\x`)
		b.WriteString(hex2(byte(r)))
	case r <= 0xffff:
		b.WriteString(`\u`)
		b.WriteString(pad(strconv.FormatInt(int64(r), 16), 4))
	default:
		b.WriteString(`\U`)
		b.WriteString(pad(strconv.FormatInt(int64(r), 16), 8))
	}
}

func hex2(c byte) string { return pad(strconv.FormatInt(int64(c), 16), 2) }

func pad(s string, n int) string { return strings.Repeat("0", max(n-len(s), 0)) + s }
