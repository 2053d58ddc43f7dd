package jsonjs

import "testing"

// BenchmarkValidateFind is BenchmarkValidate's text checked by the pass
// that also finds result.tools and its elements.
func BenchmarkValidateFind(b *testing.B) {
	text := benchText(40)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ValidateFind(text, []string{"result"}, []string{"result", "tools"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMeasureValid is BenchmarkStringifyLenText's work, with the
// description bytes, on text already validated.
func BenchmarkMeasureValid(b *testing.B) {
	text := benchText(40)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if end, n, _ := MeasureValid(text, 0, "description"); end != len(text) || n == 0 {
			b.Fatal(end, n)
		}
	}
}
