package budgets

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/infile"
)

// Move is one budget's change by Update.
type Move struct {
	// Name is the budget's dotted name.
	Name string `json:"name"`
	// Old is the value the file held.
	Old int64 `json:"old"`
	// New is the value written.
	New int64 `json:"new"`
	// File and Line say where the budget is declared.
	File string `json:"file"`
	Line int    `json:"line"`
}

// Delta returns New - Old.
func (m Move) Delta() int64 { return m.New - m.Old }

// Where returns "file:line", the place the budget is declared.
func (m Move) Where() string { return fmt.Sprintf("%s:%d", m.File, m.Line) }

// Update returns the file's bytes with each named budget set to its new
// value, and the moves in file order (one per name given, Old == New when
// a value stays). Only the digits of the named entries change, and their
// "_" separators: a TypeScript literal written with separators is written
// with them again, grouped by three (20_730); one written without keeps
// none, but a literal below 1,000 (whose style cannot be seen) takes the
// style of its block's literals of 1,000 or more, or, when the block has
// none, the file's (separators when any literal of 1,000 or more in the
// file has one). Comments and every other byte stay as they were. A name the
// file lacks, or a negative value, is an error and nothing is returned.
func (f *File) Update(values map[string]int64) (data []byte, moves []Move, err error) {
	var unknown []string
	for name, v := range values {
		if _, ok := f.index[name]; !ok {
			unknown = append(unknown, name)
			continue
		}
		if v < 0 || f.Format == TypeScript && v > maxSafe {
			b, _ := f.Get(name)
			return nil, nil, fmt.Errorf("%s: cannot set %s to %d: a budget is a non-negative integer", b.Where(), name, v)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, nil, fmt.Errorf("%s: no budget %s to update; add the entry to the file first", f.Path, strings.Join(unknown, ", "))
	}
	var out bytes.Buffer
	out.Grow(len(f.data) + 16)
	last := 0
	for _, i := range f.sortedEntries() {
		e := f.entries[i]
		v, ok := values[e.Name]
		if !ok {
			continue
		}
		moves = append(moves, Move{Name: e.Name, Old: e.Value, New: v, File: e.File, Line: e.Line})
		if v == e.Value {
			continue
		}
		out.Write(f.data[last:e.s])
		out.WriteString(formatInt(v, e.sep))
		last = e.e
	}
	out.Write(f.data[last:])
	return out.Bytes(), moves, nil
}

// formatInt writes n in digits, grouped by three with "_" when sep.
func formatInt(n int64, sep bool) string {
	s := strconv.FormatInt(n, 10)
	if !sep || len(s) <= 3 {
		return s
	}
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte('_')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ErrChanged is the error WriteAtomic and Locked.Write return (wrapped)
// when the file on disk is no longer what was read.
var ErrChanged = errors.New("changed during the run")

// WriteAtomic writes data to path by a temporary file in the same
// directory and a rename, keeping the file's mode. Right before the
// rename it compares the file on disk with expectOld, byte for byte, and
// refuses, with an error wrapping ErrChanged, when they differ (someone
// changed or deleted the file during the run): "FILE changed during the
// run; nothing written". A nil expectOld means the file must not exist. A
// symbolic link is followed: the file it points at is replaced, and the
// link stays.
func WriteAtomic(path string, expectOld, data []byte) error {
	named := path
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	pending, err := atomicfile.Prepare(path, data)
	if err != nil {
		return pathErr(path, err)
	}
	defer pending.Abort()
	cur, err := infile.Read(path, "budget file", infile.MaxText)
	switch {
	case errors.Is(err, fs.ErrNotExist) && expectOld == nil:
	case errors.Is(err, fs.ErrNotExist), err == nil && (expectOld == nil || !bytes.Equal(cur, expectOld)):
		return fmt.Errorf("%s %w; nothing written", named, ErrChanged)
	case err != nil:
		return err
	}
	if err := pending.Commit(); err != nil {
		return pathErr(path, err)
	}
	return nil
}

func pathErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}
