package toollist

import (
	"fmt"
	"io"
	"strings"
	"testing"
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
		c, err := Parse("bench.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Measure(c); err != nil {
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

// benchWords is a words file for genCapture's tools: a new description for
// every tenth tool, and a new field description for every twentieth.
func benchWords(n int) *Words {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n; i += 10 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"tool_%05d":"Take the next task."`, i)
		if i%20 == 0 {
			fmt.Fprintf(&b, `,"tool_%05d:/properties/note/description":"A note."`, i)
		}
	}
	b.WriteString("}")
	w, err := ParseWords("words.json", []byte(b.String()))
	if err != nil {
		panic(err)
	}
	return w
}

// BenchmarkWhatIf is each what-if on its own, all three together, and all
// three writing the capture after them, on the 10,000-tool capture once
// read: the one pass over the tools' text that transforms and measures.
func BenchmarkWhatIf(b *testing.B) {
	data := genCapture(10000)
	c, err := Parse("bench.json", data)
	if err != nil {
		b.Fatal(err)
	}
	w := benchWords(10000)
	for _, bc := range []struct {
		name  string
		ts    func() []Transform
		write bool
	}{
		{"lean", func() []Transform { return []Transform{Lean()} }, false},
		{"drop", func() []Transform { return []Transform{DropEmptyOutputSchemas()} }, false},
		{"words", func() []Transform { return []Transform{w.Transform()} }, false},
		{"all", func() []Transform { return []Transform{Lean(), DropEmptyOutputSchemas(), w.Transform()} }, false},
		{"all-write", func() []Transform { return []Transform{Lean(), DropEmptyOutputSchemas(), w.Transform()} }, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var out io.Writer
				if bc.write {
					out = io.Discard
				}
				if _, err := WhatIf(c, bc.ts(), out); err != nil {
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
		c, err := Parse("bench.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Measure(c); err != nil {
			b.Fatal(err)
		}
		if _, err := WhatIf(c, []Transform{Lean(), DropEmptyOutputSchemas()}, nil); err != nil {
			b.Fatal(err)
		}
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
	c, err := Parse("g", big)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Measure(c)
	if err != nil {
		t.Fatal(err)
	}
	if f.Tools != 10000 || f.Longest.Tool != "tool_01000" {
		t.Errorf("tools %d, longest %+v", f.Tools, f.Longest)
	}
}
