package budgets

import (
	"errors"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// A TypeScript budget file is read in three steps: lexTS splits it into
// tokens and comments; file walks the top-level statements and finds the
// objects that are exported (`export const|let|var NAME = {...}`, with a
// type annotation, `as const` or `satisfies T`; `const NAME = {...}`
// exported later by `export { NAME }` or `export { NAME as OTHER }`;
// `export default {...}`) and every other name the file declares; then
// each object is read member by member and kept as a budget block or
// skipped, with the reason.

type tsParser struct {
	f        *File
	src      []byte
	toks     []token
	comments []comment
	ls       lines
	match    []int // for each bracket token, the index of its partner
	// missing is the token before which a block's object lacks a comma
	// (`a: 1` then `b: 2` on the next line), or -1.
	missing int
	// extra is a comma of a block's object that follows another (`1,,`),
	// or -1.
	extra int
}

// defaultBlock is the name of the block `export default {...}` declares:
// the name of the export, as `import { default as X }` reads it.
const defaultBlock = "default"

func (f *File) parseTS() error {
	f.lines = newLines(f.data, true)
	toks, comments, err := lexTS(f.data)
	if err != nil {
		var le *lexError
		if errors.As(err, &le) {
			return errAt(f.Path, f.lines, le.off, "%s; budgets are read from TypeScript `export const NAME = { key: 123 } as const;` blocks", le.msg)
		}
		return err
	}
	p := &tsParser{f: f, src: f.data, toks: toks, comments: comments, ls: f.lines, missing: -1, extra: -1}
	p.match = make([]int, len(toks))
	var st []int
	for i, t := range toks {
		p.match[i] = -1
		switch t.tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken, js.TemplateStartToken:
			st = append(st, i)
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken, js.TemplateEndToken, js.TemplateMiddleToken:
			o := st[len(st)-1] // lexTS checked the brackets pair
			st = st[:len(st)-1]
			p.match[o], p.match[i] = i, o
			if t.tt == js.TemplateMiddleToken {
				st = append(st, i)
			}
		}
	}
	if err := p.server(); err != nil {
		return err
	}
	return p.file()
}

// server reads the top-level line comment `// $server: NAME`.
func (p *tsParser) server() error {
	first := 0
	for _, c := range p.comments {
		if !c.topLine {
			continue
		}
		text := strings.TrimSpace(string(p.src[c.s+2 : c.e]))
		rest, ok := strings.CutPrefix(text, ServerMember)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		name, ok := strings.CutPrefix(rest, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return errAt(p.f.Path, p.ls, c.s, "%q is not a server mark; write `// %s: NAME` (NAME such as twin, or api.example.org)", text, ServerMember)
		}
		if first > 0 {
			return errAt(p.f.Path, p.ls, c.s, "a second `// %s:` mark (first at line %d); keep one", ServerMember, first)
		}
		p.f.server, first = name, p.ls.at(c.s)
		p.f.serverOff = c.s
	}
	return nil
}

func (p *tsParser) tt(i int) js.TokenType {
	if i < 0 || i >= len(p.toks) {
		return js.ErrorToken
	}
	return p.toks[i].tt
}

func (p *tsParser) text(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].text(p.src)
}

// name returns the name toks[i] spells, decoded as JavaScript decodes it:
// an identifier's \u escapes, a string's quotes and escapes
// (TOOL_LIST_\u0054OKENS is TOOL_LIST_TOKENS).
func (p *tsParser) name(i int) string {
	if p.tt(i) == js.StringToken {
		return unquoteTS(p.text(i))
	}
	return identName(p.text(i))
}

// isWord reports whether toks[i] is the identifier or keyword w.
func (p *tsParser) isWord(i int, w string) bool {
	return i < len(p.toks) && js.IsIdentifierName(p.tt(i)) && p.text(i) == w
}

