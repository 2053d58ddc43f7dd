package budgets_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
)

// FuzzTSBudgets feeds the TypeScript reader any text: it never panics; on
// a file it reads, Update then Parse gives back the values written, an
// Update with the values the file holds changes no byte, and Insert adds
// budgets (to a block the file has, nested and new, and a new block) that
// read back at the values asked, keeping every budget the file held, or
// refuses with an *AddError or a "would break" error.
func FuzzTSBudgets(f *testing.F) {
	for _, tc := range tricky {
		f.Add([]byte(tc.src))
	}
	for _, tc := range inserts {
		f.Add([]byte(tc.src))
	}
	for _, tc := range twice {
		f.Add([]byte(tc.src))
	}
	f.Add([]byte("export const A = { a: 1, n: { b: 2_000 } } as const;\r\nexport default { c: 3 };\r\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := budgets.Parse("f.ts", src)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		held := file.Budgets()
		same := map[string]int64{}
		next := map[string]int64{}
		for _, b := range held {
			same[b.Name] = b.Value
			next[b.Name] = b.Value/2 + 1
		}
		data, _, err := file.Update(same)
		if err != nil || !bytes.Equal(data, src) {
			t.Fatalf("Update with the values held changed the file (%v)", err)
		}
		data, _, err = file.Update(next)
		if err != nil {
			t.Fatal(err)
		}
		g, err := budgets.Parse("f.ts", data)
		if err != nil {
			t.Fatalf("the updated file does not read: %v\n%q", err, data)
		}
		if got := g.Budgets(); len(got) != len(held) {
			t.Fatalf("%d budgets after Update, %d before", len(got), len(held))
		}
		for _, b := range g.Budgets() {
			if b.Value != next[b.Name] {
				t.Fatalf("%s = %d after Update, want %d", b.Name, b.Value, next[b.Name])
			}
		}
		add := map[string]int64{"FUZZ_BLOCK.a": 1, "FUZZ_BLOCK.n.b": 23_324}
		if len(held) > 0 {
			blk := held[0].Block()
			add[blk+".fuzz_added"] = 7
			add[blk+".fuzz_nested.x"] = 1_000
		}
		out, err := file.Insert(add)
		if err != nil {
			var ae *budgets.AddError
			if !errors.As(err, &ae) && !strings.Contains(err.Error(), "would") {
				t.Fatalf("Insert: %v", err)
			}
			return
		}
		h, err := budgets.Parse("f.ts", out)
		if err != nil {
			t.Fatalf("Insert gave a file that does not read: %v\n%q", err, out)
		}
		for name, v := range add {
			if b, ok := h.Get(name); !ok || b.Value != v {
				t.Fatalf("%s = %d, %v after Insert, want %d\n%s", name, b.Value, ok, v, out)
			}
		}
		for _, b := range held {
			if got, ok := h.Get(b.Name); !ok || got.Value != b.Value {
				t.Fatalf("%s = %d after Insert, was %d\n%s", b.Name, got.Value, b.Value, out)
			}
		}
	})
}
