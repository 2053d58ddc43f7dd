package budgets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/atomicfile"
)

// Insert returns the file's bytes with each named budget the file lacks
// added at its value, so that a new project starts its budget file with
// one command: a key goes after the last budget of its block, indented as
// that budget is; a block the file lacks goes at the end (JSON: the last
// member of the top-level object; TypeScript: a new `export const BLOCK =
// { ... } as const;`). Every other byte stays. Names the file holds are
// left to Update; a name that is not BLOCK.KEY, or whose block exists but
// holds no budget to place it after, is an error.
func (f *File) Insert(values map[string]int64) ([]byte, error) {
	byBlock := map[string][]string{}
	for name := range values {
		if _, ok := f.index[name]; ok {
			continue
		}
		block, key, ok := strings.Cut(name, ".")
		if !ok || block == "" || key == "" || strings.Contains(key, ".") {
			return nil, fmt.Errorf("%s: cannot add %s: a budget is named BLOCK.KEY", f.Path, name)
		}
		if values[name] < 0 {
			return nil, fmt.Errorf("%s: cannot add %s at %d: a budget is a non-negative integer", f.Path, name, values[name])
		}
		byBlock[block] = append(byBlock[block], key)
	}
	if len(byBlock) == 0 {
		return f.data, nil
	}
	blocks := make([]string, 0, len(byBlock))
	for b := range byBlock {
		blocks = append(blocks, b)
		sort.Strings(byBlock[b])
	}
	sort.Strings(blocks)
	type insertion struct {
		at   int
		text string
	}
	var ins []insertion
	var newBlocks []string
	for _, b := range blocks {
		last := -1 // the block's last entry, by place in the file
		for i, e := range f.entries {
			if strings.HasPrefix(e.Name, b+".") && !strings.Contains(e.Name[len(b)+1:], ".") && (last < 0 || e.e > f.entries[last].e) {
				last = i
			}
		}
		if last < 0 {
			if f.hasBlock(b) {
				return nil, fmt.Errorf("%s: the block %s holds no budget to add %s after: add one by hand", f.Path, b, strings.Join(byBlock[b], ", "))
			}
			newBlocks = append(newBlocks, b)
			continue
		}
		e := f.entries[last]
		indent := lineIndent(f.data, e.s)
		at, comma := e.e, true
		// past the value: a comma already there is kept where it is
		j := e.e
		for j < len(f.data) && (f.data[j] == ' ' || f.data[j] == '\t') {
			j++
		}
		if j < len(f.data) && f.data[j] == ',' {
			at, comma = j+1, false
			// the rest of the line, a comment or blanks, stays with it
			rest := f.data[at:]
			if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
				if tail := bytes.TrimSpace(rest[:nl]); len(tail) == 0 || bytes.HasPrefix(tail, []byte("//")) {
					at += nl
					if nl > 0 && rest[nl-1] == '\r' {
						at--
					}
				}
			}
		}
		var text strings.Builder
		for _, key := range byBlock[b] {
			entry := "\n" + indent + f.keyText(key) + ": " + formatInt(values[b+"."+key], f.Format == TypeScript && e.sep)
			if comma {
				text.WriteString("," + entry) // no comma after the last entry: none after the new ones
			} else {
				text.WriteString(entry + ",") // a comma after each, as after the last entry
			}
		}
		ins = append(ins, insertion{at, text.String()})
	}
	out := f.data
	sort.Slice(ins, func(a, b int) bool { return ins[a].at > ins[b].at })
	for _, in := range ins {
		out = append(out[:in.at:in.at], append([]byte(in.text), out[in.at:]...)...)
	}
	if len(newBlocks) > 0 {
		var err error
		if out, err = f.appendBlocks(out, newBlocks, byBlock, values); err != nil {
			return nil, err
		}
	}
	if _, err := Parse(f.Path, out); err != nil {
		return nil, fmt.Errorf("%s: adding %s would break the file (%v): add them by hand", f.Path, strings.Join(blocks, ", "), err)
	}
	return out, nil
}

// hasBlock reports whether the file declares a top-level block named b,
// budgets or not.
func (f *File) hasBlock(b string) bool {
	for _, sb := range f.skipped {
		if sb.name == b {
			return true
		}
	}
	if f.Format == TypeScript {
		return regexp.MustCompile(`export\s+const\s+` + regexp.QuoteMeta(b) + `\b`).Match(f.data)
	}
	return f.members[b]
}