// statementWord reports whether w starts a statement when it begins a
// line after a complete one: a declaration's initializer or type ends
// before it. (A switch, not a map: nothing is built at start.)
func statementWord(w string) bool {
	switch w {
	case "export", "import", "const", "var", "let", "function", "class", "enum", "interface", "declare",
		"if", "for", "while", "do", "return", "throw", "try", "switch", "namespace", "abstract":
		return true
	}
	return false
}

func (p *tsParser) startsStatement(i int) bool {
	if i >= len(p.toks) {
		return true
	}
	t := p.toks[i]
	if !t.nl || !js.IsIdentifierName(t.tt) || !statementWord(t.text(p.src)) {
		return false
	}
	if prev := p.tt(i - 1); prev == js.DotToken || prev == js.OptChainToken {
		return false
	}
	if p.text(i) == "let" { // let is a name too
		return js.IsIdentifierName(p.tt(i+1)) || p.tt(i+1) == js.OpenBraceToken || p.tt(i+1) == js.OpenBracketToken
	}
	return true
}

// skip returns the index of the first token from i, at the bracket depth
// of i, that ends a declarator, an initializer or a type: "," ";" "=" (with
// stopAtEq), a bracket that closes, or a statement that starts. angles
// counts < > as brackets (in a type).
func (p *tsParser) skip(i int, stopAtEq, angles bool) int {
	ad := 0
	for ; i < len(p.toks); i++ {
		if i > 0 && p.startsStatement(i) && ad == 0 {
			return i
		}
		switch tt := p.tt(i); tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken, js.TemplateStartToken:
			i = p.match[i]
			for p.tt(i) == js.TemplateMiddleToken {
				i = p.match[i]
			}
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
			return i
		case js.CommaToken, js.SemicolonToken:
			if ad == 0 {
				return i
			}
		case js.EqToken:
			if stopAtEq && ad == 0 {
				return i
			}
		case js.LtToken:
			if angles {
				ad++
			}
		case js.GtToken, js.GtGtToken, js.GtGtGtToken:
			if angles {
				ad -= map[js.TokenType]int{js.GtToken: 1, js.GtGtToken: 2, js.GtGtGtToken: 3}[tt]
				ad = max(ad, 0)
			}
		}
	}
	return i
}

// decl is a name the file declares at the top level, and where.
type decl struct {
	off  int
	what string // "an import", "a function"...
}

// candidate is a top-level object declared under a name: a block once it
// is exported.
type candidate struct {
	block    *tsBlock
	exported bool
}

