package budgets

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Format is a budget file's form.
type Format int

const (
	// JSON is the native form: nested objects with integer leaves.
	JSON Format = iota
	// TypeScript is the service's form: `export const NAME = {...} as const;` blocks.
	TypeScript
)

// String returns "json" or "typescript".
func (f Format) String() string {
	if f == TypeScript {
		return "typescript"
	}
	return "json"
}

// File is a parsed budget file: its budgets in file order, and the bytes
// they were read from.
type File struct {
	// Path is the file's path, as given to Load or Parse.
	Path string
	// Format is the file's form.
	Format Format

	data    []byte
	entries []entry
	index   map[string]int
	skipped []skippedBlock  // TypeScript blocks that are not budget blocks
	members map[string]bool // JSON: the top-level members, budgets or not
	server  string          // JSON: the ServerMember's string
}

// skippedBlock is an `export const` block that holds no budgets: its name,
// the line of its name, why, and its members when it was plain data.
type skippedBlock struct {
	name    string
	line    int
	why     string
	members []member
	ls      lines
}

// find returns the leaf member at the dotted key, if the block has one.
func (sb skippedBlock) find(key string) (member, bool) {
	ms := sb.members
	parts := strings.Split(key, ".")
	for i, k := range parts {
		var next *member
		for j := range ms {
			if ms[j].key == k {
				next = &ms[j]
			}
		}
		if next == nil {
			return member{}, false
		}
		if i == len(parts)-1 {
			return *next, !next.isObj
		}
		if !next.isObj {
			return member{}, false
		}
		ms = next.obj
	}
	return member{}, false
}

// entry is a budget and the place of its digits in the file.
type entry struct {
	Budget
	s, e int  // the number literal's offsets
	sep  bool // write the number with "_" separators when it is rewritten
}

