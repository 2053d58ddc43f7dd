package toollist

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/benchcap"
)

// genCapture builds a JSON-RPC tools/list answer of n tools, each about a
// kilobyte: a description, an input schema with field descriptions,
// $schema and a safe-integer maximum, and an output schema.
func genCapture(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":2,"result":{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%05d","title":"Tool %d","description":"Take the next task of a space, or mark one done. Actions: next (take the next open task for your role), done (mark a task done once its result is posted), show (read one task). A task is done only when its result post names it; « fait » means done. Tool %d of the list.",`+
			`"inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"action":{"type":"string","enum":["next","done","show"],"description":"What to do: next, done or show."},"space":{"type":"string","description":"The space's id, as the spaces tool lists it."},"number":{"type":"integer","minimum":1,"maximum":9007199254740991,"description":"The task's number in its space."},"note":{"type":"string","description":"A note kept with the task, \u00e9 \ud83d\ude00."}},"required":["action","space"],"additionalProperties":false},`+
			`"outputSchema":{"type":"object","properties":{"task":{"type":"object"}},"$schema":"http://json-schema.org/draft-07/schema#"},"annotations":{"readOnlyHint":false}}`, i, i, i)
	}
	b.WriteString("]}}\n")
	return []byte(b.String())
}

func benchMeasure(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c, err := parseCapture("bench.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := measure(c, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMeasure measures a small real-sized capture (about 40 KB) and a
// generated 10,000-tool capture (about 10 MB).
func BenchmarkMeasure(b *testing.B) {
	b.Run("40KB", func(b *testing.B) { benchMeasure(b, genCapture(40)) })
	b.Run("10000tools", func(b *testing.B) { benchMeasure(b, genCapture(10000)) })
}

// benchCapture is bench/gencapture's 10,000-tool capture, the one
// bench/compare.sh times against Node.
func benchCapture(b *testing.B) []byte {
	data, err := benchcap.Generate(10000, 24, 1)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// benchCaptureWords is a words file for benchCapture's tools: a new
// description for every tenth tool, and a new text for the first field's
// description of every twentieth.
func benchCaptureWords(b *testing.B, c *Capture) *Words {
	var buf strings.Builder
	buf.WriteString("{")
	for i := 0; i < len(c.Tools); i += 10 {
		tool, err := c.tool(i)
		if err != nil {
			b.Fatal(err)
		}
		name, _ := toolLabel(tool, i)
		if i > 0 {
			buf.WriteString(",")
		}
		fmt.Fprintf(&buf, `%q:"Take the next task."`, name)
		if i%20 == 0 {
			s, _ := tool.Get("inputSchema")
			props, _ := s.Get("properties")
			field := props.Members()[0].Key
			fmt.Fprintf(&buf, `,%q:"A note."`, name+":/properties/"+field+"/description")
		}
	}
	buf.WriteString("}")
	w, err := ParseWords("words.json", []byte(buf.String()))
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// whatIfCases are the what-ifs benchmarked: each alone and the three
// together.
func whatIfCases(w *Words) []struct {
	name string
	ts   func() []Transform
} {
	return []struct {
		name string
		ts   func() []Transform
	}{
		{"lean", func() []Transform { return []Transform{Lean()} }},
		{"drop", func() []Transform { return []Transform{DropEmptyOutputSchemas()} }},
		{"words", func() []Transform { return []Transform{w.Transform()} }},
		{"all", func() []Transform { return []Transform{Lean(), DropEmptyOutputSchemas(), w.Transform()} }},
	}
}

// BenchmarkWhatIf is the what-if pass alone over bench/gencapture's
// 10,000-tool capture once read: each what-if alone and the three
// together, measuring only and writing the capture after them (what
// measure --write does, on every core).
func BenchmarkWhatIf(b *testing.B) {
	data := benchCapture(b)
	c, err := parseCapture("bench.json", data)
	if err != nil {
		b.Fatal(err)
	}
	w := benchCaptureWords(b, c)
	for _, bc := range whatIfCases(w) {
		for _, write := range []bool{false, true} {
			name := bc.name
			if write {
				name += "-write"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					var out io.Writer
					if write {
						out = io.Discard
					}
					if _, err := whatIf(c, nil, bc.ts(), out); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkReadWith is what measure --json does in process with each
// what-if on bench/gencapture's 10,000-tool capture, from its bytes: read
// it, measure it and apply the what-ifs in the same pass (Open's);
// "none" reads and measures only.
func BenchmarkReadWith(b *testing.B) {
	data := benchCapture(b)
	c, err := parseCapture("bench.json", data)
	if err != nil {
		b.Fatal(err)
	}
	w := benchCaptureWords(b, c)
	cases := append(whatIfCases(w)[:0:0], struct {
		name string
		ts   func() []Transform
	}{"none", func() []Transform { return nil }})
	for _, bc := range append(cases, whatIfCases(w)...) {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := openBytes("bench.json", data, Options{Transforms: bc.ts()}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLean is what measure --lean --drop-empty-output-schemas does in
// process on the 10,000-tool capture: read it, measure it, and the
// what-ifs.
func BenchmarkLean(b *testing.B) {
	data := genCapture(10000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c, err := parseCapture("bench.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := measure(c, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := whatIf(c, nil, []Transform{Lean(), DropEmptyOutputSchemas()}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadMapped is what measure --json does with bench/gencapture's
// 10,000-tool capture saved in a file, as measure reads it: mapped (every
// pass guarded against the file changing), read and measured, then with
// the lean what-if, and writing the capture after it.
func BenchmarkReadMapped(b *testing.B) {
	data := benchCapture(b)
	path := filepath.Join(b.TempDir(), "bench.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		ts    []Transform
		write bool
	}{{"none", nil, false}, {"lean", []Transform{Lean()}, false}, {"lean-write", []Transform{Lean()}, true}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				o := Options{Transforms: bc.ts}
				if bc.write {
					o.Write = io.Discard
				}
				c, err := Open(path, o)
				if err != nil {
					b.Fatal(err)
				}
				c.Close()
			}
		})
	}
}

// TestGenCapture keeps the benchmark's captures at the sizes they claim
// and measurable (the first tool with a four-digit number has the longest
// description).
func TestGenCapture(t *testing.T) {
	small := genCapture(40)
	if len(small) < 35_000 || len(small) > 45_000 {
		t.Errorf("40 tools: %d bytes, want about 40 KB", len(small))
	}
	big := genCapture(10000)
	if len(big) < 9_000_000 || len(big) > 11_000_000 {
		t.Errorf("10,000 tools: %d bytes, want about 10 MB", len(big))
	}
	c, err := parseCapture("g", big)
	if err != nil {
		t.Fatal(err)
	}
	f, err := measure(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Tools != 10000 || f.Longest.Tool != "tool_01000" {
		t.Errorf("tools %d, longest %+v", f.Tools, f.Longest)
	}
}

// BenchmarkBatchLean is what a worker of the validating pass does with
// the lean what-if on bench/gencapture's 10,000-tool capture: each tool
// measured and walked through Lean at once, on one goroutine.
func BenchmarkBatchLean(b *testing.B) {
	data := genCapture(10000)
	c, err := parseCapture("bench.json", data)
	if err != nil {
		b.Fatal(err)
	}
	ts := []Transform{Lean()}
	r := newWorker(ts, stagesOf(ts))
	figs := make([]ToolFigures, len(c.Tools))
	scans := make([]scanned, len(c.Tools))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		r.run(0, c.Tools, figs, scans, false, nil, nil)
	}
}
