//go:build unix

package infile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/readmeter/readmeter/internal/infile"
)

// TestRead holds Read to its rule: a regular file (a link to one
// followed) of at most the cap is read; a FIFO, a link to /dev/zero, a
// directory, a file over the cap and a missing file are refused at once,
// each in one line that names the file.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	os.WriteFile(at("ok.json"), []byte("{}\n"), 0o644)
	os.Symlink("ok.json", at("link.json"))
	os.WriteFile(at("big.json"), make([]byte, 65), 0o644)
	if err := syscall.Mkfifo(at("fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/dev/zero", at("zero.json"))
	os.Mkdir(at("dir.json"), 0o755)
	for _, tc := range []struct {
		name, want string
	}{
		{"ok.json", ""},
		{"link.json", ""},
		{"big.json", "big.json: 65 bytes, larger than the 64 bytes (64 bytes) a file may be"},
		{"fifo.json", "fifo.json: not a regular file (a named pipe): give a file saved on disk"},
		{"zero.json", "zero.json: not a regular file (a character device): give a file saved on disk"},
		{"dir.json", "dir.json: is a directory, not a budget file"},
		{"none.json", "none.json: no such file or directory"},
	} {
		data, err := infile.Read(at(tc.name), "budget file", 64)
		if tc.want == "" {
			if err != nil || string(data) != "{}\n" {
				t.Errorf("%s: %q, %v", tc.name, data, err)
			}
			continue
		}
		if err == nil || err.Error() != filepath.Join(dir, tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
	if _, err := infile.Read(at("big.json"), "budget file", 64); !errors.Is(err, infile.ErrTooLarge) {
		t.Errorf("too large: %v does not wrap ErrTooLarge", err)
	}
	if _, err := infile.Read(at("none.json"), "budget file", 64); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v does not wrap fs.ErrNotExist", err)
	}
}
