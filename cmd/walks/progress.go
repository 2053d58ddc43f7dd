package main

import (
	"io"

	pbar "github.com/readmeter/readmeter/internal/progress"
)

// bar is a progress bar of steps, drawn on stderr only when stderr is a
// terminal.
type bar struct{ pb *pbar.Bar }

func newBar(stderr io.Writer, total int) *bar {
	pb := pbar.New(stderr, "walks", total)
	if pb == nil {
		return nil
	}
	return &bar{pb: pb}
}

func (b *bar) add() { b.pb.Add(1) }

func (b *bar) finish() { b.pb.Finish() }
