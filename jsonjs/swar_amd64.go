package jsonjs

// plainRunSSE2 is plainRun in assembly (swar_amd64.s).
//
//go:noescape
func plainRunSSE2(b []byte, i int) int

// plainRun returns the index of the first byte at or after i that ends a
// run of plain string bytes: a quote, a backslash or a control character.
// Sixteen bytes at a time, with SSE2.
func plainRun(b []byte, i int) int { return plainRunSSE2(b, i) }
