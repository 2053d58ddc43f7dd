package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/readmeter/readmeter/internal/procgroup"
)

// alive reports whether the process pid runs (ours to open or not). On
// Windows a process group is its first process, so procgroup.Alive is
// the one test.
func alive(pid int) bool { return procgroup.Alive(pid) }

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
