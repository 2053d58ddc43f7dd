// Package atomicfile is the module's one way to write a file: whole or not
// at all, never half-way.
//
//	if err := atomicfile.Write("report.json", data); err != nil { ... }
//
// The steps of Write (Prepare then Commit):
//  1. leftovers of runs that were killed while writing the same file
//     (temporary files whose process is gone) are removed;
//  2. the data goes to a temporary file in the same directory, named
//     .NAME.PID.RANDOM.tmp, created with mode 0666 less the umask, or with
//     the mode of the file it replaces;
//  3. the temporary file is synced, closed and renamed over the file (a
//     symbolic link is followed: the file it points at is replaced), and
//     the directory is synced;
//  4. on any error the temporary file is removed and the old file stays.
//
// Lock serialises writers of one file across processes (a lock file
// beside it), and RemoveTemps removes the temporary files of writes in
// flight and the lock files of locks held, for a command stopped by a
// signal.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

var (
	liveMu sync.Mutex
	live   = map[string]bool{} // temporary files being written
	frozen bool                // Freeze was called: nothing more is written
)

// ErrFrozen is the error of a write after Freeze.
var ErrFrozen = errors.New("not written: the command is stopping")

// Freeze makes every later Prepare and Commit in this process fail with
// ErrFrozen (for a command stopping on a signal: nothing is written
// half-way through its work).
func Freeze() {
	liveMu.Lock()
	frozen = true
	liveMu.Unlock()
}

func isFrozen() bool {
	liveMu.Lock()
	defer liveMu.Unlock()
	return frozen
}

// Pending is a file written to its temporary name, not yet in place.
type Pending struct {
	path, tmp string
	done      bool
	f         *os.File // open while written in pieces (Create)
	mode      fs.FileMode
	keep      bool // mode is the replaced file's
}

// Write writes data to path atomically (Prepare, then Commit).
func Write(path string, data []byte) error {
	p, err := Prepare(path, data)
	if err != nil {
		return err
	}
	return p.Commit()
}

// Target returns the file a write to path replaces: path, or the file a
// symbolic link at path points at.
func Target(path string) string {
	if t, err := filepath.EvalSymlinks(path); err == nil {
		return t
	}
	return path
}

// Prepare writes data to a temporary file beside path (see the package
// doc) and returns it pending: Commit puts it in place, Abort removes it.
// Errors are *fs.PathError naming path.
func Prepare(path string, data []byte) (*Pending, error) {
	p, err := Create(path)
	if err != nil {
		return nil, err
	}
	if _, err := p.Write(data); err != nil {
		p.Abort()
		return nil, err
	}
	if err := p.close(); err != nil {
		return nil, err
	}
	return p, nil
}

// Create opens a temporary file beside path for a file written in pieces
// (steps 1 and 2 of the package doc, before any data): write to the
// Pending, then Commit puts it in place or Abort removes it. Errors are
// *fs.PathError naming path.
func Create(path string) (*Pending, error) {
	if err := dash(path); err != nil {
		return nil, pathError(path, err)
	}
	path = Target(path)
	if isFrozen() {
		return nil, pathError(path, ErrFrozen)
	}
	if err := writable(path); err != nil {
		return nil, pathError(path, err)
	}
	CleanLeftovers(path)
	var mode fs.FileMode = 0o666 // less the umask, by open(2)
	var keep bool
	if st, err := os.Stat(path); err == nil {
		if !st.Mode().IsRegular() {
			return nil, pathError(path, errors.New("not a regular file"))
		}
		mode, keep = st.Mode().Perm(), true
	}
	tmp := tempName(path)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return nil, pathError(path, err)
	}
	track(tmp, true)
	return &Pending{path: path, tmp: tmp, f: f, mode: mode, keep: keep}, nil
}

func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: "write", Path: path, Err: err}
}

// Write writes to the temporary file of a Pending that Create returned.
func (p *Pending) Write(b []byte) (int, error) {
	if p.f == nil {
		return 0, pathError(p.path, errors.New("written after it was closed"))
	}
	n, err := p.f.Write(b)
	if err != nil {
		return n, pathError(p.path, err)
	}
	return n, nil
}

// close gives the temporary file its mode, syncs and closes it; on an
// error it removes it.
func (p *Pending) close() error {
	if p.f == nil {
		return nil
	}
	f := p.f
	p.f = nil
	var err error
	if p.keep {
		err = f.Chmod(p.mode) // the umask does not apply to a kept mode
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.Abort()
		return pathError(p.path, err)
	}
	return nil
}

// Commit renames the temporary file into place and syncs the directory.
func (p *Pending) Commit() error {
	if p.done {
		return nil
	}
	if err := p.close(); err != nil {
		return err
	}
	p.done = true
	defer track(p.tmp, false)
	liveMu.Lock()
	stop := frozen
	liveMu.Unlock()
	if stop {
		os.Remove(p.tmp)
		return &fs.PathError{Op: "write", Path: p.path, Err: ErrFrozen}
	}
	if err := os.Rename(p.tmp, p.path); err != nil {
		os.Remove(p.tmp)
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return &fs.PathError{Op: "write", Path: p.path, Err: err}
	}
	if d, err := os.Open(filepath.Dir(p.path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Abort removes the temporary file; the file in place is untouched.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
	os.Remove(p.tmp)
	track(p.tmp, false)
}

func track(tmp string, on bool) {
	liveMu.Lock()
	defer liveMu.Unlock()
	if on {
		live[tmp] = true
	} else {
		delete(live, tmp)
	}
}

// RemoveTemps removes the temporary files of every write in flight in
// this process, and releases every lock it holds, removing the lock files
// (for a command stopping on a signal).
func RemoveTemps() {
	liveMu.Lock()
	for tmp := range live {
		os.Remove(tmp)
		delete(live, tmp)
	}
	liveMu.Unlock()
	releaseLocks()
}

func tempName(path string) string {
	var b [6]byte
	rand.Read(b[:])
	return filepath.Join(filepath.Dir(path), fmt.Sprintf(".%s.%d.%s.tmp", filepath.Base(path), os.Getpid(), hex.EncodeToString(b[:])))
}

// CleanLeftovers removes the temporary files a killed writer of path left
// behind: those named for path whose process no longer runs.
func CleanLeftovers(path string) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".tmp") {
			continue
		}
		mid := strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".tmp")
		pidText, _, ok := strings.Cut(mid, ".")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 {
			continue
		}
		if pid != os.Getpid() && !alive(pid) {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// dash refuses "-" as the name of a file to write: on a command line it
// says standard output, which no command writes a file to, and a file
// named "-" would be the surprise (./- names one, if that is meant).
func dash(path string) error {
	if path == "-" {
		return errors.New(`"-" is not standard output here: give the name of a file to write (./- for a file named "-")`)
	}
	return nil
}

// Writable returns an error saying why path cannot be written (see
// Write), or nil: a check to make before work whose result goes there.
func Writable(path string) error {
	if err := dash(path); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	path = Target(path)
	if err := writable(path); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}
