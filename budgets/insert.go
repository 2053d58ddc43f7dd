package budgets

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// AddError is the error of Insert for a budget it cannot add: the name,
// and the reason in a line that names the file.
type AddError struct {
	// Name is the budget's dotted name.
	Name string
	msg  string
}

func (e *AddError) Error() string { return e.msg }

func (f *File) cannotAdd(name, format string, args ...any) error {
	return &AddError{Name: name, msg: fmt.Sprintf("%s: cannot add %s: %s", f.Path, name, fmt.Sprintf(format, args...))}
}

// ntree is the budgets to add under one object: leaves and new objects.
type ntree struct {
	value int64
	leaf  bool
	kids  map[string]*ntree
}

func (t *ntree) put(path []string, v int64) {
	for _, k := range path {
		if t.kids == nil {
			t.kids = map[string]*ntree{}
		}
		if t.kids[k] == nil {
			t.kids[k] = &ntree{}
		}
		t = t.kids[k]
	}
	t.leaf, t.value = true, v
}

func (t *ntree) keys() []string {
	ks := make([]string, 0, len(t.kids))
	for k := range t.kids {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Insert returns the file's bytes with each named budget the file lacks
// added at its value, at any depth: a key into its object, an object the
// path lacks (PROPOSAL_ROUTINE.connector.entry adds connector: { entry }),
// a block (TypeScript: a new `export const BLOCK = {...}` at the end of the
// file; JSON: a last member of the top-level object). Every other byte
// stays, and the additions follow the file: its line ends (LF, CRLF or CR),
// its indentation, its keys' quotes, a trailing comma after the last member
// or none, one-line or multi-line nested objects, `as const` and `_`
// separators. Keys are added in sorted order, after the object's last
// member. Names the file holds are left to Update. A name the file cannot
// take (a key under a budget, a block that is not a budget block, a name a
// key with a dot spells) is an *AddError, and nothing is returned. The
// result is read back and must hold every budget asked and every budget
// the file held, at their values.
func (f *File) Insert(values map[string]int64) ([]byte, error) {
	var names []string
	for name := range values {
		if _, ok := f.index[name]; !ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return f.data, nil
	}
	sort.Strings(names)
	pending := map[*object]*ntree{}
	newBlocks := map[string]*ntree{}
	for _, name := range names {
		v := values[name]
		if v < 0 || f.Format == TypeScript && v > maxSafe {
			return nil, f.cannotAdd(name, "%d is not a budget: a budget is a non-negative integer", v)
		}
		parts := strings.Split(name, ".")
		for _, p := range parts {
			if p == "" {
				return nil, f.cannotAdd(name, "a budget is named BLOCK.KEY, each part not empty")
			}
		}
		if _, hid := f.hidden[name]; hid {
			_, err := f.Lookup(name)
			return nil, f.cannotAdd(name, "%v", strings.TrimPrefix(err.Error(), f.Path+":"))
		}
		var node *object
		rest := parts
		switch f.Format {
		case TypeScript:
			if len(parts) < 2 {
				return nil, f.cannotAdd(name, "a budget is named BLOCK.KEY")
			}
			b, err := f.targetBlock(name, parts[0])
			if err != nil {
				return nil, err
			}
			if b == nil {
				if newBlocks[parts[0]] == nil {
					newBlocks[parts[0]] = &ntree{}
				}
				newBlocks[parts[0]].put(parts[1:], v)
				continue
			}
			node, rest = b.obj, parts[1:]
		default:
			if strings.HasPrefix(parts[0], "$") {
				return nil, f.cannotAdd(name, "a top-level key starting with $ is a comment, not a budget")
			}
			node = f.root
		}
		for k, p := range rest {
			m := node.find(p)
			if m == nil {
				if pending[node] == nil {
					pending[node] = &ntree{}
				}
				pending[node].put(rest[k:], v)
				break
			}
			done := strings.Join(parts[:len(parts)-len(rest)+k+1], ".")
			switch {
			case m.obj == nil && k == len(rest)-1:
				return nil, f.cannotAdd(name, "line %d holds it as %s, which is not a budget", f.lines.at(m.keyOff), clipLit(string(f.data[m.s:m.e])))
			case m.obj == nil:
				return nil, f.cannotAdd(name, "%s (line %d) is a value, not an object to hold %s", done, f.lines.at(m.keyOff), strings.Join(rest[k+1:], "."))
			case k == len(rest)-1:
				return nil, f.cannotAdd(name, "%s (line %d) is an object of budgets, not a budget", done, f.lines.at(m.keyOff))
			}
			node = m.obj
		}
	}
	st := f.style()
	var ins []textAt
	for o, t := range pending {
		ins = append(ins, st.into(o, t)...)
	}
	// From the end, so each offset holds; ties in a fixed order.
	sort.Slice(ins, func(a, b int) bool {
		if ins[a].at != ins[b].at {
			return ins[a].at > ins[b].at
		}
		return ins[a].text < ins[b].text
	})
	out := append([]byte{}, f.data...)
	for _, in := range ins {
		out = append(out[:in.at:in.at], append([]byte(in.text), out[in.at:]...)...)
	}
	if len(newBlocks) > 0 {
		out = st.appendBlocks(out, newBlocks)
	}
	if err := f.verify(out, values); err != nil {
		return nil, err
	}
	return out, nil
}

// targetBlock returns the budget block a name is added to, nil when a new
// block is to be written, or the reason the block cannot take it.
func (f *File) targetBlock(name, block string) (*tsBlock, error) {
	for _, b := range f.blocks {
		if b.name != block {
			continue
		}
		if b.why != "" || b.obj == nil {
			return nil, f.cannotAdd(name, "block %s (line %d) is not a budget block (%s)", block, f.lines.at(b.nameOff), b.why)
		}
		return b, nil
	}
	for _, b := range f.locals {
		if b.name == block {
			return nil, f.cannotAdd(name, "%s is declared at line %d and not exported; export it (export const %s = {...})", block, f.lines.at(b.nameOff), block)
		}
	}
	if d, ok := f.reexported[block]; ok {
		return nil, f.cannotAdd(name, "%s is %s (line %d); add it in the file that declares it", block, d.what, f.lines.at(d.off))
	}
	if d, ok := f.declared[block]; ok {
		return nil, f.cannotAdd(name, "%s is already declared at line %d (%s)", block, f.lines.at(d.off), d.what)
	}
	if block == defaultBlock {
		return nil, f.cannotAdd(name, "the block named default is `export default {...}`; add it by hand")
	}
	if !isIdent(block) {
		return nil, f.cannotAdd(name, "a new block's name is an identifier (FIRST_TASK_TOKENS), not %q", block)
	}
	return nil, nil
}

// verify reads out back: every budget asked holds its value, every budget
// the file held holds its own.
func (f *File) verify(out []byte, values map[string]int64) error {
	var asked []string
	for name := range values {
		if _, ok := f.index[name]; !ok {
			asked = append(asked, name)
		}
	}
	sort.Strings(asked)
	g, err := Parse(f.Path, out)
	if err != nil {
		return fmt.Errorf("%s: adding %s would break the file (%v): add them by hand", f.Path, strings.Join(asked, ", "), err)
	}
	for _, name := range asked {
		if b, ok := g.Get(name); !ok || b.Value != values[name] {
			return fmt.Errorf("%s: adding %s would not read back as %d: add it by hand", f.Path, name, values[name])
		}
	}
	for _, e := range f.entries {
		if b, ok := g.Get(e.Name); !ok || b.Value != e.Value {
			return fmt.Errorf("%s: adding %s would change %s: add them by hand", f.Path, strings.Join(asked, ", "), e.Name)
		}
	}
	return nil
}

// fileStyle is how the file writes what Insert adds.
type fileStyle struct {
	f        *File
	eol      string
	unit     string
	quote    byte // the quote of keys, 0: bare where an identifier
	fileSep  bool
	trailing bool // a multi-line TypeScript object ends its last member with ","
	oneLine  bool // nested objects are written on one line
	asConst  bool
	semi     bool
	colon    string
}

// isIdent reports whether s is an identifier of ASCII letters, digits,
// "_" and "$", not starting with a digit.
func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', c == '_', c == '$':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// style reads the file's habits, with defaults for a new file.
func (f *File) style() *fileStyle {
	st := &fileStyle{f: f, eol: lineEnd(f.data), unit: "  ", trailing: f.Format == TypeScript, asConst: true, semi: true, colon: ": "}
	var objs []*object // the budget objects, top first
	if f.Format == JSON {
		objs = append(objs, f.root)
		st.quote = '"'
	} else {
		for _, b := range f.blocks {
			if b.why == "" && b.obj != nil {
				objs = append(objs, b.obj)
			}
		}
		if len(f.blocks) > 0 {
			last := f.blocks[len(f.blocks)-1]
			st.asConst, st.semi = last.asConst, last.semi
		}
	}
	var all []*object
	var walk func(o *object, depth int)
	multiSeen, multiComma, quoted, bare, nested, nestedOne := 0, 0, map[byte]int{}, 0, 0, 0
	unitFound := false
	walk = func(o *object, depth int) {
		all = append(all, o)
		if f.multi(o) {
			multiSeen++
			if o.comma >= 0 {
				multiComma++
			}
			if !unitFound && len(o.members) > 0 {
				if u, ok := f.unitOf(o); ok {
					st.unit, unitFound = u, true
				}
			}
		}
		for _, m := range o.members {
			if m.odd != "" {
				continue
			}
			if m.quote != 0 {
				quoted[m.quote]++
			} else {
				bare++
			}
			if m.obj != nil {
				if depth > 0 || f.Format == TypeScript {
					nested++
					if !f.multi(m.obj) {
						nestedOne++
					}
				}
				walk(m.obj, depth+1)
			}
		}
	}
	for _, o := range objs {
		walk(o, 0)
	}
	if f.Format == TypeScript {
		st.fileSep = false
		for _, o := range objs {
			if big, bigSep := objStyle(f.data, o, true); big > 0 && bigSep > 0 {
				st.fileSep = true
			}
		}
		if multiSeen > 0 {
			st.trailing = multiComma*2 >= multiSeen
		}
		if bare == 0 && len(quoted) > 0 {
			st.quote = '"'
			if quoted['\''] > quoted['"'] {
				st.quote = '\''
			}
		}
	}
	st.oneLine = nested > 0 && nestedOne*2 >= nested
	if f.Format == JSON && nested == 0 {
		st.oneLine = false
	}
	// the text between a key and its value: ": " or ":"
	for _, o := range all {
		for _, m := range o.members {
			if m.odd == "" && m.keyEnd > 0 && m.s > m.keyEnd {
				if c := string(f.data[m.keyEnd:m.s]); strings.Contains(c, ":") && !strings.ContainsAny(c, "\r\n") && len(c) <= 4 {
					st.colon = c
				}
			}
		}
	}
	return st
}

// lineEnd returns the file's line end: the most used of LF, CRLF and CR,
// LF for a file without one.
func lineEnd(data []byte) string {
	crlf := bytes.Count(data, []byte("\r\n"))
	lf := bytes.Count(data, []byte("\n")) - crlf
	cr := bytes.Count(data, []byte("\r")) - crlf
	switch {
	case crlf > lf && crlf >= cr:
		return "\r\n"
	case cr > lf && cr > crlf:
		return "\r"
	}
	return "\n"
}

// multi reports whether the object is written over several lines.
func (f *File) multi(o *object) bool { return f.lines.at(o.open) != f.lines.at(o.close) }

// lineStart returns the offset where the line holding off starts.
func (f *File) lineStart(off int) int {
	l := f.lines.at(off)
	if l == 1 {
		return 0
	}
	return f.lines[l-2]
}

// indentAt returns the blanks that start the line holding off.
func (f *File) indentAt(off int) string {
	s := f.lineStart(off)
	e := s
	for e < len(f.data) && (f.data[e] == ' ' || f.data[e] == '\t') {
		e++
	}
	return string(f.data[s:e])
}

// firstOnLine reports whether nothing but blanks comes before off on its line.
func (f *File) firstOnLine(off int) bool {
	return len(strings.Trim(string(f.data[f.lineStart(off):off]), " \t")) == 0
}

// unitOf returns one level of indentation as the multi-line object o
// shows it: its members' indentation less its first line's.
func (f *File) unitOf(o *object) (string, bool) {
	for _, m := range o.members {
		if m.odd == "" && f.firstOnLine(m.keyOff) {
			outer, inner := f.indentAt(o.open), f.indentAt(m.keyOff)
			if strings.HasPrefix(inner, outer) && len(inner) > len(outer) {
				return inner[len(outer):], true
			}
		}
	}
	return "", false
}

// memberIndent returns the indentation of a new member of the multi-line o.
func (st *fileStyle) memberIndent(o *object) string {
	f := st.f
	for i := len(o.members) - 1; i >= 0; i-- {
		if m := o.members[i]; f.firstOnLine(m.keyOff) {
			return f.indentAt(m.keyOff)
		}
	}
	return f.indentAt(o.open) + st.unit
}

func (st *fileStyle) keyText(key string, quote byte) string {
	if st.f.Format == TypeScript && quote == 0 && isIdent(key) {
		return key
	}
	if quote == 0 {
		quote = '"'
	}
	return quoteJS(key, quote)
}

// quoteOf returns the quote of o's keys when every one is quoted alike,
// else the file's.
func (st *fileStyle) quoteOf(o *object) byte {
	if st.f.Format == JSON {
		return '"'
	}
	var q byte
	n := 0
	for _, m := range o.members {
		if m.odd != "" {
			continue
		}
		if m.quote == 0 || q != 0 && m.quote != q {
			return 0
		}
		q = m.quote
		n++
	}
	if n == 0 {
		return st.quote
	}
	return q
}

// quoteJS writes s as a JavaScript (and JSON, with '"') string literal.
func quoteJS(s string, q byte) string {
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' || r == utf8.RuneError:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

func (st *fileStyle) number(n int64, sep bool) string {
	return formatInt(n, st.f.Format == TypeScript && sep)
}

// render writes the object t as a new nested value: on one line, or over
// lines at indent ind (the line of its key).
func (st *fileStyle) render(t *ntree, oneLine bool, ind string, quote byte, sep bool, inner string) string {
	parts := st.memberTexts(t, oneLine, ind+st.unit, quote, sep, inner)
	if oneLine {
		return "{" + inner + strings.Join(parts, ", ") + inner + "}"
	}
	var b strings.Builder
	b.WriteString("{")
	for i, p := range parts {
		b.WriteString(st.eol + ind + st.unit + p)
		if i < len(parts)-1 || st.trailing && st.f.Format == TypeScript {
			b.WriteString(",")
		}
	}
	b.WriteString(st.eol + ind + "}")
	return b.String()
}

// memberTexts writes each member of t as "key": value, its objects
// rendered (see render) at indent ind, the line of their keys.
func (st *fileStyle) memberTexts(t *ntree, oneLine bool, ind string, quote byte, sep bool, inner string) []string {
	var parts []string
	for _, k := range t.keys() {
		kid := t.kids[k]
		v := ""
		if kid.leaf {
			v = st.number(kid.value, sep)
		} else {
			v = st.render(kid, oneLine, ind, quote, sep, inner)
		}
		parts = append(parts, st.keyText(k, quote)+st.colon+v)
	}
	return parts
}

// innerSpace returns the blank inside a one-line object's braces, as o's
// one-line nested objects (or the file's) write it.
func (st *fileStyle) innerSpace(o *object) string {
	f := st.f
	for _, m := range o.members {
		if m.obj != nil && !f.multi(m.obj) && len(m.obj.members) > 0 {
			if f.data[m.obj.open+1] == ' ' {
				return " "
			}
			return ""
		}
	}
	if f.Format == JSON {
		return ""
	}
	return " "
}

// commaSpace returns the blank after a comma between the members of a
// one-line object: as o writes it, else as the file's other one-line
// objects of two members or more do, else one space.
func (st *fileStyle) commaSpace(o *object) string {
	f := st.f
	look := func(o *object) (string, bool) {
		if f.multi(o) || len(o.members) < 2 {
			return "", false
		}
		a := o.members[0]
		t := f.data[a.end():o.members[1].keyOff]
		if bytes.HasSuffix(t, []byte(" ")) {
			return " ", true
		}
		return "", true
	}
	if sp, ok := look(o); ok {
		return sp
	}
	var found *string
	var walk func(x *object)
	walk = func(x *object) {
		if found != nil || x == nil {
			return
		}
		if sp, ok := look(x); ok {
			found = &sp
			return
		}
		for _, m := range x.members {
			walk(m.obj)
		}
	}
	if f.Format == JSON {
		walk(f.root)
	}
	for _, b := range f.blocks {
		walk(b.obj)
	}
	if found != nil {
		return *found
	}
	return " "
}

type textAt struct {
	at   int
	text string
}

// into returns the insertions that add t's members to the object o.
func (st *fileStyle) into(o *object, t *ntree) []textAt {
	f := st.f
	quote := st.quoteOf(o)
	sep := f.Format == TypeScript && sepOf(f.data, o, st.fileSep)
	multi := f.multi(o) || len(o.members) == 0 && o.parent == nil
	// A new nested object is written as o's nested objects are, else as o is.
	oneLine := !multi
	if o.parent == nil && f.Format == TypeScript || o.parent != nil {
		oneLine = !multi || st.oneLine
	}
	if f.Format == JSON && o.parent == nil {
		oneLine = !multi
	}
	for _, m := range o.members {
		if m.obj != nil && len(m.obj.members) > 0 {
			oneLine = !f.multi(m.obj)
		}
	}
	inner := st.innerSpace(o)
	ind := st.memberIndent(o)
	parts := st.memberTexts(t, oneLine, ind, quote, sep, inner)
	if !multi {
		space := st.commaSpace(o)
		switch {
		case len(o.members) == 0:
			return []textAt{{o.open + 1, inner + strings.Join(parts, ","+space) + inner}}
		case o.comma >= 0:
			return []textAt{{o.comma + 1, space + strings.Join(parts, ","+space) + ","}}
		default:
			return []textAt{{o.members[len(o.members)-1].end(), "," + space + strings.Join(parts, ","+space)}}
		}
	}
	trailing := st.trailing && f.Format == TypeScript
	if len(o.members) > 0 {
		trailing = o.comma >= 0
	}
	var b strings.Builder
	for i, p := range parts {
		b.WriteString(st.eol + ind + p)
		if i < len(parts)-1 || trailing {
			b.WriteString(",")
		}
	}
	if len(o.members) == 0 {
		text := b.String()
		if f.lines.at(o.open) == f.lines.at(o.close) { // {} becomes {\n  k: 1,\n}
			text += st.eol + f.indentAt(o.open)
		}
		return []textAt{{o.open + 1, text}}
	}
	last := o.members[len(o.members)-1]
	if o.comma >= 0 {
		return []textAt{{f.restOfLine(o.comma + 1), b.String()}}
	}
	at := f.restOfLine(last.end())
	if at == last.end() {
		return []textAt{{at, "," + b.String()}}
	}
	return []textAt{{last.end(), ","}, {at, b.String()}}
}

// restOfLine returns the end of off's line (before its line end) when
// nothing but blanks and comments that close on the line follow off, else
// off.
func (f *File) restOfLine(off int) int {
	i := off
	for {
		for i < len(f.data) && (f.data[i] == ' ' || f.data[i] == '\t') {
			i++
		}
		if i >= len(f.data) || f.data[i] == '\n' || f.data[i] == '\r' || bytes.HasPrefix(f.data[i:], []byte("\u2028")) || bytes.HasPrefix(f.data[i:], []byte("\u2029")) {
			return i
		}
		if f.Format != TypeScript || f.data[i] != '/' || i+1 >= len(f.data) {
			return off
		}
		switch f.data[i+1] {
		case '/':
			for i < len(f.data) && f.data[i] != '\n' && f.data[i] != '\r' && !bytes.HasPrefix(f.data[i:], []byte("\u2028")) && !bytes.HasPrefix(f.data[i:], []byte("\u2029")) {
				i++
			}
			return i
		case '*':
			end := bytes.Index(f.data[i+2:], []byte("*/"))
			if end < 0 || f.lines.at(i+2+end) != f.lines.at(i) {
				return off
			}
			i += 2 + end + 2
		default:
			return off
		}
	}
}

// appendBlocks adds new TypeScript blocks at the end of the file.
func (st *fileStyle) appendBlocks(out []byte, blocks map[string]*ntree) []byte {
	names := make([]string, 0, len(blocks))
	for n := range blocks {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		suffix := ""
		if st.asConst {
			suffix = " as const"
		}
		if st.semi {
			suffix += ";"
		}
		// The block is written over lines; its nested objects follow the file.
		b.WriteString(st.eol + "export const " + name + " = {")
		t := blocks[name]
		keys := t.keys()
		for i, k := range keys {
			kid := t.kids[k]
			v := ""
			if kid.leaf {
				v = st.number(kid.value, st.fileSep)
			} else {
				v = st.render(kid, st.oneLine, st.unit, st.quote, st.fileSep, " ")
			}
			b.WriteString(st.eol + st.unit + st.keyText(k, st.quote) + st.colon + v)
			if i < len(keys)-1 || st.trailing {
				b.WriteString(",")
			}
		}
		b.WriteString(st.eol + "}" + suffix + st.eol)
	}
	text := b.String()
	if len(bytes.TrimSpace(out)) == 0 {
		return append(out, strings.TrimPrefix(text, st.eol)...)
	}
	if !bytes.HasSuffix(out, []byte("\n")) && !bytes.HasSuffix(out, []byte("\r")) {
		out = append(out, st.eol...)
	}
	return append(out, text...)
}

// New returns the bytes of a new budget file holding values, in the form
// its path's extension names (.ts, .mts, .cts: TypeScript; else JSON). A
// server that is not "" marks the file as that server's (ServerMember).
func New(path, server string, values map[string]int64) ([]byte, error) {
	seed := []byte("{}\n")
	if server != "" {
		seed = []byte("{\n  " + quoteJS(ServerMember, '"') + ": " + quoteJS(server, '"') + "\n}\n")
	}
	if isTSPath(path) {
		seed = nil
		if server != "" {
			seed = []byte("// " + ServerMember + ": " + server + "\n")
		}
	}
	f, err := Parse(path, seed)
	if err != nil {
		return nil, err
	}
	return f.Insert(values)
}
