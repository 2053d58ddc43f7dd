package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
)

// checkWriteTarget refuses a --write file that is one of the files the run
// reads (the capture, its init answer, the toolsets, words, calibration or
// budget file): written in place, the input would be gone, and a second
// run would measure the output as if it were the server's list. The file
// is compared as the file system sees it, so a link or another spelling of
// the path is the same file (see sameFile).
func checkWriteTarget(o *options, capture string) error {
	if o.write == "" {
		return nil
	}
	init := o.init
	if init == "" && capture != "-" {
		init = toollist.InitPath(capture)
	}
	inputs := []struct{ what, path string }{
		{"the capture", capture},
		{"the capture's init answer", init},
		{"the --toolsets file", o.toolsets},
		{"the --words file", o.words},
		{"the --calibration file", o.calibration},
		{"the --budgets file", o.budgetsFile},
	}
	for _, in := range inputs {
		if in.path == "" || in.path == "-" {
			continue
		}
		if sameFile(o.write, in.path) {
			return cli.Usage("--write %s: that is %s, %s this run reads: write to another file, then move it over %s if you mean to replace it", o.write, in.path, in.what, in.path)
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one file: the same file on
// disk, or, where one is not there yet (a budget file --update creates),
// the same absolute path once links are followed.
func sameFile(a, b string) bool {
	a, b = atomicfile.Target(a), atomicfile.Target(b)
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// reportWritten prints the one line that says what --write wrote: the
// file and its size.
func reportWritten(stderr io.Writer, path string) {
	st, err := os.Stat(atomicfile.Target(path))
	if err != nil {
		return // committed, then moved away: nothing true to say of it
	}
	line(stderr, "measure: wrote %s: %s bytes, the capture after the what-ifs", path, units.Group(st.Size()))
}

// prepareInit readies a copy of the init answer the run read (the
// capture's, or --init) beside the --write file, as STEM.init.EXT, the
// way measure capture keeps the two: measuring the file written then
// reports the instructions as measuring the capture did. It returns nil
// when the run read no init answer.
func prepareInit(r *report, write string) (*atomicfile.Pending, error) {
	if r.init == nil {
		return nil, nil
	}
	data, err := infile.Read(r.init.Path, "init answer", infile.Max)
	if err != nil {
		return nil, cli.Usage("%v", err)
	}
	to := toollist.InitPath(write)
	if sameFile(to, r.init.Path) {
		return nil, nil // it is there already
	}
	p, err := atomicfile.Prepare(to, data)
	if err != nil {
		return nil, cli.Usage("%s: %v", to, unwrapPath(err))
	}
	return p, nil
}

// reportWrittenInit prints the one line that says the init answer was
// copied beside the --write file.
func reportWrittenInit(stderr io.Writer, path, from string) {
	st, err := os.Stat(atomicfile.Target(path))
	if err != nil {
		return
	}
	line(stderr, "measure: wrote %s: %s bytes, the initialize answer of %s, beside it", path, units.Group(st.Size()), from)
}
