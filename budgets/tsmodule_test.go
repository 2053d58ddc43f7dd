package budgets_test

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/nodeoracle"
)

// twice are budget files whose names are escaped or declared more than
// once: the module's value is not what a reader of the first declaration
// alone would see.
var twice = []struct{ name, src string }{
	{"escaped block name", "export const TOOL_LIST_\\u0054OKENS = { mcp: 1 } as const;\n"},
	{"escaped export name", "const L = { mcp: 1 } as const;\nexport { L as TOOL_LIST_\\u0054OKENS };\n"},
	{"escaped local name", "const \\u004c = { mcp: 1 } as const;\nexport { L as T };\n"},
	{"escaped braces", "export const \\u{54} = { mcp: 1 } as const;\n"},
	{"var twice", "export var T = { mcp: 1 };\nvar T = { mcp: 2 };\n"},
	{"let assigned", "export let T = { mcp: 1 };\nT = { mcp: 2 };\n"},
	{"var assigned a member", "export var T = { mcp: 1 };\nT.mcp = 2;\n"},
	{"local assigned", "let L = { mcp: 1 };\nL = { mcp: 2 };\nexport { L as T };\n"},
	{"escaped twice", "export var T = { mcp: 1 };\nvar \\u0054 = { mcp: 2 };\n"},
	{"proto key", "export const T = { __proto__: 3, mcp: 1 };\n"},
	{"quoted proto key", "export const T = { \"__proto__\": 3, mcp: 1 };\n"},
	{"var and function", "export var T = { mcp: 1 };\nfunction T() {}\n"},
	{"plain", "export const T = { mcp: 1, n: { a: 2 } } as const;\n"},
}

// mutate returns n files made from seeds by small random edits that change
// how a module reads: an escaped letter in a name, a second declaration,
// an assignment, a __proto__ key.
func mutate(seeds []string, n int) []string {
	r := rand.New(rand.NewPCG(35, 1))
	edits := []func(string) string{
		func(s string) string { // escape a capital letter of a name
			var at []int
			for i := 0; i < len(s); i++ {
				if s[i] >= 'A' && s[i] <= 'Z' && (i == 0 || s[i-1] != '\\') {
					at = append(at, i)
				}
			}
			if len(at) == 0 {
				return s
			}
			i := at[r.IntN(len(at))]
			return s[:i] + fmt.Sprintf(`\u%04X`, s[i]) + s[i+1:]
		},
		func(s string) string { return s + "\nexport var Z = { z: 1 };\nvar Z = { z: 2 };\n" },
		func(s string) string {
			return strings.Replace(s, "export const", "export let", 1) + "\n" + firstName(s) + " = { q: 5 };\n"
		},
		func(s string) string {
			return strings.Replace(s, "export const", "export var", 1) + "\n" + firstName(s) + ".q = 5;\n"
		},
		func(s string) string { return strings.Replace(s, "{\n", "{\n  __proto__: 7,\n", 1) },
		func(s string) string {
			return strings.Replace(s, "export const", "export var", 1) + "\nvar " + firstName(s) + " = { q: 6 };\n"
		},
	}
	var out []string
	for len(out) < n {
		s := seeds[r.IntN(len(seeds))]
		for k := 1 + r.IntN(2); k > 0; k-- {
			s = edits[r.IntN(len(edits))](s)
		}
		out = append(out, s)
	}
	return out
}

// firstName is the name of the first `export const NAME`, or "A".
func firstName(s string) string {
	_, rest, ok := strings.Cut(s, "export const ")
	if !ok {
		return "A"
	}
	end := strings.IndexAny(rest, " :=")
	if end <= 0 {
		return "A"
	}
	return rest[:end]
}

