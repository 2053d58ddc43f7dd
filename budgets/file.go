package budgets

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/infile"
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
	lines   lines
	entries []entry
	index   map[string]int
	hidden  map[string]int // names of budgets no dotted name can address (a key with a dot): the key's offset
	server  string         // the ServerMember's value
	// serverOff is where the mark is, -1 when there is none
	serverOff int

	// JSON
	root *object

	// TypeScript
	blocks     []*tsBlock      // exported objects, budget blocks or not
	locals     []*tsBlock      // objects declared and not exported
	declared   map[string]decl // other top-level names
	reexported map[string]decl // names exported from another module
	stars      []string        // modules the file re-exports whole
}

// entry is a budget and the place of its digits in the file.
type entry struct {
	Budget
	s, e int  // the number literal's offsets
	sep  bool // write the number with "_" separators when it is rewritten
}

// Load reads and parses the budget file at path: a regular file of at
// most infile.MaxText bytes.
func Load(path string) (*File, error) {
	data, err := infile.Read(path, "budget file", infile.MaxText)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses data as the budget file at path. The form follows the
// extension (.ts, .mts and .cts are TypeScript, .json is JSON); for any other
// name, data whose first non-space byte is "{" is JSON and the rest
// TypeScript. Parse keeps data, which must not change afterwards.
func Parse(path string, data []byte) (*File, error) {
	if err := infile.WebPage(path, data, "budget file", "give the JSON file or the TypeScript file that declares the budgets (the raw file, not its web page)"); err != nil {
		return nil, err
	}
	f := &File{Path: path, data: data, index: map[string]int{}, hidden: map[string]int{}, serverOff: -1}
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
	f.finish()
	return f, nil
}

// isTSPath reports whether the path's extension is TypeScript's.
func isTSPath(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return false
}

func detect(path string, data []byte) Format {
	if isTSPath(path) {
		return TypeScript
	}
	if strings.EqualFold(filepath.Ext(path), ".json") {
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

// ErrNotBudgetBlock is what a Lookup error wraps when the file declares the
// name's block or key, but not as a budget the name can address: a block
// whose numbers are not plain integer literals, or that holds other
// values; an object declared and not exported, or re-exported from another
// file; a quoted key with a dot ("http.create"). It is a mistake in the
// file or in the name, not a budget that is merely missing.
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
	if off, ok := f.hidden[name]; ok {
		return notBlock("%s:%d: no budget %s: a key on this line holds a dot (or is empty), so the dotted name %s cannot address it; rename the key (http_create) or nest it (http: { create: ... })", f.Path, f.lines.at(off), name, name)
	}
	block, key, _ := strings.Cut(name, ".")
	for _, b := range f.blocks {
		if b.name != block || b.why == "" && b.obj != nil {
			continue
		}
		if b.obj != nil {
			if m := findLeaf(b.obj, key); m != nil && m.kind != leafInt {
				lit := string(f.data[m.s:m.e])
				if m.kind == leafNumeric {
					return notBlock("%s:%d: no budget %s: %s is not a plain integer literal, so block %s is not a budget block; write the budget as digits (23_324)", f.Path, f.lines.at(m.s), name, clipLit(lit), block)
				}
				return notBlock("%s:%d: no budget %s: %s is not a number, so block %s is not a budget block; write the budget as digits (23_324)", f.Path, f.lines.at(m.s), name, clipLit(lit), block)
			}
		}
		return notBlock("%s:%d: no budget %s: block %s is not a budget block (%s); a budget block holds plain integer literals (23_324) and nothing else", f.Path, f.lines.at(b.nameOff), name, block, b.why)
	}
	for _, b := range f.locals {
		if b.name == block {
			return notBlock("%s:%d: no budget %s: %s is declared here but not exported; export it (export const %s = {...})", f.Path, f.lines.at(b.nameOff), name, block, block)
		}
	}
	if d, ok := f.reexported[block]; ok {
		return notBlock("%s:%d: no budget %s: %s is %s; give --budgets the file that declares it", f.Path, f.lines.at(d.off), name, block, d.what)
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
	also := ""
	if len(f.stars) > 0 {
		also = "; it also re-exports " + strings.Join(f.stars, ", ") + ", which is not read"
	}
	blocks := f.Blocks()
	if len(blocks) == 0 {
		return missing("%s: no budget %s: the file declares no budgets%s", f.Path, name, also)
	}
	return missing("%s: no budget %s: the file declares %s%s", f.Path, name, strings.Join(blocks, ", "), also)
}

// findLeaf returns the leaf member at the dotted key in o, if any.
func findLeaf(o *object, key string) *member {
	parts := strings.Split(key, ".")
	for i, k := range parts {
		m := o.find(k)
		if m == nil {
			return nil
		}
		if i == len(parts)-1 {
			if m.obj != nil {
				return nil
			}
			return m
		}
		if m.obj == nil {
			return nil
		}
		o = m.obj
	}
	return nil
}

func (f *File) add(name string, keyOff, s, e int, value int64, sep bool) error {
	if _, dup := f.index[name]; dup {
		return errAt(f.Path, f.lines, keyOff, "%s is declared twice; keep one", name)
	}
	f.index[name] = len(f.entries)
	f.entries = append(f.entries, entry{Budget{Name: name, Value: value, File: f.Path, Line: f.lines.at(keyOff)}, s, e, sep})
	return nil
}

// addressable reports whether a key can be one element of a dotted name.
func addressable(key string) bool { return key != "" && !strings.Contains(key, ".") }

// record records the budgets of a budget block's object o, whose members'
// names start with prefix. A key that a dotted name cannot address (it holds
// a dot) is kept aside: Lookup refuses its name.
func (f *File) record(prefix string, o *object, fileSep, hid bool) error {
	seen := map[string]int{}
	sep := sepOf(f.data, o, fileSep)
	for _, m := range o.members {
		if m.odd != "" {
			continue
		}
		name := prefix + "." + m.key
		if first, dup := seen[m.key]; dup {
			// TypeScript refuses an object literal with one name twice.
			return errAt(f.Path, f.lines, m.keyOff, "%s is declared twice (first at line %d); keep one", name, f.lines.at(first))
		}
		seen[m.key] = m.keyOff
		if m.obj != nil {
			if err := f.record(name, m.obj, fileSep, hid || !addressable(m.key)); err != nil {
				return err
			}
			continue
		}
		lit := string(f.data[m.s:m.e])
		n, ok := plainInt(lit, true)
		if !ok {
			return errAt(f.Path, f.lines, m.s, "%s = %s is not a plain integer literal; write the budget as digits (23_324), or move it out of the block", name, clipLit(lit))
		}
		if err := f.leaf(name, hid || !addressable(m.key), m, n, strings.Contains(lit, "_") || n < 1000 && sep); err != nil {
			return err
		}
	}
	return nil
}

// leaf records one budget, or keeps it aside when its name cannot be
// addressed; a name that both a nested key and a dotted key spell is
// addressed by neither.
func (f *File) leaf(name string, hid bool, m *member, n int64, sep bool) error {
	if hid {
		f.hidden[name] = m.keyOff
		return nil
	}
	return f.add(name, m.keyOff, m.s, m.e, n, sep)
}

// finish drops from the index every name a dotted key also spells.
func (f *File) finish() {
	for name := range f.hidden {
		if i, ok := f.index[name]; ok {
			delete(f.index, name)
			f.entries = append(f.entries[:i], f.entries[i+1:]...)
			for k, j := range f.index {
				if j > i {
					f.index[k] = j - 1
				}
			}
		}
	}
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
