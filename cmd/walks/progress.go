package main

import (
	"io"
	"os"
	"sync"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// bar is a progress bar of steps, drawn on stderr only when stderr is a
// terminal.
type bar struct {
	mu sync.Mutex
	pb *progressbar.ProgressBar
}

func newBar(stderr io.Writer, total int) *bar {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || total == 0 {
		return nil
	}
	return &bar{pb: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription("walks"),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	)}
}

func (b *bar) add() {
	b.mu.Lock()
	_ = b.pb.Add(1)
	b.mu.Unlock()
}

func (b *bar) finish() {
	b.mu.Lock()
	_ = b.pb.Finish()
	b.mu.Unlock()
}
