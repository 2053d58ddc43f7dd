package main

import (
	"bytes"
	"fmt"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/htmlreport"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

// writeHTML writes the --html page of rep to path, whole or not at all.
// The page shows the names and texts escaped as the tables show them; the
// numbers are rep's.
func writeHTML(path string, rep walk.Report) error {
	shown := rep
	shown.Walks = make([]walk.WalkReport, len(rep.Walks))
	for i, w := range rep.Walks {
		w.Walk, w.Spec, w.Error = escape.Term(w.Walk), escape.Term(w.Spec), escape.Lines(w.Error)
		parts := make([]ledger.Part, len(w.Parts))
		for j, p := range w.Parts {
			p.Name = escape.Term(p.Name)
			parts[j] = p
		}
		w.Parts = parts
		shown.Walks[i] = w
	}
	shown.Warnings = make([]string, len(rep.Warnings))
	for i, w := range rep.Warnings {
		shown.Warnings[i] = escape.Lines(w)
	}
	title := fmt.Sprintf("what %d %s read", len(rep.Walks), plural(len(rep.Walks), "walk", "walks"))
	var b bytes.Buffer
	if err := htmlreport.Write(&b, htmlreport.Page{Kind: htmlreport.KindWalks, Title: title, Data: shown}); err != nil {
		return err
	}
	if err := atomicfile.Write(path, b.Bytes()); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	return nil
}
