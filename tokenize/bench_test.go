package tokenize_test

import (
	"bytes"
	"testing"

	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/tokenize"
	"github.com/readmeter/readmeter/toollist"
)

// BenchmarkCount counts what a model reads of bench/gencapture's
// 1,000-tool capture, tool by tool, as measure --tokenizer does; MB/s is
// of the texts counted.
func BenchmarkCount(b *testing.B) {
	data, err := benchcap.Generate(1000, 24, 1)
	if err != nil {
		b.Fatal(err)
	}
	c, err := toollist.OpenReader("gen.json", bytes.NewReader(data), toollist.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	size := 0
	for i := range c.Tools {
		t, err := c.ModelReadText(i)
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, string(t))
		size += len(t)
	}
	for _, name := range tokenize.Names {
		b.Run(name, func(b *testing.B) {
			tk, err := tokenize.Get(name)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(size))
			n := 0
			for b.Loop() {
				n = 0
				for _, s := range texts {
					n += tk.Count(s)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/token")
		})
	}
}
