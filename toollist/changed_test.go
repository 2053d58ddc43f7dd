//go:build unix

package toollist

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/internal/testhook"
)

// mapped sets the hook toollist calls once it has mapped a capture, for
// the test's length.
func mapped(t *testing.T, hook func(path string, data []byte)) {
	t.Helper()
	testhook.Mapped = hook
	t.Cleanup(func() { testhook.Mapped = nil })
}

// bigCapture writes a capture of n tools, over mapAbove, and returns its
// path.
func bigCapture(t *testing.T, n int) string {
	t.Helper()
	data, err := benchcap.Generate(n, 24, 1)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) < mapAbove {
		t.Fatalf("%d bytes: not mapped", len(data))
	}
	path := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantChanged fails unless err says path changed while it was read.
func wantChanged(t *testing.T, err error, path string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Path != path || !strings.HasPrefix(e.Msg, "the file changed while it was read") {
		t.Fatalf("error %v, want %s: the file changed while it was read", err, path)
	}
}

// noLeaks fails when goroutines started by the test are still running.
func noLeaks(t *testing.T, before int) {
	t.Helper()
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines left running", runtime.NumGoroutine()-before)
}

// TestChangedWhileRead cuts or rewrites a mapped capture as soon as it is
// mapped, before it is read: Read reports it, never crashes, and lets its
// goroutines go.
func TestChangedWhileRead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(path string, data []byte) error
	}{
		{"cut to nothing", func(path string, _ []byte) error { return os.Truncate(path, 0) }},
		{"cut to a page", func(path string, _ []byte) error { return os.Truncate(path, 4096) }},
		{"cut in half", func(path string, data []byte) error { return os.Truncate(path, int64(len(data)/2)) }},
		{"cut a byte short", func(path string, data []byte) error { return os.Truncate(path, int64(len(data)-1)) }},
		{"rewritten in place", func(path string, data []byte) error {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			// the same size, the middle tools' text turned to white space,
			// by a writer whose clock has moved on
			if _, err := f.WriteAt(bytes.Repeat([]byte{' '}, len(data)/2), int64(len(data)/4)); err != nil {
				return err
			}
			later := time.Now().Add(time.Minute)
			return os.Chtimes(path, later, later)
		}},
	} {
		for _, lean := range []bool{false, true} {
			name := tc.name
			if lean {
				name += ", lean"
			}
			t.Run(name, func(t *testing.T) {
				path := bigCapture(t, 2000)
				mapped(t, func(p string, data []byte) {
					if err := tc.change(p, data); err != nil {
						t.Error(err)
					}
				})
				before := runtime.NumGoroutine()
				var ts []Transform
				if lean {
					ts = append(ts, Lean())
				}
				c, err := Open(path, Options{Transforms: ts})
				if c != nil {
					t.Error("a capture for a file that changed")
				}
				wantChanged(t, err, path)
				noLeaks(t, before)
			})
		}
	}
}

// TestChangedAfterRead cuts a mapped capture once it is read: every pass
// that reads its text again (or that would have) reports it.
func TestChangedAfterRead(t *testing.T) {
	type pass func(c *Capture) error
	measureOnly := func(c *Capture) error { _, err := measure(c, nil); return err }
	whatIf := func(w bool) pass {
		return func(c *Capture) error {
			if _, err := measure(c, nil); err != nil {
				return err
			}
			var buf bytes.Buffer
			var out *bytes.Buffer
			if w {
				out = &buf
			}
			var err error
			if out != nil {
				_, err = whatIf(c, nil, []Transform{Lean(), DropEmptyOutputSchemas()}, out)
			} else {
				_, err = whatIf(c, nil, []Transform{Lean(), DropEmptyOutputSchemas()}, nil)
			}
			return err
		}
	}
	for _, tc := range []struct {
		name string
		pass pass
		cut  bool // cut before the pass (else between Measure and it)
	}{
		{"Measure", measureOnly, true},
		{"WhatIf", whatIf(false), false},
		{"WhatIf writing", whatIf(true), false},
		{"ModelReadText", func(c *Capture) error { _, err := c.ModelReadText(1500); return err }, true},
		{"CountTokens", func(c *Capture) error {
			f, err := measure(c, nil)
			if err != nil {
				return err
			}
			return countTokens(c, nil, f, []Counter{byteCounter{}})
		}, false},
	} {
		for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
			t.Run(tc.name+"/"+string(rune('0'+procs)), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				path := bigCapture(t, 2000)
				c, err := readCapture(path)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				before := runtime.NumGoroutine()
				if err := os.Truncate(path, 4096); err != nil {
					t.Fatal(err)
				}
				wantChanged(t, tc.pass(c), path)
				noLeaks(t, before)
			})
		}
	}
}

