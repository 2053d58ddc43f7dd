package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/internal/benchcap"
)

// BenchmarkWriteJSON is the last step of `measure --json --lean` on
// bench/gencapture's 10,000-tool capture: the report, measured once,
// written as JSON (about 1.7 MB).
func BenchmarkWriteJSON(b *testing.B) {
	data, err := benchcap.Generate(10000, 24, 1)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "tools.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	o := options{lean: true}
	r, err := measureOne(path, true, nil, nil, &o, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := writeJSON(io.Discard, []*report{r}, &o); err != nil {
			b.Fatal(err)
		}
	}
}
