package toollist_test

import (
	"bytes"
	"testing"

	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/toollist"
)

// BenchmarkFinders profiles bench/gencapture's 1,000-tool capture with
// shared definitions and repeated subschemas, and applies the two finders.
func BenchmarkFinders(b *testing.B) {
	data := benchcap.GenerateDefs(1000, 1)
	c, err := toollist.OpenReader("defs.json", bytes.NewReader(data), toollist.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.Run("profile", func(b *testing.B) {
		for b.Loop() {
			if _, err := toollist.ProfileBytes(c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("drop_unused_defs", func(b *testing.B) {
		for b.Loop() {
			if _, err := toollist.SavingsOf(c, toollist.DropUnusedDefs()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hoist_repeated", func(b *testing.B) {
		for b.Loop() {
			if _, err := toollist.SavingsOf(c, toollist.HoistRepeated()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
