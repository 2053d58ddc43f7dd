package budgets

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// The TypeScript budget reader stands on a real JavaScript lexer
// (github.com/tdewolff/parse/v2/js): it reads strings, template literals
// with nested substitutions, comments, numbers with "_" separators and
// every line end (CR, LF, CRLF, U+2028, U+2029) as JavaScript does. The one
// thing a lexer cannot know alone is whether a "/" starts a regular
// expression or divides: lexTS decides it from the token before, and from
// a stack of the brackets open that knows whether a "}" closed a block
// (a statement may follow, so a regular expression may) or an object
// literal (a division follows), and whether a ")" closed the condition of
// if, while, for or with (a statement follows).

// token is one significant token: its type, its offsets, and whether a
// line end comes between it and the token before.
type token struct {
	tt   js.TokenType
	s, e int
	nl   bool
}

func (t token) text(src []byte) string { return string(src[t.s:t.e]) }

// comment is a comment's offsets, and whether it is a line comment at the
// top level (outside every bracket).
type comment struct {
	s, e    int
	topLine bool
}

// lexError is a lexing failure at an offset.
type lexError struct {
	off int
	msg string
}

func (e *lexError) Error() string { return e.msg }

// frame is an open bracket of the stack: its kind, and how many "?" of a
// conditional wait for their ":" inside it.
type frame struct {
	kind  byte // '(' a paren, 'c' the paren of if/while/for/with, '[', 'b' a block, 'o' an object or other expression brace, 't' a template substitution
	quest int
}

// lexTS splits src into its significant tokens and its comments.
func lexTS(src []byte) ([]token, []comment, error) {
	start := 0
	if bytes.HasPrefix(src, []byte("#!")) { // a hashbang line, which the lexer does not know
		for start < len(src) && src[start] != '\n' && src[start] != '\r' {
			start++
		}
	}
	// A copy with room for the lexer's NUL, so src is never written.
	buf := make([]byte, len(src)-start, len(src)-start+1)
	copy(buf, src[start:])
	l := js.NewLexer(parse.NewInputBytes(buf))
	var (
		toks     []token
		comments []comment
		stack    []frame
		regexOK  = true
		nl       bool
		ternary  bool // the last ":" closed a conditional's "?"
		top      = frame{kind: 'b'}
	)
	cur := func() *frame {
		if len(stack) == 0 {
			return &top
		}
		return &stack[len(stack)-1]
	}
	prevIs := func(back int, tts ...js.TokenType) bool {
		if len(toks) < back {
			return false
		}
		t := toks[len(toks)-back].tt
		for _, tt := range tts {
			if t == tt {
				return true
			}
		}
		return false
	}
	pop := func(off int, want string, kinds ...byte) (frame, error) {
		if len(stack) == 0 {
			return frame{}, &lexError{off, want + " closes nothing"}
		}
		f := stack[len(stack)-1]
		for _, k := range kinds {
			if f.kind == k {
				stack = stack[:len(stack)-1]
				return f, nil
			}
		}
		return frame{}, &lexError{off, want + " closes another bracket"}
	}
	off := start
	for {
		tt, text := l.Next()
		s := off
		if tt == js.ErrorToken {
			if l.Err() == io.EOF {
				break
			}
			return nil, nil, lexFailure(s, l.Err())
		}
		if (tt == js.DivToken || tt == js.DivEqToken) && regexOK {
			tt, text = l.RegExp()
			if tt == js.ErrorToken {
				return nil, nil, &lexError{s, "a regular expression is not closed on its line"}
			}
		}
		off = s + len(text)
		switch tt {
		case js.WhitespaceToken:
			continue
		case js.LineTerminatorToken:
			nl = true
			continue
		case js.CommentToken, js.CommentLineTerminatorToken:
			if bytes.HasPrefix(text, []byte("<!--")) || bytes.HasPrefix(text, []byte("-->")) {
				return nil, nil, &lexError{s, fmt.Sprintf("%s is an HTML-like comment in a script and an expression in a module; write it another way", text[:3])}
			}
			comments = append(comments, comment{s: s, e: off, topLine: len(stack) == 0 && bytes.HasPrefix(text, []byte("//"))})
			if tt == js.CommentLineTerminatorToken {
				nl = true
			}
			continue
		}
		t := token{tt: tt, s: s, e: off, nl: nl}
		nl = false
		wasOK := regexOK
		regexOK = true
		switch {
		case js.IsNumeric(tt), tt == js.StringToken, tt == js.TemplateToken, tt == js.RegExpToken, tt == js.PrivateIdentifierToken:
			regexOK = false
		case tt == js.TemplateStartToken:
			stack = append(stack, frame{kind: 't'})
		case tt == js.TemplateMiddleToken:
			if len(stack) == 0 || stack[len(stack)-1].kind != 't' {
				return nil, nil, &lexError{s, "a } closes another bracket than the template substitution it ends"}
			}
		case tt == js.TemplateEndToken:
			if _, err := pop(s, "a } ending a template substitution", 't'); err != nil {
				return nil, nil, err
			}
			regexOK = false
		case tt == js.ThisToken, tt == js.SuperToken, tt == js.TrueToken, tt == js.FalseToken, tt == js.NullToken:
			regexOK = false
		case js.IsIdentifier(tt): // a name, or a contextual keyword (as, of, let...)
			regexOK = false
		case js.IsReservedWord(tt): // return, typeof, in, else...: an expression may follow
		case tt == js.OpenParenToken:
			k := byte('(')
			if prevIs(1, js.IfToken, js.WhileToken, js.ForToken, js.WithToken) || prevIs(1, js.AwaitToken) && prevIs(2, js.ForToken) {
				k = 'c'
			}
			stack = append(stack, frame{kind: k})
		case tt == js.CloseParenToken:
			f, err := pop(s, "a )", '(', 'c')
			if err != nil {
				return nil, nil, err
			}
			regexOK = f.kind == 'c'
		case tt == js.OpenBracketToken:
			stack = append(stack, frame{kind: '['})
		case tt == js.CloseBracketToken:
			if _, err := pop(s, "a ]", '['); err != nil {
				return nil, nil, err
			}
			regexOK = false
		case tt == js.OpenBraceToken:
			stack = append(stack, frame{kind: braceKind(toks, cur(), ternary)})
		case tt == js.CloseBraceToken:
			f, err := pop(s, "a }", 'b', 'o')
			if err != nil {
				return nil, nil, err
			}
			regexOK = f.kind == 'b'
		case tt == js.IncrToken, tt == js.DecrToken:
			regexOK = false
		case tt == js.NotToken:
			regexOK = wasOK // after an expression, "!" asserts it is not null: a division may follow
		case tt == js.QuestionToken:
			cur().quest++
		case tt == js.ColonToken:
			f := cur()
			ternary = f.quest > 0
			if ternary {
				f.quest--
			}
		}
		toks = append(toks, t)
	}
	if len(stack) > 0 {
		what := map[byte]string{'(': "a (", 'c': "a (", '[': "a [", 'b': "a {", 'o': "a {", 't': "a template substitution ${"}[stack[len(stack)-1].kind]
		return nil, nil, &lexError{len(src), what + " is not closed at the end of the file"}
	}
	return toks, comments, nil
}

