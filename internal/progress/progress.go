// Package progress draws a bar of counted steps on a terminal while a
// command works, and clears it when the work is done.
//
//	bar := progress.New(os.Stderr, "walks", len(steps))
//	for range steps {
//		// ... a step
//		bar.Add(1)
//	}
//	bar.Finish()
//
// draws, on one line redrawn in place,
//
//	walks  42% |████████           | (7/16)
//
// The stance: progress is for a person watching, never data. The bar is
// drawn only when the writer is a terminal (an *os.File that is one), so
// a redirected stderr, a CI log or a test sees nothing; New returns nil
// then, and a nil *Bar's methods do nothing. Redrawing is throttled to a
// few times a second, and Finish clears the line. A Bar is safe for
// concurrent use.
//
// Only commands print: this package is for cmd/ and internal/ alone.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// width is the number of cells of the bar itself.
const width = 30

// every is the least time between two drawings but the last.
const every = 65 * time.Millisecond

// Bar is a progress bar of total steps.
type Bar struct {
	mu          sync.Mutex
	w           io.Writer
	desc        string
	total, done int
	drawn       time.Time
	line        int // the length of the line last drawn
}

// New returns a bar of total steps, described by desc, drawn on w; nil
// when w is not a terminal or there are no steps.
func New(w io.Writer, desc string, total int) *Bar {
	f, ok := w.(interface{ Fd() uintptr }) // an *os.File, or a command's checked stream of one
	if !ok || total <= 0 || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return newBar(w, desc, total)
}

func newBar(w io.Writer, desc string, total int) *Bar {
	b := &Bar{w: w, desc: desc, total: total}
	b.draw()
	return b
}

// Add counts n steps done.
func (b *Bar) Add(n int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = min(b.done+n, b.total)
	if b.done == b.total || time.Since(b.drawn) >= every {
		b.draw()
	}
}

// Finish clears the bar's line.
func (b *Bar) Finish() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.line > 0 {
		fmt.Fprintf(b.w, "\r%s\r", strings.Repeat(" ", b.line))
		b.line = 0
	}
}

// draw draws the bar; b.mu is held.
func (b *Bar) draw() {
	full := width * b.done / b.total
	s := fmt.Sprintf("%s %3d%% |%s%s| (%d/%d)", b.desc, 100*b.done/b.total,
		strings.Repeat("█", full), strings.Repeat(" ", width-full), b.done, b.total)
	n := len([]rune(s))
	pad := ""
	if b.line > n {
		pad = strings.Repeat(" ", b.line-n)
	}
	fmt.Fprintf(b.w, "\r%s%s", s, pad)
	b.line = max(n, b.line)
	b.drawn = time.Now()
}