// byteCounter counts a text's bytes as its tokens.
type byteCounter struct{}

func (byteCounter) Name() string          { return "bytes" }
func (byteCounter) Count(text string) int { return len(text) }

// TestEarlyError reads 2 GiB captures broken near their start (sparse
// files, which take no disk), with the mapping made unreadable past 1 MiB
// as soon as it is mapped: the error is the one a whole read reports, and
// nothing far past it is read (reading there would fault). A JSON capture
// is read to the error's page; an event stream's line, a window of 256
// KiB at a time.
func TestEarlyError(t *testing.T) {
	const fence = 1 << 20
	mapped(t, func(_ string, data []byte) {
		if err := syscall.Mprotect(data[fence:], syscall.PROT_NONE); err != nil {
			t.Error(err)
		}
	})
	for _, head := range []string{
		`{"tools": [!`,
		"{\"tools\": [\xff",
		"{\"tools\": [{\"name\": \"\xe2\x82\xff\"}, x",
		"{\"jsonrpc\": \"2.0\", \"result\": {\"tools\": [{\"name\": \"\xf0\x9f\"},\n{\"name\": \"a\xc3\", \"description\": 1e}",
		`{"tools": [{"name": "a"}, {"name": "b"}]} x`,
		"\n\n   \t{\"tools\": [",
		"\x00",
		// event streams: the data checked as the scan reaches it
		`data: {"tools": [!`,
		"event: message\r\ndata: {\"jsonrpc\": \"2.0\",\r\ndata: \"result\": {\"tools\": [\xff x",
		"id: 0\ndata:\n\ndata: {\"result\": {\"tools\": [\"\xe2\x82\"\n\n",
		"data: {\"a\": 1}\n\ndata: [1, 2,]\n\ndata: ",
	} {
		path := filepath.Join(t.TempDir(), "huge.json")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(MaxFile); err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(head), 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		_, err = readCapture(path)
		// the same head and zeros, read whole, decoded first, each event
		// checked once read
		old := utf8Later
		utf8Later, checkEventData = 1<<62, false
		_, want := parseCapture(path, append([]byte(head), make([]byte, fence)...))
		utf8Later, checkEventData = old, true
		if want == nil {
			t.Fatalf("%q: read whole, no error", head)
		}
		if err == nil || err.Error() != want.Error() {
			t.Errorf("%q: %v, want %v", head, err, want)
		}
	}
}

// TestPrescanStaysNear: a worker held up on the first batch holds the
// validating pass to maxAhead batches past it, rather than letting it map
// in the rest of the capture behind a batch whose pages cannot be given
// back yet.
func TestPrescanStaysNear(t *testing.T) {
	path := bigCapture(t, 2000)
	defer func(m int64, b int) { mapAbove, prescanBatch = m, b }(mapAbove, prescanBatch)
	mapAbove, prescanBatch = 0, 16
	var seen atomic.Int64 // the last batch taken while the first was held up
	var held atomic.Bool
	held.Store(true)
	batchTaken = func(seq int) {
		if seq == 0 {
			time.Sleep(200 * time.Millisecond) // long enough for the pass to run to the end, were it let
			held.Store(false)
			return
		}
		if held.Load() {
			for {
				s := seen.Load()
				if int64(seq) <= s || seen.CompareAndSwap(s, int64(seq)) {
					break
				}
			}
		}
	}
	defer func() { batchTaken = nil }()
	c, err := Open(path, Options{Transforms: []Transform{Lean()}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.pg == nil || len(c.Tools) < 50*prescanBatch {
		t.Fatalf("mapped %v, %d tools: the pass has too little to run ahead on", c.pg != nil, len(c.Tools))
	}
	if got := seen.Load(); got >= maxAhead {
		t.Errorf("batch %d taken while the first was held up: the pass ran more than %d batches ahead", got, maxAhead)
	}
}