// TestTypeScriptAsTheModuleEvaluatesIt runs every test file (and files
// made from them by random edits) as the module it is, with Node, and
// holds budgets.Parse to the module's value: each budget read is the
// number the module exports under its name, a module that throws is
// refused, and a refusal is one line naming file:line.
func TestTypeScriptAsTheModuleEvaluatesIt(t *testing.T) {
	var srcs []string
	for _, tc := range tricky {
		srcs = append(srcs, tc.src)
	}
	for _, tc := range inserts {
		srcs = append(srcs, tc.src)
	}
	for _, tc := range twice {
		srcs = append(srcs, tc.src)
	}
	srcs = append(srcs, mutate(srcs, 300)...)
	files := make([]nodeoracle.TSFile, len(srcs))
	for i, s := range srcs {
		files[i] = nodeoracle.TSFile{Name: "b.ts", Text: s}
	}
	oracle := nodeoracle.ParseTS(t, files...)
	for i, src := range srcs {
		o := oracle[i]
		if len(o.Diagnostics) > 0 {
			continue // not TypeScript: no module to hold us to
		}
		f, err := budgets.Parse("b.ts", []byte(src))
		m := o.Module
		switch {
		case err != nil:
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "b.ts:") {
				t.Errorf("file %d: refusal is not one line naming file:line: %q\n%s", i, err, src)
			}
			continue
		case m.Error == "require", strings.HasSuffix(m.Error, " is not defined"):
			continue // imports another module, or reads a global only declared: its value is not the file's alone
		case m.Error != "":
			t.Errorf("file %d: the module throws (%s); Parse read it\n%s", i, m.Error, src)
			continue
		}
		var bad []string
		for _, b := range f.Budgets() {
			if v, ok := m.Values[b.Name]; !ok || v != float64(b.Value) {
				bad = append(bad, fmt.Sprintf("%s=%d (module: %v)", b.Name, b.Value, moduleValue(m, b.Name)))
			}
		}
		if len(bad) > 0 {
			sort.Strings(bad)
			t.Errorf("file %d: Parse read what the module does not hold: %s\n%s", i, strings.Join(bad, ", "), src)
		}
	}
}

func moduleValue(m nodeoracle.TSModule, name string) string {
	if v, ok := m.Values[name]; ok {
		return fmt.Sprint(v)
	}
	return "absent"
}

// TestTwiceRefusedEscapesDecoded holds the files of twice to what they
// must give: an escaped name read as its letters, a name declared or
// changed twice refused with both lines, __proto__ refused as a key.
func TestTwiceRefusedEscapesDecoded(t *testing.T) {
	want := map[string]string{
		"escaped block name":    "TOOL_LIST_TOKENS.mcp=1@1",
		"escaped export name":   "TOOL_LIST_TOKENS.mcp=1@1",
		"escaped local name":    "T.mcp=1@1",
		"escaped braces":        "T.mcp=1@1",
		"plain":                 "T.mcp=1@1 T.n.a=2@1",
		"var twice":             "b.ts:2: T is declared twice (first at line 1)",
		"let assigned":          "b.ts:2: T is changed after its declaration (line 1)",
		"var assigned a member": "b.ts:2: T is changed after its declaration (line 1)",
		"local assigned":        "b.ts:2: L is changed after its declaration (line 1)",
		"escaped twice":         "b.ts:2: T is declared twice (first at line 1)",
		"proto key":             "b.ts:1: T: __proto__ is not a budget key",
		"quoted proto key":      "b.ts:1: T: __proto__ is not a budget key",
		"var and function":      "b.ts:1: T is declared twice (first at line 2, a function)",
	}
	for _, tc := range twice {
		got, err := ours(t, "b.ts", tc.src)
		text := sortedNames(got)
		if err != nil {
			text = err.Error()
		}
		if !strings.HasPrefix(text, want[tc.name]) || want[tc.name] == "" {
			t.Errorf("%s: %s, want %s", tc.name, text, want[tc.name])
		}
	}
}

// TestUpdateEscapedNameAsTheModuleReadsIt updates a file whose block name
// is escaped: the block is the one the update writes into (no second
// TOOL_LIST_TOKENS is appended), and the module Node runs holds the new
// numbers.
func TestUpdateEscapedNameAsTheModuleReadsIt(t *testing.T) {
	for _, src := range []string{
		"export const TOOL_LIST_\\u0054OKENS = {\n  mcp: 1,\n} as const;\n",
		"const L = {\n  mcp: 1,\n} as const;\nexport { L as TOOL_LIST_\\u0054OKENS };\n",
	} {
		f, err := budgets.Parse("b.ts", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		data, _, err := f.Update(map[string]int64{"TOOL_LIST_TOKENS.mcp": 5})
		if err != nil {
			t.Fatal(err)
		}
		if f, err = budgets.Parse("b.ts", data); err != nil {
			t.Fatal(err)
		}
		if data, err = f.Insert(map[string]int64{"TOOL_LIST_TOKENS.connect": 6}); err != nil {
			t.Fatal(err)
		}
		o := nodeoracle.ParseTS(t, nodeoracle.TSFile{Name: "b.ts", Text: string(data)})[0]
		if o.Module.Error != "" || o.Module.Values["TOOL_LIST_TOKENS.mcp"] != 5 || o.Module.Values["TOOL_LIST_TOKENS.connect"] != 6 || strings.Count(string(data), "OKENS") != 1 {
			t.Errorf("updated:\n%s\nmodule: %+v", data, o.Module)
		}
	}
}