// keyText writes a key as the file's form writes one.
func (f *File) keyText(key string) string {
	if f.Format == TypeScript && identRe.MatchString(key) {
		return key
	}
	return strconv.Quote(key)
}

var identRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// lineIndent returns the white space that starts the line holding off.
func lineIndent(data []byte, off int) string {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

// appendBlocks adds new blocks at the end of the file.
func (f *File) appendBlocks(out []byte, blocks []string, keys map[string][]string, values map[string]int64) ([]byte, error) {
	unit := "  "
	if f.Format == TypeScript {
		var b strings.Builder
		for _, name := range blocks {
			b.WriteString("\nexport const " + name + " = {\n")
			for _, k := range keys[name] {
				b.WriteString(unit + f.keyText(k) + ": " + formatInt(values[name+"."+k], false) + ",\n")
			}
			b.WriteString("} as const;\n")
		}
		if len(bytes.TrimSpace(out)) == 0 {
			return []byte(strings.TrimPrefix(b.String(), "\n")), nil
		}
		if !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, '\n')
		}
		return append(out, b.String()...), nil
	}
	if len(f.entries) > 0 {
		// a nested entry's indent is two levels: one level is half of it
		if ind := lineIndent(f.data, f.entries[0].s); len(ind) >= 2 {
			unit = ind[:len(ind)/2]
		}
	}
	end := bytes.LastIndexByte(out, '}')
	if end < 0 {
		return nil, fmt.Errorf("%s: no top-level object to add %s to", f.Path, strings.Join(blocks, ", "))
	}
	k := end - 1
	for k >= 0 && (out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r') {
		k--
	}
	var b strings.Builder
	for i, name := range blocks {
		if i > 0 || (k >= 0 && out[k] != '{') {
			b.WriteString(",")
		}
		b.WriteString("\n" + unit + strconv.Quote(name) + ": {")
		for j, key := range keys[name] {
			if j > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n" + unit + unit + strconv.Quote(key) + ": " + strconv.FormatInt(values[name+"."+key], 10))
		}
		b.WriteString("\n" + unit + "}")
	}
	b.WriteString("\n")
	res := append([]byte{}, out[:k+1]...)
	res = append(res, b.String()...)
	return append(res, out[end:]...), nil
}

// New returns the bytes of a new budget file holding values, in the form
// its path's extension names (.ts, .mts, .cts: TypeScript; else JSON).
func New(path string, values map[string]int64) ([]byte, error) {
	format := JSON
	for _, ext := range []string{".ts", ".mts", ".cts"} {
		if strings.HasSuffix(path, ext) {
			format = TypeScript
		}
	}
	seed := []byte("{}\n")
	if format == TypeScript {
		seed = []byte{}
	}
	f := &File{Path: path, Format: format, data: seed, index: map[string]int{}}
	return f.Insert(values)
}

// SetFile sets the named budgets of the file at path to their values
// (Update) and adds the ones the file lacks (Insert); a file that does not
// exist is created (New). It holds the file's lock (atomicfile.Lock,
// waiting at most until ctx is done) throughout, and reads the file as it
// is once locked, so concurrent runs serialise and keep each other's moves.
// added names the budgets added, sorted.
func SetFile(ctx context.Context, path string, values map[string]int64) (moves []Move, added []string, err error) {
	unlock, err := atomicfile.Lock(ctx, path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	defer unlock()
	var f *File
	var old []byte
	if _, statErr := os.Stat(path); errors.Is(statErr, fs.ErrNotExist) {
		data, err := New(path, values)
		if err != nil {
			return nil, nil, err
		}
		if f, err = Parse(path, data); err != nil {
			return nil, nil, err
		}
	} else {
		if f, err = Load(path); err != nil {
			return nil, nil, err
		}
		old = f.Bytes()
		data, err := f.Insert(values)
		if err != nil {
			return nil, nil, err
		}
		if f, err = Parse(path, data); err != nil {
			return nil, nil, err
		}
	}
	for name := range values {
		if old == nil {
			added = append(added, name)
		} else if of, _ := Parse(path, old); of != nil {
			if _, ok := of.index[name]; !ok {
				added = append(added, name)
			}
		}
	}
	sort.Strings(added)
	data, moves, err := f.Update(values)
	if err != nil {
		return nil, nil, err
	}
	if old != nil && bytes.Equal(data, old) {
		return moves, added, nil
	}
	if err := WriteAtomic(path, old, data); err != nil {
		return nil, nil, err
	}
	return moves, added, nil
}
