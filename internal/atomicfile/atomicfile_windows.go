package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// alive reports whether the process pid runs (ours to open or not).
func alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	const stillActive = 259 // STILL_ACTIVE: no exit code yet
	var code uint32
	return windows.GetExitCodeProcess(h, &code) != nil || code == stillActive
}

// writable reports why path cannot be written: a file there we may not
// write, or a directory we may not create files in. Windows has no
// access(2): the file is opened for writing (not truncated), and a file
// is created in the directory and removed.
func writable(path string) error {
	if st, err := os.Stat(path); err == nil {
		if st.Mode().Perm()&0o222 == 0 {
			return errors.New("the file is read-only: clear its read-only attribute (attrib -r) to let it be rewritten")
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("the file cannot be opened for writing (%v)", unwrap(err))
		}
		f.Close()
	}
	dir := filepath.Dir(path)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no such directory: %s", dir)
	}
	probe := tempName(path) // CleanLeftovers removes it if we are killed here
	f, err := os.OpenFile(probe, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return fmt.Errorf("cannot create files in %s (%v)", dir, unwrap(err))
	}
	f.Close()
	os.Remove(probe)
	return nil
}