func (p *tsParser) file() error {
	var cands []*candidate
	exports := map[string][]int{} // a local name: the tokens of the names it is exported as
	p.f.declared = map[string]decl{}
	p.f.reexported = map[string]decl{}
	declare := func(i int, what string) {
		name := p.name(i)
		if _, dup := p.f.declared[name]; !dup {
			p.f.declared[name] = decl{p.toks[i].s, what}
		}
	}
	depth := 0
	for i := 0; i < len(p.toks); {
		t := p.toks[i]
		if depth > 0 || !js.IsIdentifierName(t.tt) {
			switch t.tt {
			case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken, js.TemplateStartToken:
				depth++
			case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken, js.TemplateEndToken:
				depth--
			}
			i++
			continue
		}
		switch w := p.text(i); {
		case w == "export":
			j := i + 1
			if p.isWord(j, "declare") {
				j++
			}
			switch nw := p.text(j); {
			case nw == "const" || nw == "var" || nw == "let":
				if p.isWord(j+1, "enum") { // export const enum E {...}
					declare(j+2, "an enum")
					i = j + 2
					continue
				}
				var err error
				if i, err = p.decls(j+1, true, &cands, declare); err != nil {
					return err
				}
			case nw == "default":
				switch {
				case p.tt(j+1) == js.OpenBraceToken:
					b, end, err := p.block(defaultBlock, j, j+1)
					if err != nil {
						return err
					}
					if b != nil {
						cands = append(cands, &candidate{block: b, exported: true})
						i = end
					} else {
						declare(j, "an export default")
						i = j + 1
					}
				case js.IsIdentifier(p.tt(j+1)) && (p.tt(j+2) == js.SemicolonToken || p.startsStatement(j+2)):
					exports[p.name(j+1)] = append(exports[p.name(j+1)], j)
					i = j + 2
				default:
					declare(j, "an export default")
					i = j + 1
				}
			case p.tt(j) == js.OpenBraceToken:
				i = p.exportClause(j, exports, declare)
			case p.tt(j) == js.MulToken:
				k := j + 1
				if p.isWord(k, "as") {
					p.f.reexported[p.name(k+1)] = decl{p.toks[k+1].s, "a re-export"}
					k += 2
				}
				if p.isWord(k, "from") && p.tt(k+1) == js.StringToken {
					p.f.stars = append(p.f.stars, unquoteTS(p.text(k+1)))
					k += 2
				}
				i = k
			default:
				i = p.namedDecl(j, declare)
			}
		case w == "const" || w == "var" || w == "let" && p.startsStatement(i) || w == "let" && i == 0:
			if p.isWord(i+1, "enum") {
				declare(i+2, "an enum")
				i += 2
				continue
			}
			var err error
			if i, err = p.decls(i+1, false, &cands, declare); err != nil {
				return err
			}
		case w == "declare" && (p.isWord(i+1, "const") || p.isWord(i+1, "let") || p.isWord(i+1, "var")):
			var err error
			if i, err = p.decls(i+2, false, &cands, declare); err != nil {
				return err
			}
		case w == "import" && p.tt(i+1) != js.OpenParenToken && p.tt(i+1) != js.DotToken:
			i = p.importClause(i+1, declare)
		case w == "function" || w == "class" || w == "enum" || w == "namespace" || w == "abstract" || w == "async" && p.isWord(i+1, "function"):
			i = p.namedDecl(i, declare)
		default:
			i++
		}
	}
	return p.blocks(cands, exports)
}

// namedDecl records the name a `function`, `class`, `enum` or `namespace`
// declaration at toks[i] declares, and returns the index after its name.
func (p *tsParser) namedDecl(i int, declare func(int, string)) int {
	for k := i; k < len(p.toks) && k < i+4; k++ {
		switch p.text(k) {
		case "async", "abstract", "declare", "const", "*":
			continue
		case "function", "class", "enum", "namespace", "module":
			what := "a " + p.text(k)
			if what == "a enum" {
				what = "an enum"
			}
			if js.IsIdentifierName(p.tt(k + 1)) {
				declare(k+1, what)
				return k + 2
			}
			return k + 1
		case "import": // export import A = B.C
			if js.IsIdentifierName(p.tt(k+1)) && p.tt(k+2) == js.EqToken {
				declare(k+1, "an import")
			}
			return k + 1
		}
		break
	}
	return i + 1
}

// importClause records the names an import binds; it returns the index
// after the clause.
func (p *tsParser) importClause(i int, declare func(int, string)) int {
	if p.isWord(i, "type") && !p.isWord(i+1, "from") {
		return i + 1 // types only
	}
	for ; i < len(p.toks); i++ {
		switch tt := p.tt(i); {
		case tt == js.StringToken, tt == js.SemicolonToken:
			return i + 1
		case p.isWord(i, "from") && p.tt(i+1) == js.StringToken:
			return i + 2
		case js.IsIdentifierName(tt):
			w := p.text(i)
			if w == "type" || w == "as" || p.isWord(i+1, "as") {
				continue // type-only, or the imported name of `a as b`
			}
			if p.tt(i+1) == js.EqToken { // import A = require("x")
				declare(i, "an import")
				return i + 1
			}
			declare(i, "an import")
		}
	}
	return i
}

