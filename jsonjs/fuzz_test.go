package jsonjs_test

import (
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
)

// FuzzStringify feeds jsonjs and Node the same bytes and requires the same
// answer: decoded text, JSON.stringify's bytes, string lengths, or a
// refusal from both. The seed corpus (testdata/fuzz/FuzzStringify) holds
// the traps: integer-like and duplicate keys, escapes, lone surrogates,
// numbers at the edges, invalid UTF-8 of every class, whitespace JSON.parse
// refuses. Run it with `make fuzz`; a plain `go test` runs the seeds.
func FuzzStringify(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstNode(t, data, nodeoracle.Eval(t, data)[0])
	})
}