// Load reads and parses the budget file at path.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: %w", path, pe.Err) // one place, named once
		}
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses data as the budget file at path. The form follows the
// extension (.ts, .mts and .cts are TypeScript, .json is JSON); for any other
// name, data whose first non-space byte is "{" is JSON and the rest
// TypeScript. Parse keeps data, which must not change afterwards.
func Parse(path string, data []byte) (*File, error) {
	f := &File{Path: path, data: data, index: map[string]int{}}
	var err error
	switch detect(path, data) {
	case TypeScript:
		f.Format = TypeScript
		err = f.parseTS()
	default:
		f.Format = JSON
		err = f.parseJSON()
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

func detect(path string, data []byte) Format {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return TypeScript
	case ".json":
		return JSON
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(t) > 0 && t[0] == '{' {
		return JSON
	}
	return TypeScript
}

// Bytes returns the bytes the file was parsed from: the expectOld of
// WriteAtomic.
func (f *File) Bytes() []byte { return f.data }

// Budgets returns every budget in file order.
func (f *File) Budgets() []Budget {
	out := make([]Budget, len(f.entries))
	for i, e := range f.entries {
		out[i] = e.Budget
	}
	return out
}

// Get returns the budget with the dotted name.
func (f *File) Get(name string) (Budget, bool) {
	i, ok := f.index[name]
	if !ok {
		return Budget{}, false
	}
	return f.entries[i].Budget, true
}

// Blocks returns the names of the top-level blocks that hold budgets, in
// file order.
func (f *File) Blocks() []string {
	var out []string
	for _, e := range f.entries {
		if b := e.Block(); len(out) == 0 || out[len(out)-1] != b {
			out = append(out, b)
		}
	}
	return out
}

// ErrNotBudgetBlock is what a Lookup error wraps when the name's block is
// declared but is not a budget block (its numbers are not plain integer
// literals, or it holds other values): a mistake in the file, not a budget
// that is merely missing.
var ErrNotBudgetBlock = errors.New("not a budget block")

// lookupError is a Lookup error: its one-line text, and whether it wraps
// ErrNotBudgetBlock.
type lookupError struct {
	msg      string
	notBlock bool
}

func (e *lookupError) Error() string { return e.msg }

func (e *lookupError) Unwrap() error {
	if e.notBlock {
		return ErrNotBudgetBlock
	}
	return nil
}

// Lookup returns the budget with the dotted name, or an error that says
// what the file does declare. The error wraps ErrNotBudgetBlock when the
// name's block is declared but is not a budget block.
func (f *File) Lookup(name string) (Budget, error) {
	if b, ok := f.Get(name); ok {
		return b, nil
	}
	missing := func(format string, args ...any) (Budget, error) {
		return Budget{}, &lookupError{msg: fmt.Sprintf(format, args...)}
	}
	notBlock := func(format string, args ...any) (Budget, error) {
		return Budget{}, &lookupError{msg: fmt.Sprintf(format, args...), notBlock: true}
	}
	block, key, _ := strings.Cut(name, ".")
	for _, s := range f.skipped {
		if s.name != block {
			continue
		}
		if m, ok := s.find(key); ok && m.kind != leafInt {
			lit := string(f.data[m.s:m.e])
			if m.kind == leafNumeric {
				return notBlock("%s:%d: no budget %s: %s is not a plain integer literal, so block %s is not a budget block; write the budget as digits (23_324)", f.Path, s.ls.at(m.s), name, lit, block)
			}
			return notBlock("%s:%d: no budget %s: %s is not a number, so block %s is not a budget block; write the budget as digits (23_324)", f.Path, s.ls.at(m.s), name, clipLit(lit), block)
		}
		return notBlock("%s:%d: no budget %s: block %s is not a budget block (%s); a budget block holds plain integer literals (23_324) and nothing else", f.Path, s.line, name, block, s.why)
	}
	var keys []string
	for _, e := range f.entries {
		if e.Block() == block {
			keys = append(keys, e.Key())
		}
	}
	if len(keys) > 0 {
		return missing("%s: no budget %s: block %s holds %s", f.Path, name, block, strings.Join(keys, ", "))
	}
	blocks := f.Blocks()
	if len(blocks) == 0 {
		return missing("%s: no budget %s: the file declares no budgets", f.Path, name)
	}
	return missing("%s: no budget %s: the file declares %s", f.Path, name, strings.Join(blocks, ", "))
}

func (f *File) add(ls lines, name string, keyOff, s, e int, value int64, sep bool) error {
	if _, dup := f.index[name]; dup {
		return errAt(f.Path, ls, keyOff, "%s is declared twice; keep one", name)
	}
	f.index[name] = len(f.entries)
	f.entries = append(f.entries, entry{Budget{Name: name, Value: value, File: f.Path, Line: ls.at(keyOff)}, s, e, sep})
	return nil
}

// plainInt reads a plain non-negative integer literal: digits with single
// "_" separators between them, no leading zero. ok is false otherwise.
func plainInt(lit string, separators bool) (n int64, ok bool) {
	if lit == "" || lit[0] == '_' || lit[len(lit)-1] == '_' || strings.Contains(lit, "__") {
		return 0, false
	}
	if !separators && strings.Contains(lit, "_") {
		return 0, false
	}
	digits := strings.ReplaceAll(lit, "_", "")
	for i := 0; i < len(digits); i++ {
		if !isDigit(digits[i]) {
			return 0, false
		}
	}
	if len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || n > maxSafe {
		return 0, false
	}
	return n, true
}

// maxSafe is the largest integer a JavaScript number holds exactly.
const maxSafe = 1<<53 - 1

// ---- TypeScript ----

type leafKind uint8

const (
	leafInt     leafKind = iota // a plain integer literal
	leafNumeric                 // a number that is not a plain literal: 1e3, 0x10, -1, A + 1, REF
	leafForeign                 // anything else: a string, an array, a function
)

type member struct {
	key    string
	keyOff int
	obj    []member // a nested object, when isObj
	isObj  bool
	kind   leafKind
	s, e   int // the value's offsets, for a leaf
}

type tsParser struct {
	f    *File
	src  []byte
	toks []token
	ls   lines
}

func (f *File) parseTS() error {
	ls := newLines(f.data)
	toks, err := lexTS(f.data)
	if err != nil {
		var le *lexError
		if errors.As(err, &le) {
			return errAt(f.Path, ls, le.off, "%s; budgets are read from TypeScript `export const NAME = { key: 123 } as const;` blocks", le.msg)
		}
		return err
	}
	p := &tsParser{f: f, src: f.data, toks: toks, ls: ls}
	return p.file()
}

func (p *tsParser) is(i int, kind tkind, text string) bool {
	return i < len(p.toks) && p.toks[i].kind == kind && p.toks[i].text(p.src) == text
}

func (p *tsParser) file() error {
	depth := 0
	blocks := map[string]int{} // name: line
	for i := 0; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.kind == tPunct {
			switch p.src[t.s] {
			case '{', '(', '[':
				depth++
			case '}', ')', ']':
				depth--
			}
			continue
		}
		if depth != 0 || !p.is(i, tIdent, "export") || !p.is(i+1, tIdent, "const") || i+2 >= len(p.toks) || p.toks[i+2].kind != tIdent {
			continue
		}
		name := p.toks[i+2].text(p.src)
		j := i + 3
		if p.is(j, tPunct, ":") { // a type annotation: step to its "="
			d := 0
			for j++; j < len(p.toks); j++ {
				c := p.src[p.toks[j].s]
				if p.toks[j].kind != tPunct {
					continue
				}
				if c == '{' || c == '(' || c == '[' || c == '<' {
					d++
				} else if c == '}' || c == ')' || c == ']' || c == '>' {
					d--
				} else if d == 0 && (c == '=' || c == ';') {
					break
				}
			}
		}
		if !p.is(j, tPunct, "=") || !p.is(j+1, tPunct, "{") {
			continue
		}
		members, end, ok := p.object(j + 1)
		if !ok {
			why := "it is not plain data: a method, a spread, a computed or shorthand key"
			if p.skipBraces(j+1) >= len(p.toks) {
				why = "its { is not closed"
			}
			p.f.skipped = append(p.f.skipped, skippedBlock{name: name, line: p.ls.at(p.toks[i+2].s), why: why, ls: p.ls})
			// Resume after the block's braces; the depth count resumes at 0.
			i = p.skipBraces(j+1) - 1
			continue
		}
		held := len(p.f.entries)
		if err := p.block(name, p.ls.at(p.toks[i+2].s), members); err != nil {
			return err
		}
		if len(p.f.entries) > held { // a budget block: TypeScript refuses a second
			if first, dup := blocks[name]; dup {
				return errAt(p.f.Path, p.ls, p.toks[i+2].s, "export const %s is declared twice (first at line %d); keep one", name, first)
			}
			blocks[name] = p.ls.at(p.toks[i+2].s)
		}
		i = end - 1
	}
	return nil
}

// skipBraces returns the index after the brace that closes toks[i].
func (p *tsParser) skipBraces(i int) int {
	d := 0
	for ; i < len(p.toks); i++ {
		if p.toks[i].kind != tPunct {
			continue
		}
		switch p.src[p.toks[i].s] {
		case '{', '(', '[':
			d++
		case '}', ')', ']':
			d--
			if d == 0 {
				return i + 1
			}
		}
	}
	return len(p.toks)
}

// object parses the object literal whose "{" is toks[i]. It returns the
// members, the index after the closing "}", and ok false when the object is
// not plain data (methods, spreads, computed keys, shorthands).
func (p *tsParser) object(i int) (members []member, end int, ok bool) {
	i++
	for {
		if i >= len(p.toks) {
			return nil, i, false
		}
		if p.is(i, tPunct, "}") {
			return members, i + 1, true
		}
		kt := p.toks[i]
		var key string
		switch kt.kind {
		case tIdent:
			key = kt.text(p.src)
		case tNumber:
			key = numericKey(kt.text(p.src))
		case tString:
			key = unquoteTS(kt.text(p.src))
		default:
			return nil, i, false
		}
		if !p.is(i+1, tPunct, ":") {
			return nil, i, false
		}
		i += 2
		// The value: tokens up to a "," or "}" at this level.
		vs, d := i, 0
		for ; i < len(p.toks); i++ {
			t := p.toks[i]
			if t.kind != tPunct {
				continue
			}
			c := p.src[t.s]
			if d == 0 && (c == ',' || c == '}') {
				break
			}
			if c == '{' || c == '(' || c == '[' {
				d++
			} else if c == '}' || c == ')' || c == ']' {
				d--
			}
		}
		if i >= len(p.toks) || i == vs {
			return nil, i, false
		}
		m := member{key: key, keyOff: kt.s}
		if p.is(vs, tPunct, "{") && p.skipBraces(vs) == i {
			obj, _, ok := p.object(vs)
			if !ok {
				return nil, i, false
			}
			m.obj, m.isObj = obj, true
		} else {
			m.kind = p.classify(vs, i)
			m.s, m.e = p.toks[vs].s, p.toks[i-1].e
		}
		members = append(members, m)
		if p.is(i, tPunct, ",") {
			i++
		}
	}
}

func (p *tsParser) classify(s, e int) leafKind {
	if e-s == 1 {
		t := p.toks[s]
		switch t.kind {
		case tNumber:
			if _, ok := plainInt(t.text(p.src), true); ok {
				return leafInt
			}
			return leafNumeric
		case tIdent:
			switch t.text(p.src) {
			case "true", "false", "null", "undefined":
				return leafForeign
			}
			return leafNumeric
		}
		return leafForeign
	}
	for i := s; i < e; i++ {
		t := p.toks[i]
		switch t.kind {
		case tString, tTemplate, tRegex:
			return leafForeign
		case tIdent:
			switch t.text(p.src) {
			case "function", "class", "new", "true", "false", "null", "undefined":
				return leafForeign
			}
		case tPunct:
			if c := t.text(p.src); c == "=>" || c == "[" && i == s {
				return leafForeign
			}
		}
	}
	return leafNumeric
}

func count(ms []member) (ints, foreign int) {
	for _, m := range ms {
		if m.isObj {
			i, f := count(m.obj)
			ints, foreign = ints+i, foreign+f
		} else if m.kind == leafInt {
			ints++
		} else if m.kind == leafForeign {
			foreign++
		}
	}
	return
}

// block records the budgets of one `export const NAME = {...}` block. A
// block is a budget block when it holds at least one plain integer and
// nothing but numbers; other blocks are skipped. In a budget block, a
// number that is not a plain literal is an error.
func (p *tsParser) block(name string, line int, ms []member) error {
	ints, foreign := count(ms)
	if ints == 0 || foreign > 0 {
		why := "none of its values is a plain integer literal"
		if foreign > 0 {
			why = "it holds values that are not numbers"
		}
		p.f.skipped = append(p.f.skipped, skippedBlock{name: name, line: line, why: why, members: ms, ls: p.ls})
		return nil
	}
	// Separator style: a literal keeps its own; one below 1,000 follows the
	// block's literals of 1,000 or more, or, when it has none, the file's.
	big, bigSep := p.style(ms)
	sep := bigSep > 0
	if big == 0 {
		sep = p.fileSep()
	}
	return p.record(name, ms, sep)
}

func (p *tsParser) style(ms []member) (big, bigSep int) {
	for _, m := range ms {
		if m.isObj {
			b, s := p.style(m.obj)
			big, bigSep = big+b, bigSep+s
			continue
		}
		if m.kind != leafInt {
			continue
		}
		lit := string(p.src[m.s:m.e])
		if n, _ := plainInt(lit, true); n >= 1000 {
			big++
			if strings.Contains(lit, "_") {
				bigSep++
			}
		}
	}
	return
}

// fileSep reports whether any number of 1,000 or more in the file's
// budget-like literals is written with separators.
func (p *tsParser) fileSep() bool {
	for _, t := range p.toks {
		if t.kind != tNumber {
			continue
		}
		lit := t.text(p.src)
		if n, ok := plainInt(lit, true); ok && n >= 1000 && strings.Contains(lit, "_") {
			return true
		}
	}
	return false
}

func (p *tsParser) record(prefix string, ms []member, blockSep bool) error {
	seen := map[string]int{}
	for _, m := range ms {
		name := prefix + "." + m.key
		if first, dup := seen[m.key]; dup {
			// TypeScript refuses an object literal with one name twice.
			return errAt(p.f.Path, p.ls, m.keyOff, "%s is declared twice (first at line %d); keep one", name, p.ls.at(first))
		}
		seen[m.key] = m.keyOff
		if m.isObj {
			if err := p.record(name, m.obj, blockSep); err != nil {
				return err
			}
			continue
		}
		lit := string(p.src[m.s:m.e])
		n, ok := plainInt(lit, true)
		if !ok {
			return errAt(p.f.Path, p.ls, m.s, "%s = %s is not a plain integer literal; write the budget as digits (23_324), or move it out of the block", name, lit)
		}
		sep := strings.Contains(lit, "_") || n < 1000 && blockSep
		if err := p.f.add(p.ls, name, m.keyOff, m.s, m.e, n, sep); err != nil {
			return err
		}
	}
	return nil
}

// sortedEntries returns the entry indexes by offset.
func (f *File) sortedEntries() []int {
	idx := make([]int, len(f.entries))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return f.entries[idx[a]].s < f.entries[idx[b]].s })
	return idx
}

// clipLit shortens a value's text for a message.
func clipLit(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}
