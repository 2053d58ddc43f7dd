package jsonjs

import (
	"fmt"
	"strings"
	"testing"
)

// benchText builds a tool list of n tools shaped like a real one.
func benchText(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"Reads the thing number %d and says what it found, with \"quotes\" and caf\u00e9.","inputSchema":{"type":"object","properties":{"space":{"type":"string","description":"The space's name."},"limit":{"type":"integer","minimum":1,"maximum":9007199254740991},"kind":{"type":"string","enum":["a","b","c"]}},"required":["space"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}}`, i, i)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	text := benchText(40)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	text := benchText(40)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if err := Validate(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStringify(b *testing.B) {
	text := benchText(40)
	v, err := Parse(text)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	buf := make([]byte, 0, len(text))
	for b.Loop() {
		buf = AppendStringify(buf[:0], v)
	}
}

// BenchmarkChecker checks the 40-tool list as it would arrive from a
// socket, in 4 KB pieces, against Validate on the whole text above.
func BenchmarkChecker(b *testing.B) {
	text := benchText(40)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		var c Checker
		for rest := text; len(rest) > 0; {
			n := min(len(rest), 4096)
			c.Write(rest[:n])
			rest = rest[n:]
		}
		if !c.Valid() {
			b.Fatal("not valid")
		}
	}
}

// BenchmarkCheckerProse checks, in 4 KB pieces, a 40-tool list whose
// descriptions are long prose (300 bytes each), as most real ones are.
func BenchmarkCheckerProse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"tools":[`)
	for i := range 40 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"name":"tool_%d","description":"%s","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"What to look for."}}}}`, i, strings.Repeat("Reads a thing. ", 20))
	}
	sb.WriteString(`]}}`)
	text := []byte(sb.String())
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		var c Checker
		for rest := text; len(rest) > 0; {
			n := min(len(rest), 4096)
			c.Write(rest[:n])
			rest = rest[n:]
		}
		if !c.Valid() {
			b.Fatal("not valid")
		}
	}
}