// exportClause reads `export { A, B as C } [from "x"]` at toks[i] ("{").
func (p *tsParser) exportClause(i int, exports map[string][]int, declare func(int, string)) int {
	close := p.match[i]
	type spec struct{ local, exported int }
	var specs []spec
	for k := i + 1; k < close; {
		if p.isWord(k, "type") && !p.isWord(k+1, "as") && p.tt(k+1) != js.CommaToken && p.tt(k+1) != js.CloseBraceToken {
			k++ // a type-only name
			for k < close && p.tt(k) != js.CommaToken {
				k++
			}
			k++
			continue
		}
		s := spec{k, k}
		if p.isWord(k+1, "as") {
			s.exported = k + 2
			k += 3
		} else {
			k++
		}
		specs = append(specs, s)
		for k < close && p.tt(k) != js.CommaToken {
			k++
		}
		k++
	}
	end := close + 1
	if p.isWord(end, "from") {
		for _, s := range specs {
			name := p.name(s.exported)
			p.f.reexported[name] = decl{p.toks[s.exported].s, "a re-export from " + p.text(end+1)}
		}
		return end + 2
	}
	for _, s := range specs {
		exports[p.name(s.local)] = append(exports[p.name(s.local)], s.exported)
	}
	return end
}

// decls reads the declarators of a const, let or var at toks[i] (after the
// keyword). An object initializer is a candidate block; any other name is
// recorded as declared. It returns the index after the statement.
func (p *tsParser) decls(i int, exported bool, cands *[]*candidate, declare func(int, string)) (int, error) {
	for i < len(p.toks) {
		nameTok := -1
		switch {
		case js.IsIdentifierName(p.tt(i)):
			nameTok = i
			i++
		case p.tt(i) == js.OpenBraceToken || p.tt(i) == js.OpenBracketToken:
			i = p.match[i] + 1 // a destructuring pattern
		default:
			return i, nil
		}
		if p.tt(i) == js.NotToken {
			i++
		}
		if p.tt(i) == js.ColonToken {
			i = p.skip(i+1, true, true)
		}
		if p.tt(i) == js.EqToken {
			if nameTok >= 0 && p.tt(i+1) == js.OpenBraceToken {
				b, end, err := p.block(p.name(nameTok), nameTok, i+1)
				if err != nil {
					return 0, err
				}
				if b != nil {
					if !exported {
						b.local = b.name
					}
					*cands = append(*cands, &candidate{block: b, exported: exported})
					nameTok = -1
					i = end
				} else {
					i = p.skip(i+1, false, false)
				}
			} else {
				i = p.skip(i+1, false, false)
			}
		}
		if nameTok >= 0 {
			declare(nameTok, "a constant that is not a budget block")
		}
		switch p.tt(i) {
		case js.CommaToken:
			i++
			continue
		case js.SemicolonToken:
			return i + 1, nil
		}
		return i, nil
	}
	return i, nil
}

// block reads the object at toks[open] as the block name (declared at
// toks[nameTok]), with what follows it: `as T` and `satisfies T`, then the
// end of the declarator. It returns nil when the object is only part of a
// longer expression (`{...}.a`, `{...} + 1`): no block. end is the index
// after the declarator.
func (p *tsParser) block(name string, nameTok, open int) (b *tsBlock, end int, err error) {
	close := p.match[open]
	j := close + 1
	asConst := false
	for p.isWord(j, "as") || p.isWord(j, "satisfies") {
		if p.isWord(j, "as") && p.isWord(j+1, "const") {
			asConst = true
		}
		if j = p.skip(j+1, false, true); p.tt(j) == js.EqToken {
			return nil, j, nil
		}
	}
	switch tt := p.tt(j); {
	case j >= len(p.toks), tt == js.CommaToken, tt == js.SemicolonToken, p.startsStatement(j):
	case p.toks[j].nl && (js.IsIdentifierName(tt) && !p.isWord(j, "in") && !p.isWord(j, "instanceof") || js.IsNumeric(tt) || tt == js.StringToken):
	default:
		return nil, j, nil
	}
	b = &tsBlock{name: name, nameOff: p.toks[nameTok].s, asConst: asConst, semi: p.tt(j) == js.SemicolonToken}
	obj, ok := p.object(open, nil, b)
	if ok {
		b.obj = obj
	} else {
		b.why = "its members are not plain data (a method, or an expression the reader cannot split)"
	}
	return b, j, nil
}

