package budgets

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/infile"
)

// Locked is a budget file held for one --update run: locked (atomicfile's
// lock file beside it) from the moment it is read at the start of the run
// until its write at the end, so that two runs that update one file
// follow each other whole and neither loses the other's numbers.
//
//	l, err := budgets.Lock(ctx, "first-task.ts", func() { fmt.Fprintln(stderr, "waiting...") })
//	defer l.Unlock()
//	... run, reading l.File() ...
//	w, err := l.Write(values, "twin") // w.Moves, w.Added, w.File
type Locked struct {
	// Path is the file's path.
	Path string

	file   *File
	old    []byte // what was read; nil when there was no file
	unlock func()
}

// Lock takes the lock of the budget file at path, waiting for another run
// that holds it until ctx is done (waiting, when not nil, is called once
// before it waits), then reads the file. A file that does not exist is
// read as an empty file of its extension's form, which Write creates.
func Lock(ctx context.Context, path string, waiting func()) (*Locked, error) {
	unlock, err := atomicfile.Lock(ctx, path, waiting)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l := &Locked{Path: path, unlock: unlock}
	data, err := infile.Read(path, "budget file", infile.MaxText)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		seed, err := New(path, "", nil)
		if err == nil {
			l.file, err = Parse(path, seed)
		}
		if err != nil {
			unlock()
			return nil, err
		}
	case err != nil:
		unlock()
		return nil, err
	default:
		if l.file, err = Parse(path, data); err != nil {
			unlock()
			return nil, err
		}
		l.old = data
	}
	return l, nil
}

// File returns the file as read when it was locked.
func (l *Locked) File() *File { return l.file }

// Exists reports whether the file existed when it was locked.
func (l *Locked) Exists() bool { return l.old != nil }

// Unlock releases the lock; a second call does nothing.
func (l *Locked) Unlock() {
	if l.unlock != nil {
		l.unlock()
		l.unlock = nil
	}
}

// Written is what Write did to the file.
type Written struct {
	// Moves has one per value, in file order.
	Moves []Move
	// Added names the budgets the file lacked, sorted.
	Added []string
	// Left names the values WriteExisting left out, as the file lacked
	// them, sorted.
	Left []string
	// File is the file as it is now: the budgets at their new values and
	// lines, to check a run's readings against once more.
	File *File
}

// Write sets the named budgets to their values (Update), adding the ones
// the file lacks (Insert; a file that did not exist is created, marked as
// server's when server is not ""), and writes the file atomically, if it
// is byte for byte what was read when it was locked: a file changed or
// deleted since (by hand: another run waits for the lock) is an error
// wrapping ErrChanged, and nothing is written. It returns the moves, the
// budgets added and the file as written, read again.
func (l *Locked) Write(values map[string]int64, server string) (*Written, error) {
	var data []byte
	var err error
	if l.old == nil {
		data, err = New(l.Path, server, values)
	} else {
		data, err = l.file.Insert(values)
	}
	if err != nil {
		return nil, err
	}
	f, err := Parse(l.Path, data)
	if err != nil {
		return nil, err
	}
	w := &Written{}
	for name := range values {
		if _, ok := l.file.index[name]; !ok {
			w.Added = append(w.Added, name)
		}
	}
	sort.Strings(w.Added)
	if data, w.Moves, err = f.Update(values); err != nil {
		return nil, err
	}
	if l.old != nil && string(data) == string(l.old) {
		// Nothing to write; the file must still be what was read.
		cur, err := os.ReadFile(l.Path)
		if err != nil || string(cur) != string(l.old) {
			return nil, fmt.Errorf("%s %w; nothing written", l.Path, ErrChanged)
		}
		w.File = l.file
		return w, nil
	}
	if err := WriteAtomic(l.Path, l.old, data); err != nil {
		return nil, err
	}
	if w.File, err = Parse(l.Path, data); err != nil {
		return nil, err
	}
	return w, nil
}

// WriteExisting is Write for the budgets the file has: it moves them and
// adds nothing, leaving out (Written.Left) each value the file lacks. A
// file that did not exist when it was locked is an error wrapping
// fs.ErrNotExist, and nothing is written.
func (l *Locked) WriteExisting(values map[string]int64) (*Written, error) {
	if l.old == nil {
		return nil, fmt.Errorf("%s: %w: there are no numbers to move", l.Path, fs.ErrNotExist)
	}
	kept := make(map[string]int64, len(values))
	var left []string
	for name, v := range values {
		if _, ok := l.file.index[name]; ok {
			kept[name] = v
		} else {
			left = append(left, name)
		}
	}
	w, err := l.Write(kept, "")
	if err != nil {
		return nil, err
	}
	sort.Strings(left)
	w.Left = left
	return w, nil
}
