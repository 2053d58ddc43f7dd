package escape

import (
	"strings"
	"unicode/utf8"
)

// MarkdownCell returns s for a cell of a GitHub-flavoured Markdown table:
// escaped as Term escapes it (so no line break, control or bidi override
// is left), then with the characters Markdown would read written so that
// it shows them as they are: "\", "|", "`", "[" and "]" behind a
// backslash (no cell split, no code span, no link or image), "<" as
// "&lt;" (no HTML, no autolink), and an "&" that would start an entity
// ("&amp;" "&#60;") as "&amp;". Emphasis characters (* _ ~) are left: they
// can style a cell's text, not leave the cell. A bare URL stays a link,
// as GitHub links it. A mention (@user, @org/team) or a reference (#123)
// has a zero-width space written after its "@" or "#" (&#8203;), so that
// GitHub neither notifies nor links anyone from a server's words.
func MarkdownCell(s string) string { return markdown(s, false) }

// Markdown returns s for Markdown text that may start a line or a list
// item: as MarkdownCell writes it, and with a leading character that would
// open a block ("#" heading, ">" quote, "-" "+" "*" list or rule, "="
// "~" underline or fence, "1." "1)" ordered list) behind a backslash.
func Markdown(s string) string { return markdown(s, true) }

func markdown(s string, block bool) string {
	t := Term(s)
	var b strings.Builder
	b.Grow(len(t) + 8)
	lead := block // at the first character that is not a space
	for i := 0; i < len(t); i++ {
		c := t[i]
		if lead && c != ' ' {
			lead = false
			switch {
			case strings.IndexByte("#>-+*=~", c) >= 0:
				b.WriteByte('\\')
			case c >= '0' && c <= '9':
				j := i
				for j < len(t) && t[j] >= '0' && t[j] <= '9' {
					j++
				}
				if j < len(t) && (t[j] == '.' || t[j] == ')') {
					b.WriteString(t[i:j])
					b.WriteByte('\\')
					i = j - 1
					continue
				}
			}
		}
		switch c {
		case '\\', '|', '`', '[', ']':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '@', '#':
			b.WriteByte(c)
			if i+1 < len(t) && isWordByte(t[i+1]) && (i == 0 || t[i-1] != '&') { // &#60; is an entity, escaped above
				b.WriteString(zeroWidthSpace)
			}
		case '<':
			b.WriteString("&lt;")
		case '&':
			if entity(t[i+1:]) {
				b.WriteString("&amp;")
			} else {
				b.WriteByte('&')
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// zeroWidthSpace is written after the "@" of a mention and the "#" of a
// reference: it shows as nothing, and GitHub then reads neither.
const zeroWidthSpace = "&#8203;"

// isWordByte reports whether c is an ASCII letter, digit, "_" or "-": a
// byte that may follow "@" or "#" in a mention or a reference.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// entity reports whether s, the text after an "&", would make it an
// entity or a numeric character reference: a name or "#" and digits, then
// ";".
func entity(s string) bool {
	i := 0
	if i < len(s) && s[i] == '#' {
		i++
		if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
			i++
		}
	}
	start := i
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return i > start && i < len(s) && s[i] == ';'
}

// Code returns s as a Markdown code span, for text outside a table: its
// characters escaped as Term escapes them, between fences of one backtick
// more than the longest run of backticks in it (padded with a space where
// a backtick or a space would otherwise be taken for part of a fence).
// Inside a code span Markdown reads nothing else.
func Code(s string) string {
	t := Term(s)
	fence := strings.Repeat("`", longestRun(t, '`')+1)
	if t == "" {
		t = " " // an empty code span is none: a space shows as nothing
	} else if t[0] == '`' || t[len(t)-1] == '`' || (t[0] == ' ' && t[len(t)-1] == ' ' && strings.Trim(t, " ") != "") {
		t = " " + t + " "
	}
	return fence + t + fence
}

// Fence returns the fence of a Markdown code block that holds text: three
// backticks, or one more than the longest run of backticks in it, so no
// line of it can close the block.
func Fence(text string) string {
	return strings.Repeat("`", max(3, longestRun(text, '`')+1))
}

func longestRun(s string, c byte) int {
	most, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			most = max(most, n)
		} else {
			n = 0
		}
	}
	return most
}

// XML returns s for XML character data or an attribute value (an SVG
// chart's titles and labels): escaped as Term escapes it, which leaves no
// character XML 1.0 forbids (NUL, the other C0 controls, U+FFFE, U+FFFF,
// invalid UTF-8) and shows each of them, then with &, <, >, ' and "
// written as references.
func XML(s string) string { return XMLText(Term(s)) }

// XMLText returns s as XML character data or an attribute value, as
// encoding/xml's EscapeText writes it: &, <, >, ', ", tab, CR and LF as
// references, a character XML 1.0 forbids (and a byte of invalid UTF-8)
// as U+FFFD. Give it text escaped already (Term, Lines), so that nothing
// is lost.
func XMLText(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if !xmlChar(r) || r == utf8.RuneError && w == 1 {
				esc = "\uFFFD"
			}
		}
		if esc != "" {
			if b.Len() == 0 {
				b.Grow(len(s) + 16)
			}
			b.WriteString(s[last:i])
			b.WriteString(esc)
			last = i + w
		}
		i += w
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// xmlChar reports whether XML 1.0 allows r (its Char production).
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0a || r == 0x0d || r >= 0x20 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
}