// object reads the object literal whose "{" is toks[open]. ok is false
// when its members are not `key: value`, a spread, a computed key, a
// shorthand or a method.
func (p *tsParser) object(open int, parent *object, b *tsBlock) (*object, bool) {
	close := p.match[open]
	o := &object{open: p.toks[open].s, close: p.toks[close].s, comma: -1, parent: parent, block: b}
	for i := open + 1; i < close; {
		m := &member{keyOff: p.toks[i].s}
		vs := -1 // the value's first token, for key: value
		switch tt := p.tt(i); {
		case tt == js.EllipsisToken:
			m.odd = "a spread (" + clipLit(string(p.src[p.toks[i].s:p.toks[p.valueEnd(i+1, close)-1].e])) + ")"
			m.keyEnd = p.toks[i].e
			i = p.valueEnd(i+1, close)
		case tt == js.OpenBracketToken:
			k := p.match[i]
			m.odd = "a computed key " + clipLit(string(p.src[p.toks[i].s:p.toks[k].e]))
			m.keyEnd = p.toks[k].e
			i = p.valueEnd(k+1, close)
			m.kind = leafForeign
			if p.tt(k+1) == js.ColonToken {
				m.kind = leafNumeric
			}
		case js.IsIdentifierName(tt) || tt == js.StringToken || js.IsNumeric(tt):
			text := p.text(i)
			switch {
			case tt == js.StringToken:
				m.key, m.quote = unquoteTS(text), text[0]
			case js.IsNumeric(tt):
				m.key = numericKey(text)
			default:
				m.key = identName(text)
			}
			m.keyEnd = p.toks[i].e
			switch nt := p.tt(i + 1); {
			case nt == js.ColonToken:
				vs = i + 2
			case (nt == js.CommaToken || nt == js.CloseBraceToken) && js.IsIdentifierName(tt):
				m.odd = "a shorthand member " + text
				m.kind = leafNumeric
				i++
			default: // a method, an accessor, a generator
				m.odd = "a method " + text
				m.kind = leafForeign
				i = p.valueEnd(i+1, close)
			}
		case tt == js.MulToken:
			m.odd = "a generator method"
			m.kind = leafForeign
			i = p.valueEnd(i+1, close)
		default:
			if tt == js.CommaToken && p.extra < 0 {
				p.extra = i
			}
			return nil, false
		}
		if vs >= 0 {
			if vs >= close {
				return nil, false
			}
			ve := p.valueEnd(vs, close)
			if ve == vs {
				return nil, false
			}
			if k := p.keyInside(vs, ve); k >= 0 && p.missing < 0 {
				p.missing = k
			}
			m.s, m.e = p.toks[vs].s, p.toks[ve-1].e
			if p.tt(vs) == js.OpenBraceToken && p.nestedEnd(vs) == ve {
				sub, ok := p.object(vs, o, b)
				if !ok {
					return nil, false
				}
				m.obj = sub
				m.e = p.toks[p.match[vs]].e
			} else {
				m.kind = p.classify(vs, ve)
			}
			i = ve
		} else if m.odd != "" && m.e == 0 {
			m.s, m.e = m.keyOff, p.toks[i-1].e
		}
		o.members = append(o.members, m)
		if p.tt(i) == js.CommaToken {
			if i+1 == close {
				o.comma = p.toks[i].s
			}
			i++
		} else if i != close {
			return nil, false
		}
	}
	return o, true
}

// keyInside returns the index of a `key:` that starts a line inside the
// value toks[s:e] right after a complete value, as the next member does
// when a comma is missing (no expression reads so: a conditional's ":"
// follows a "?" branch), or -1.
func (p *tsParser) keyInside(s, e int) int {
	for k := s + 1; k+1 < e; k++ {
		tt := p.tt(k)
		if !p.toks[k].nl || p.tt(k+1) != js.ColonToken || !(js.IsIdentifierName(tt) || tt == js.StringToken || js.IsNumeric(tt)) {
			continue
		}
		switch prev := p.tt(k - 1); {
		case js.IsNumeric(prev), prev == js.StringToken, js.IsIdentifier(prev),
			prev == js.CloseBraceToken, prev == js.CloseBracketToken, prev == js.CloseParenToken:
			if !p.questionBefore(s, k) {
				return k
			}
		}
	}
	return -1
}

