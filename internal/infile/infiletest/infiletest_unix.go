//go:build unix

package infiletest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// BadFiles makes, in dir, the files no command may read: a FIFO, a link
// to /dev/zero, and a sparse file one byte past limit. It returns their
// paths by name ("fifo", "dev/zero", "too large"); ext ends each name.
func BadFiles(t testing.TB, dir string, limit int64, ext string) map[string]string {
	t.Helper()
	bad := map[string]string{
		"fifo":      filepath.Join(dir, "fifo"+ext),
		"dev/zero":  filepath.Join(dir, "zero"+ext),
		"too large": filepath.Join(dir, "large"+ext),
	}
	if err := syscall.Mkfifo(bad["fifo"], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", bad["dev/zero"]); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(bad["too large"])
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(limit + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return bad
}
