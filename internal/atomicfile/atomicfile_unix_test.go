//go:build unix

package atomicfile_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/readmeter/readmeter/internal/atomicfile"
)

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestModes(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	p := filepath.Join(dir, "new.json")
	if err := atomicfile.Write(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, p); m != 0o640 {
		t.Errorf("new file: mode %o, want 0640 (0666 less the umask 027)", m)
	}
	kept := filepath.Join(dir, "kept.json")
	os.WriteFile(kept, []byte("old"), 0o600)
	os.Chmod(kept, 0o604)
	if err := atomicfile.Write(kept, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, kept); m != 0o604 {
		t.Errorf("replaced file: mode %o, want its own 0604", m)
	}
	if b, _ := os.ReadFile(kept); string(b) != "new" {
		t.Errorf("content %q", b)
	}
}