// questionBefore reports whether a "?" of a conditional comes in
// toks[s:k] (its ":" may start a line).
func (p *tsParser) questionBefore(s, k int) bool {
	for i := s; i < k; i++ {
		if p.tt(i) == js.QuestionToken {
			return true
		}
	}
	return false
}

// valueEnd returns the index of the "," or "}" that ends the value
// starting at toks[i], inside an object closing at toks[close].
func (p *tsParser) valueEnd(i, close int) int {
	for i < close {
		switch p.tt(i) {
		case js.CommaToken:
			return i
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken, js.TemplateStartToken:
			i = p.match[i]
			for p.tt(i) == js.TemplateMiddleToken {
				i = p.match[i]
			}
		}
		i++
	}
	return close
}

// nestedEnd returns the index after a nested object at toks[open] and the
// `as T` or `satisfies T` that follow it.
func (p *tsParser) nestedEnd(open int) int {
	j := p.match[open] + 1
	for p.isWord(j, "as") || p.isWord(j, "satisfies") {
		j = p.skip(j+1, false, true)
	}
	return j
}

func (p *tsParser) classify(s, e int) leafKind {
	if e-s == 1 {
		t := p.toks[s]
		switch {
		case js.IsNumeric(t.tt):
			if _, ok := plainInt(t.text(p.src), true); ok {
				return leafInt
			}
			return leafNumeric
		case js.IsIdentifier(t.tt):
			if t.text(p.src) == "undefined" {
				return leafForeign
			}
			return leafNumeric
		}
		return leafForeign
	}
	for i := s; i < e; i++ {
		switch tt := p.tt(i); tt {
		case js.StringToken, js.TemplateToken, js.TemplateStartToken, js.RegExpToken,
			js.FunctionToken, js.ClassToken, js.NewToken, js.TrueToken, js.FalseToken, js.NullToken, js.ArrowToken:
			return leafForeign
		case js.OpenBracketToken, js.OpenBraceToken:
			if i == s {
				return leafForeign
			}
		default:
			if p.text(i) == "undefined" {
				return leafForeign
			}
		}
	}
	return leafNumeric
}

