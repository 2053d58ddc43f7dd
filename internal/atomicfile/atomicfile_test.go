package atomicfile_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/readmeter/readmeter/internal/atomicfile"
)

func TestReadOnlyRefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "budgets.json")
	os.WriteFile(p, []byte("old"), 0o444)
	err := atomicfile.Write(p, []byte("new"))
	if err == nil {
		t.Fatal("a read-only file was replaced")
	}
	if err := atomicfile.Writable(p); err == nil {
		t.Error("Writable: nil for a read-only file")
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("content %q", b)
	}
	t.Log(err)
}

// TestDashRefused: "-" names standard output on a command line, never a
// file to write; "./-" is a file of that name.
func TestDashRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	want := `write -: "-" is not standard output here: give the name of a file to write (./- for a file named "-")`
	if err := atomicfile.Writable("-"); err == nil || err.Error() != want {
		t.Errorf("Writable: %v, want %q", err, want)
	}
	if err := atomicfile.Write("-", []byte("x")); err == nil {
		t.Error("Write made a file named -")
	}
	if _, err := os.Stat("-"); !os.IsNotExist(err) {
		t.Errorf("a file named - is there: %v", err)
	}
	if err := atomicfile.Write("./-", []byte("x")); err != nil {
		t.Errorf("./-: %v", err)
	}
}

func TestSymlinkFollowed(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	os.WriteFile(real, []byte("old"), 0o644)
	os.Symlink("real.json", link)
	if err := atomicfile.Write(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Errorf("content %q", b)
	}
}

// TestLeftoversCleaned: a temporary file of a process that is gone is
// removed by the next write; one of a live process, or of another file,
// stays.
func TestLeftoversCleaned(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "b.ts")
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := cmd.Process.Pid
	deadTmp := filepath.Join(dir, fmt.Sprintf(".b.ts.%d.abc.tmp", dead))
	liveTmp := filepath.Join(dir, fmt.Sprintf(".b.ts.%d.abc.tmp", os.Getppid()))
	other := filepath.Join(dir, ".c.ts."+strconv.Itoa(dead)+".abc.tmp")
	for _, f := range []string{deadTmp, liveTmp, other} {
		os.WriteFile(f, nil, 0o644)
	}
	if err := atomicfile.Write(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(deadTmp); err == nil {
		t.Error("a dead process's leftover stayed")
	}
	for _, f := range []string{liveTmp, other} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s removed: %v", f, err)
		}
	}
}

// TestLockSerialises: writers that read, change and write one file under
// the lock lose no change.
func TestLockSerialises(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "n")
	os.WriteFile(p, []byte("0"), 0o644)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			unlock, err := atomicfile.Lock(context.Background(), p, nil)
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			b, _ := os.ReadFile(p)
			n, _ := strconv.Atoi(string(b))
			time.Sleep(time.Millisecond)
			if err := atomicfile.Write(p, []byte(strconv.Itoa(n+1))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if b, _ := os.ReadFile(p); string(b) != "20" {
		t.Errorf("after 20 locked increments: %s", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left in the directory: %v", ents)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	unlock, _ := atomicfile.Lock(context.Background(), p, nil)
	if _, err := atomicfile.Lock(ctx, p, nil); err == nil {
		t.Error("a second lock while held")
	}
	unlock()
}

func TestAbortAndRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	pend, err := atomicfile.Prepare(p, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	atomicfile.RemoveTemps()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("after RemoveTemps: %v", ents)
	}
	pend.Abort()
}

// TestCreateInPieces writes a file in pieces: nothing is in place until
// Commit, and Abort leaves nothing behind.
func TestCreateInPieces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	p, err := atomicfile.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, piece := range []string{`{"a":`, `1}`, "\n"} {
		if _, err := p.Write([]byte(piece)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the file is in place before Commit")
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "{\"a\":1}\n" {
		t.Errorf("file holds %q", got)
	}
	q, err := atomicfile.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	q.Write([]byte("half"))
	q.Abort()
	if got, _ := os.ReadFile(path); string(got) != "{\"a\":1}\n" {
		t.Errorf("after Abort the file holds %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("after Abort the directory holds %d files", len(ents))
	}
	if _, err := q.Write([]byte("late")); err == nil {
		t.Error("a write after Abort succeeds")
	}
}
