package budgets

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// noise is TypeScript that holds no budget but looks like one to a reader
// that does not lex: braces, quotes and `export const` inside strings,
// comments, template literals and regular expressions.
var noise = []string{
	"// export const FAKE = { x: 1 };\n",
	"/* export const FAKE = { x: 1 }; } { */\n",
	"/** A doc comment: { and } and \" and ' and ` */\n",
	"const s1 = \"export const FAKE = { x: 1 }\";\n",
	"const s2 = 'a } b { c \\' d';\n",
	"const t1 = `export const FAKE = { x: ${1 + 2} }`;\n",
	"const t2 = `${`${ { a: '}' }.a }`}{`;\n",
	"const r1 = /export const FAKE = \\{ x: 1 \\}/g;\n",
	"const r2 = /[{}'\"`/]+/;\n",
	"const q = a / b / c;\n",
	"function f(x: { y: number }): number { return x.y / 2; }\n",
	"export const WORDS = { hello: \"{ 1 }\", n: 2 };\n",
	"export const LIMIT = 5;\n",
	"import { type A } from \"./a.ts\";\n",
	"export default { fake: \"1\" };\n",
	"if (x) { const inner = { y: 1 }; }\n",
}

// TestGeneratedFiles builds files of noise and budget blocks with known
// values, in many shapes, and checks that the reader finds exactly the
// budgets put in, at their lines, and that Update rewrites them all.
func TestGeneratedFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for n := range 300 {
		var b strings.Builder
		want := map[string]int64{}
		lines := map[string]int{}
		line := 1
		write := func(s string) {
			b.WriteString(s)
			line += strings.Count(s, "\n")
		}
		used := map[int]bool{} // a declaration's noise once: a name twice is refused
		for blk := range rng.IntN(4) + 1 {
			for range rng.IntN(4) {
				k := rng.IntN(len(noise))
				if used[k] {
					continue
				}
				used[k] = true
				write(noise[k])
			}
			name := fmt.Sprintf("BLOCK_%d", blk)
			write("export const " + name + " = {\n")
			for k := range rng.IntN(5) + 1 {
				if rng.IntN(3) == 0 {
					write("  /** Key " + fmt.Sprint(k) + ": a } in a doc. */\n")
				}
				key := fmt.Sprintf("k%d", k)
				if rng.IntN(4) == 0 {
					key = fmt.Sprintf("\"k-%d\"", k)
				}
				v := rng.Int64N(1_000_000)
				full := name + "." + strings.Trim(key, "\"")
				want[full] = v
				lines[full] = line
				if rng.IntN(5) == 0 { // a nested object on one line
					write(fmt.Sprintf("  %s: { inner: %s },\n", key, formatInt(v, rng.IntN(2) == 0)))
					want[full+".inner"] = v
					lines[full+".inner"] = lines[full]
					delete(want, full)
					delete(lines, full)
					continue
				}
				write(fmt.Sprintf("  %s: %s, // was %d\n", key, formatInt(v, rng.IntN(2) == 0), v+1))
			}
			write([]string{"} as const;\n", "};\n", "}\n"}[rng.IntN(3)])
		}
		src := b.String()
		f, err := Parse("gen.ts", []byte(src))
		if err != nil {
			t.Fatalf("file %d: %v\n%s", n, err, src)
		}
		got := map[string]int64{}
		for _, bg := range f.Budgets() {
			got[bg.Name] = bg.Value
			if bg.Line != lines[bg.Name] {
				t.Fatalf("file %d: %s at line %d, want %d\n%s", n, bg.Name, bg.Line, lines[bg.Name], src)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("file %d: read %v, want %v\n%s", n, got, want, src)
		}
		next := map[string]int64{}
		for k, v := range want {
			next[k] = v/2 + 7
		}
		data, _, err := f.Update(next)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Parse("gen.ts", data)
		if err != nil {
			t.Fatalf("file %d: updated file does not read: %v", n, err)
		}
		for _, bg := range again.Budgets() {
			if bg.Value != next[bg.Name] {
				t.Fatalf("file %d: %s = %d after Update, want %d", n, bg.Name, bg.Value, next[bg.Name])
			}
		}
	}
}
