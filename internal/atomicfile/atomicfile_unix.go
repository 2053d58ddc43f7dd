//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// alive reports whether the process pid runs (ours to signal or not).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// writable reports why path cannot be written: a file there we may not
// write, or a directory we may not create files in.
func writable(path string) error {
	if st, err := os.Stat(path); err == nil {
		// A file without a write bit is read-only, to root as well.
		if err := syscall.Access(path, 2); err != nil || st.Mode().Perm()&0o222 == 0 { // W_OK
			return errors.New("the file is read-only: make it writable (chmod u+w) to let it be rewritten")
		}
	}
	dir := filepath.Dir(path)
	if err := syscall.Access(dir, 2|1); err != nil { // W_OK|X_OK
		if errors.Is(err, syscall.ENOENT) {
			return fmt.Errorf("no such directory: %s", dir)
		}
		return fmt.Errorf("cannot create files in %s (%v)", dir, err)
	}
	return nil
}
