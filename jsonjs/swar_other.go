//go:build !amd64

package jsonjs

// plainRun returns the index of the first byte at or after i that ends a
// run of plain string bytes: a quote, a backslash or a control character.
func plainRun(b []byte, i int) int { return plainRunSWAR(b, i) }