// braceKind says what a "{" opens, from the token before it: a block
// ('b': a statement may follow its "}") or an object literal or other
// expression ('o': a division may follow).
func braceKind(toks []token, f *frame, ternary bool) byte {
	if len(toks) == 0 {
		return 'b'
	}
	p := toks[len(toks)-1]
	switch tt := p.tt; {
	case tt == js.ColonToken:
		// After a property's ":" or a conditional's, an expression; after a
		// label's, a case's or a type annotation's at statement level, a
		// block (a type literal's "}" is followed by no division either).
		if ternary || f.kind == 'o' || f.kind == '(' || f.kind == 'c' || f.kind == '[' || f.kind == 't' {
			return 'o'
		}
		return 'b'
	case tt == js.ArrowToken, tt == js.CloseParenToken, tt == js.SemicolonToken, tt == js.OpenBraceToken, tt == js.CloseBraceToken, tt == js.GtToken, tt == js.GtGtToken, tt == js.GtGtGtToken:
		return 'b'
	case tt == js.ReturnToken, tt == js.TypeofToken, tt == js.InstanceofToken, tt == js.InToken, tt == js.NewToken,
		tt == js.DeleteToken, tt == js.VoidToken, tt == js.ThrowToken, tt == js.CaseToken, tt == js.YieldToken,
		tt == js.AwaitToken, tt == js.DefaultToken, tt == js.ExtendsToken:
		return 'o'
	case js.IsIdentifierName(tt), js.IsNumeric(tt), tt == js.StringToken, tt == js.TemplateToken, tt == js.TemplateEndToken, tt == js.RegExpToken:
		return 'b' // class NAME {, else {, a statement after one without ";"
	}
	return 'o' // after ( [ , = ? and every operator: an expression
}

// lexFailure turns the lexer's error at a token starting at off into the
// reader's words.
func lexFailure(off int, err error) error {
	msg := err.Error()
	if pe, ok := err.(*parse.Error); ok {
		msg = pe.Message
	}
	switch {
	case strings.Contains(msg, "unterminated string"):
		msg = "a string is not closed on its line"
	case strings.Contains(msg, "EOF in comment"):
		msg = "a /* comment is not closed"
	case strings.Contains(msg, "unterminated template"):
		msg = "a template literal is not closed"
	case strings.Contains(msg, "legacy octal"):
		msg = "a number with a leading zero (a legacy octal) is not TypeScript"
	case strings.Contains(msg, "identifier after number"):
		msg = "a number runs into a name (a misplaced \"_\" separator?)"
	default:
		msg = "TypeScript cannot read this: " + msg
	}
	return &lexError{off, msg}
}

// lines maps offsets to 1-based line numbers.
type lines []int // the offset where each line after the first starts

// newLines finds the line ends of src: LF, CR, CRLF (one end), and, when
// js is true, U+2028 and U+2029, as JavaScript and TypeScript count lines.
func newLines(src []byte, js bool) lines {
	var l lines
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			l = append(l, i+1)
		case c == '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			l = append(l, i+1)
		case js && c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9):
			i += 2
			l = append(l, i+1)
		}
	}
	return l
}

// at returns the line of the byte at off.
func (l lines) at(off int) int {
	lo, hi := 0, len(l)
	for lo < hi {
		m := (lo + hi) / 2
		if l[m] <= off {
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

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
