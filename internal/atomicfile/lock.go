package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Lock takes the lock of path: an exclusive flock (LockFileEx on Windows)
// on .NAME.lock beside it, waiting for another process that holds it,
// until ctx is done, and calling waiting (when not nil) once before it
// waits. The returned unlock removes the lock file and releases it. A
// lock file left by a killed process is no obstacle: the kernel released
// its lock.
func Lock(ctx context.Context, path string, waiting func()) (unlock func(), err error) {
	path = Target(path)
	lp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	for {
		f, err := os.OpenFile(lp, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return nil, &fs.PathError{Op: "lock", Path: path, Err: unwrap(err)}
		}
		for {
			err = lockFile(f)
			if err == nil || !errors.Is(err, errLocked) {
				break
			}
			if waiting != nil {
				waiting()
				waiting = nil
			}
			select {
			case <-ctx.Done():
				f.Close()
				return nil, &fs.PathError{Op: "lock", Path: path, Err: fmt.Errorf("another run holds %s: %w", lp, context.Cause(ctx))}
			case <-time.After(5 * time.Millisecond):
			}
		}
		if err != nil {
			f.Close()
			return nil, &fs.PathError{Op: "lock", Path: path, Err: err}
		}
		// The holder before us may have removed the file we locked: the
		// lock counts only on the file now at lp.
		if sameFile(f, lp) {
			var once sync.Once
			release := func() {
				once.Do(func() {
					unlockFile(f, lp)
				})
			}
			heldMu.Lock()
			held[lp] = release
			heldMu.Unlock()
			return func() {
				heldMu.Lock()
				delete(held, lp)
				heldMu.Unlock()
				release()
			}, nil
		}
		f.Close()
	}
}

var (
	heldMu sync.Mutex
	held   = map[string]func(){} // the locks this process holds: their release
)

// releaseLocks releases every lock this process holds, removing its lock
// file (for a command stopping on a signal: RemoveTemps).
func releaseLocks() {
	heldMu.Lock()
	rs := make([]func(), 0, len(held))
	for lp, r := range held {
		rs = append(rs, r)
		delete(held, lp)
	}
	heldMu.Unlock()
	for _, r := range rs {
		r()
	}
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