// blocks names each candidate by its export, refuses a name declared twice,
// and records the budgets of the budget blocks.
func (p *tsParser) blocks(cands []*candidate, exports map[string][]int) error {
	names := map[string]int{} // a block's name: the offset of its name
	claim := func(name string, off int) error {
		if first, dup := names[name]; dup {
			return errAt(p.f.Path, p.ls, off, "%s is declared twice (first at line %d); keep one", name, p.ls.at(first))
		}
		if d, dup := p.f.reexported[name]; dup {
			return errAt(p.f.Path, p.ls, off, "%s is declared twice (first at line %d, %s); keep one", name, p.ls.at(d.off), d.what)
		}
		names[name] = off
		return nil
	}
	bind := func(local string, off int) error {
		if first, dup := names["\x00"+local]; dup {
			return errAt(p.f.Path, p.ls, off, "%s is declared twice (first at line %d): the module's value is the second; keep one", local, p.ls.at(first))
		}
		if d, dup := p.f.declared[local]; dup {
			return errAt(p.f.Path, p.ls, off, "%s is declared twice (first at line %d, %s); keep one", local, p.ls.at(d.off), d.what)
		}
		names["\x00"+local] = off
		return nil
	}
	for _, c := range cands {
		b := c.block
		if c.exported {
			if err := claim(b.name, b.nameOff); err != nil {
				return err
			}
			if b.name != defaultBlock {
				if err := bind(b.name, b.nameOff); err != nil {
					return err
				}
			}
			p.f.blocks = append(p.f.blocks, b)
			continue
		}
		if err := bind(b.local, b.nameOff); err != nil {
			return err
		}
		ex := exports[b.local]
		switch len(ex) {
		case 0:
			p.f.locals = append(p.f.locals, b)
			continue
		case 1:
			name := p.name(ex[0])
			if p.tt(ex[0]) == js.DefaultToken {
				name = defaultBlock
			}
			b.name = name
			if err := claim(b.name, b.nameOff); err != nil {
				return err
			}
			p.f.blocks = append(p.f.blocks, b)
		default:
			var as []string
			for _, k := range ex {
				as = append(as, p.name(k))
			}
			return errAt(p.f.Path, p.ls, p.toks[ex[1]].s, "%s is exported as %s: a budget block is exported once; keep one name", b.local, strings.Join(as, " and "))
		}
	}
	// A block exported under the name of another declaration: TypeScript
	// refuses the file.
	for _, b := range p.f.blocks {
		if d, dup := p.f.declared[b.name]; dup && b.local == "" {
			return errAt(p.f.Path, p.ls, b.nameOff, "%s is declared twice (first at line %d, %s); keep one", b.name, p.ls.at(d.off), d.what)
		}
	}
	if err := p.assigned(names); err != nil {
		return err
	}
	if k := p.extra; k >= 0 {
		return errAt(p.f.Path, p.ls, p.toks[k].s, "a comma too many: an object takes one comma between two members; remove this one")
	}
	if k := p.missing; k >= 0 {
		return errAt(p.f.Path, p.ls, p.toks[k].s, "a missing comma before %s: end the member above it with a comma", clipLit(p.text(k)))
	}
	for _, b := range p.f.blocks {
		if err := p.classifyBlock(b); err != nil {
			return err
		}
	}
	// Separator style, now that every block is known.
	fileSep := p.fileSep()
	for _, b := range p.f.blocks {
		if b.why == "" {
			if err := p.f.record(b.name, b.obj, fileSep, !addressable(b.name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// assigned refuses a block's name (a local binding, in bound with the
// offset of its declaration) that a top-level statement of the file
// assigns, updates or deletes after declaring it (`T = {...}`, `T.mcp = 2`, `T.a++`, `delete T.a`,
// `Object.assign(T, ...)`): the module's value is not the declaration's.
func (p *tsParser) assigned(bound map[string]int) error {
	braces := 0 // a statement in a block, a class, an enum or a function body is not the module's own
	for i := range p.toks {
		switch p.tt(i) {
		case js.OpenBraceToken, js.TemplateStartToken:
			braces++
		case js.CloseBraceToken, js.TemplateEndToken:
			braces--
		}
		if braces > 0 || !js.IsIdentifierName(p.tt(i)) {
			continue
		}
		first, ok := bound["\x00"+p.name(i)]
		if !ok || p.toks[i].s == first {
			continue
		}
		if prev := p.tt(i - 1); prev == js.DotToken || prev == js.OptChainToken {
			continue // a member of something else
		}
		j := i + 1
		for {
			switch p.tt(j) {
			case js.DotToken, js.OptChainToken:
				j += 2
				continue
			case js.OpenBracketToken:
				j = p.match[j] + 1
				continue
			case js.NotToken:
				if js.IsIdentifierName(p.tt(j+1)) || p.tt(j+1) == js.OpenParenToken {
					break // a new expression, not a non-null assertion
				}
				j++
				continue
			}
			break
		}
		write := false
		switch p.tt(j) {
		case js.EqToken, js.AddEqToken, js.SubEqToken, js.MulEqToken, js.ExpEqToken, js.DivEqToken, js.ModEqToken,
			js.LtLtEqToken, js.GtGtEqToken, js.GtGtGtEqToken, js.BitAndEqToken, js.BitOrEqToken, js.BitXorEqToken,
			js.AndEqToken, js.OrEqToken, js.NullishEqToken, js.IncrToken, js.DecrToken:
			write = !(p.tt(j) == js.IncrToken || p.tt(j) == js.DecrToken) || !p.toks[j].nl
		}
		switch prev := p.tt(i - 1); {
		case prev == js.IncrToken, prev == js.DecrToken, prev == js.DeleteToken:
			write = true
		case prev == js.OpenParenToken && p.tt(i-2) != js.OpenParenToken && js.IsIdentifierName(p.tt(i-2)) && p.tt(i-3) == js.DotToken && p.text(i-4) == "Object":
			write = true // Object.assign(T, ...), Object.defineProperty(T, ...)
		}
		if write {
			name := p.name(i)
			return errAt(p.f.Path, p.ls, p.toks[i].s, "%s is changed after its declaration (line %d): the module's value is not what the declaration says; keep one declaration and change nothing after it", name, p.ls.at(first))
		}
	}
	return nil
}

// classifyBlock sets why a block is not a budget block, or refuses one
// that holds budgets beside what cannot be read for sure.
func (p *tsParser) classifyBlock(b *tsBlock) error {
	if b.obj == nil {
		return nil
	}
	var ints, numeric, foreign int
	var odd, proto *member
	var walk func(o *object)
	walk = func(o *object) {
		for _, m := range o.members {
			if m.key == "__proto__" && m.odd == "" && proto == nil {
				proto = m
			}
			switch {
			case m.odd != "" && m.kind != leafForeign:
				if odd == nil {
					odd = m
				}
			case m.obj != nil:
				walk(m.obj)
			case m.kind == leafInt:
				ints++
			case m.kind == leafNumeric:
				numeric++
			default:
				foreign++
			}
		}
	}
	walk(b.obj)
	switch {
	case foreign > 0:
		b.why = "it holds values that are not numbers"
	case ints == 0 && odd != nil:
		b.why = "it holds " + odd.odd + " and no plain integer"
	case ints == 0 && numeric > 0:
		b.why = "none of its values is a plain integer literal"
	case odd != nil:
		return errAt(p.f.Path, p.ls, odd.keyOff, "%s: %s cannot be read for sure; write each budget of the block as `key: 23_324`", b.name, odd.odd)
	}
	if proto != nil && b.why == "" {
		return errAt(p.f.Path, p.ls, proto.keyOff, "%s: __proto__ is not a budget key: in JavaScript `__proto__: value` sets the object's prototype and adds no member; rename it", b.name)
	}
	return nil
}

// fileSep reports whether any number of 1,000 or more in the file's
// budget blocks is written with separators.
func (p *tsParser) fileSep() bool {
	sep := false
	for _, b := range p.f.blocks {
		if b.why == "" {
			big, bigSep := objStyle(p.src, b.obj, true)
			sep = sep || big > 0 && bigSep > 0
		}
	}
	return sep
}

// objStyle counts the plain literals of 1,000 or more of o (and, deep,
// of the objects in it) and how many of them are written with "_".
func objStyle(src []byte, o *object, deep bool) (big, bigSep int) {
	for _, m := range o.members {
		if m.obj != nil {
			if deep {
				b, s := objStyle(src, m.obj, true)
				big, bigSep = big+b, bigSep+s
			}
			continue
		}
		if m.kind != leafInt || m.odd != "" {
			continue
		}
		lit := string(src[m.s:m.e])
		if n, _ := plainInt(lit, true); n >= 1000 {
			big++
			if strings.Contains(lit, "_") {
				bigSep++
			}
		}
	}
	return
}

// sepOf says whether a number of 1,000 or more written into o takes "_"
// separators: as o's own literals of 1,000 or more are written, else as
// its block's, else as the file's.
func sepOf(src []byte, o *object, fileSep bool) bool {
	if big, bigSep := objStyle(src, o, false); big > 0 {
		return bigSep > 0
	}
	root := o
	for root.parent != nil {
		root = root.parent
	}
	if big, bigSep := objStyle(src, root, true); big > 0 {
		return bigSep > 0
	}
	return fileSep
}

// identName decodes the \u escapes an identifier may hold.
func identName(text string) string {
	if !strings.Contains(text, `\`) {
		return text
	}
	return unquoteTS(`"` + text + `"`)
}
