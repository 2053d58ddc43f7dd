package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/readmeter/readmeter/internal/ghactions"
)

// writeGitHub prints the annotations to w and appends the markdown tables
// to the step summary file, when the job has one.
func writeGitHub(w io.Writer, found []finding, tables func(io.Writer)) error {
	for _, a := range annotations(found) {
		fmt.Fprintln(w, a)
	}
	var buf bytes.Buffer
	tables(&buf)
	buf.WriteString("\n")
	return ghactions.AppendSummary(buf.Bytes())
}
