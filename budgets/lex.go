package budgets

import (
	"bytes"
	"fmt"
)

// The TypeScript subset the budget reader needs: enough to find
// `export const NAME = { ... }` blocks and to step safely over everything
// else (strings, template literals with substitutions, comments, regular
// expression literals).

type tkind uint8

const (
	tIdent tkind = iota
	tNumber
	tString
	tTemplate // a whole template literal, or one piece of it
	tRegex
	tPunct
)

type token struct {
	kind tkind
	s, e int // offsets in the source
}

func (t token) text(src []byte) string { return string(src[t.s:t.e]) }

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// keywords after which a "/" starts a regular expression, not a division.
var regexAfter = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true,
	"delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true,
}

// lexError is a lexing failure at an offset.
type lexError struct {
	off int
	msg string
}

func (e *lexError) Error() string { return e.msg }

// lexTS splits src into tokens, dropping whitespace and comments.
func lexTS(src []byte) ([]token, error) {
	var (
		toks  []token
		stack []bool // open braces: true for a template substitution
	)
	regexOK := func() bool {
		if len(toks) == 0 {
			return true
		}
		p := toks[len(toks)-1]
		switch p.kind {
		case tNumber, tString, tTemplate, tRegex:
			return false
		case tIdent:
			return regexAfter[p.text(src)]
		}
		c := src[p.s]
		return !(c == ')' || c == ']' || c == '}')
	}
	// template scans a template literal's text from i (just after "`" or
	// the "}" that ends a substitution) and returns the offset after it.
	template := func(start, i int) (int, error) {
		for i < len(src) {
			switch src[i] {
			case '\\':
				i += 2
				continue
			case '`':
				toks = append(toks, token{tTemplate, start, i + 1})
				return i + 1, nil
			case '$':
				if i+1 < len(src) && src[i+1] == '{' {
					toks = append(toks, token{tTemplate, start, i + 2})
					stack = append(stack, true)
					return i + 2, nil
				}
			}
			i++
		}
		return 0, &lexError{start, "a template literal is not closed"}
	}
	i := 0
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		for i < len(src) && src[i] != '\n' {
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == 0xEF && i+2 < len(src) && src[i+1] == 0xBB && src[i+2] == 0xBF: // BOM
			i += 3
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return nil, &lexError{i, "a /* comment is not closed"}
			}
			i += 2 + end + 2
		case c == '"' || c == '\'':
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' {
					j++
				} else if src[j] == '\n' {
					return nil, &lexError{i, "a string is not closed on its line"}
				}
			}
			if j >= len(src) {
				return nil, &lexError{i, "a string is not closed"}
			}
			toks = append(toks, token{tString, i, j + 1})
			i = j + 1
		case c == '`':
			var err error
			if i, err = template(i, i+1); err != nil {
				return nil, err
			}
		case c == '/' && regexOK():
			j, class := i+1, false
			for ; j < len(src); j++ {
				b := src[j]
				if b == '\\' {
					j++
				} else if b == '\n' {
					return nil, &lexError{i, "a regular expression is not closed on its line"}
				} else if b == '[' {
					class = true
				} else if b == ']' {
					class = false
				} else if b == '/' && !class {
					break
				}
			}
			if j >= len(src) {
				return nil, &lexError{i, "a regular expression is not closed"}
			}
			j++
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			toks = append(toks, token{tRegex, i, j})
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			hex := c == '0' && j < len(src) && (src[j] == 'x' || src[j] == 'X')
			for j < len(src) {
				b := src[j]
				if isIdentPart(b) || b == '.' || (b == '+' || b == '-') && !hex && (src[j-1] == 'e' || src[j-1] == 'E') {
					j++
					continue
				}
				break
			}
			toks = append(toks, token{tNumber, i, j})
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			toks = append(toks, token{tIdent, i, j})
			i = j
		case c == '{':
			stack = append(stack, false)
			toks = append(toks, token{tPunct, i, i + 1})
			i++
		case c == '}':
			if n := len(stack); n > 0 && stack[n-1] {
				stack = stack[:n-1]
				var err error
				if i, err = template(i, i+1); err != nil {
					return nil, err
				}
				continue
			} else if n > 0 {
				stack = stack[:n-1]
			}
			toks = append(toks, token{tPunct, i, i + 1})
			i++
		case c == '=' && i+1 < len(src) && src[i+1] == '>':
			toks = append(toks, token{tPunct, i, i + 2})
			i += 2
		case c == '.' && i+2 < len(src) && src[i+1] == '.' && src[i+2] == '.':
			toks = append(toks, token{tPunct, i, i + 3})
			i += 3
		default:
			toks = append(toks, token{tPunct, i, i + 1})
			i++
		}
	}
	return toks, nil
}

// lines maps offsets to 1-based line numbers.
type lines []int // offsets of each '\n'

func newLines(src []byte) lines {
	var l lines
	for i, c := range src {
		if c == '\n' {
			l = append(l, i)
		}
	}
	return l
}

func (l lines) at(off int) int {
	lo, hi := 0, len(l)
	for lo < hi {
		m := (lo + hi) / 2
		if l[m] < off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo + 1
}

func errAt(path string, ls lines, off int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", path, ls.at(off), fmt.Sprintf(format, args...))
}
