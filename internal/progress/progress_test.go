package progress

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
)

func TestNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	if b := New(&buf, "walks", 3); b != nil {
		t.Fatal("a bar on a bytes.Buffer")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := New(f, "walks", 3)
	if b != nil {
		t.Fatal("a bar on a file")
	}
	b.Add(1) // a nil bar does nothing
	b.Finish()
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("%d bytes written to a file", st.Size())
	}
	if New(os.Stderr, "walks", 0) != nil {
		t.Error("a bar of no steps")
	}
}

func TestDraw(t *testing.T) {
	var buf bytes.Buffer
	b := newBar(&buf, "servers", 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { b.Add(1) })
	}
	wg.Wait()
	b.Finish()
	out := buf.String()
	first := "\rservers   0% |" + strings.Repeat(" ", 30) + "| (0/4)"
	last := "\rservers 100% |" + strings.Repeat("█", 30) + "| (4/4)"
	if !strings.HasPrefix(out, first) {
		t.Errorf("first drawing %q, want %q", out, first)
	}
	if !strings.Contains(out, last) {
		t.Errorf("no drawing of the end %q in %q", last, out)
	}
	clear := "\r" + strings.Repeat(" ", len([]rune(last))-1) + "\r"
	if !strings.HasSuffix(out, clear) {
		t.Errorf("the line is not cleared at the end: %q", out)
	}
}
