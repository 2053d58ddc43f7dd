package budgets_test

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/nodeoracle"
)

// tricky are TypeScript budget files that a reader without a real lexer
// reads wrong: every one is valid TypeScript, and what the TypeScript
// compiler's parser sees in its budget blocks is what budgets.Parse must
// read (or refuse, where the parser's tree says it cannot be read for
// sure).
var tricky = []struct{ name, src string }{
	{"export let", "export let A = {\n  a: 1,\n};\n"},
	{"export var", "export var A = {\n  a: 1,\n};\n"},
	{"export later", "const A = {\n  a: 1_000,\n} as const;\nexport { A };\n"},
	{"export later under another name", "const LOCAL = {\n  a: 1,\n  n: { b: 2 },\n} as const;\nexport { LOCAL as A };\n"},
	{"export default", "export default {\n  a: 1,\n};\n"},
	{"export as default", "const A = { a: 1 };\nexport { A as default };\n"},
	{"export default a name", "const A = { a: 1 };\nexport default A;\n"},
	{"not exported", "const A = { a: 1 };\nexport const B = { b: 2 };\n"},
	{"two declarators", "export const A = { a: 1 }, B = {\n  b: 2,\n};\n"},
	{"regex after a function's }", "function f(s: string) { return s; }\n/`/.test(\"a\");\nexport const A = {\n  a: 1,\n} as const;\n// `\n"},
	{"regex after an if's )", "declare const x: boolean;\nif (x) /'/.test(\"a\");\nexport const A = {\n  a: 1,\n};\n"},
	{"regex after a block and a class", "class C { m() { return 1; } }\n/\"/g.exec(\"\");\n{ }\n/[/`]/.test('');\nexport const A = { a: 1 };\n"},
	{"regex after an arrow body", "const f = () => {}\n/`/.test('')\nexport const A = { a: 1 };\n"},
	{"division after an object", "const o = { v: 4 }\nconst d = o.v / 2 / 1;\nconst e = ({ v: 1 }).v / 2;\nexport const A = { a: 1 };\n"},
	{"division after a non-null assertion", "declare const n: number | undefined;\nconst q = n! / 2 / 1;\nexport const A = { a: 1 };\n"},
	{"division after a call and an index", "const arr = [1];\nconst x = Math.max(1) / 2 / arr[0];\nexport const A = { a: 1 };\n"},
	{"template with nested substitutions", "const t = `a ${`b ${ { c: `}` }.c } d`} ${'`'} }{`;\nexport const A = {\n  a: 1,\n};\n"},
	{"lone CR lines", "// one\r// two\rexport const A = {\r  a: 1,\r  b: 2,\r} as const;\r"},
	{"CRLF lines", "// one\r\nexport const A = {\r\n  a: 1,\r\n  b: 2,\r\n} as const;\r\n"},
	{"LS and PS lines", "// one\u2028// two\u2029export const A = {\n  a: 1,\u2028  b: 2,\n} as const;\n"},
	{"quoted dotted key", "export const A = {\n  \"http.create\": 1,\n  http: { entry: 2 },\n} as const;\n"},
	{"commented-out block", "// export const A = { a: 1 };\n/* export const B = { b: 2 }; */\nexport const C = { c: 3 };\n"},
	{"second block without budgets", "export const A = {\n  a: 1,\n};\nconst B = { b: 'x' };\nexport { B as A };\n"},
	{"spread", "const BASE = { x: 1 };\nexport const A = {\n  ...BASE,\n  a: 1,\n};\n"},
	{"computed key", "const K = 'k';\nexport const A = {\n  [K]: 1,\n  a: 1,\n};\n"},
	{"shorthand", "const b = 2;\nexport const A = {\n  a: 1,\n  b,\n};\n"},
	{"an expression", "export const A = {\n  a: 1,\n  b: 2 * 1_000,\n};\n"},
	{"only expressions", "export const A = {\n  b: 2 * 1_000,\n};\nexport const B = { b: 2 };\n"},
	{"strings beside numbers", "export const A = {\n  a: 1,\n  w: 'x',\n};\n"},
	{"separators and satisfies", "export const A = {\n  a: 23_324,\n  b: 1_000_000,\n} as const satisfies Record<string, number>;\n"},
	{"type annotation with commas", "export const A: Readonly<Record<string, number>> = {\n  a: 1,\n};\n"},
	{"nested as const", "export const A = {\n  http: { create: 2696, entry: 1129 } as const,\n  calls: 4,\n};\n"},
	{"numeric and escaped keys", "export const A = {\n  1_000: 5,\n  0x10: 6,\n  \\u0061bc: 7,\n  'q\\x75ote': 8,\n};\n"},
	{"hashbang", "#!/usr/bin/env node\nexport const A = {\n  a: 1,\n};\n"},
	{"BOM", "\uFEFF// x\nexport const A = {\n  a: 1,\n};\n"},
	{"generics at the top", "const m = new Map<string, number>();\nexport const A = { a: m.size + 1 > 0 ? 1 : 2 } as const;\nexport const B = { b: 1 };\n"},
	{"enum and namespace", "export const enum E { X = 1 }\nexport namespace N { export const y = 1; }\nexport const A = { a: 1 };\n"},
	{"label and case braces", "declare const k: number;\nswitch (k) { case 1: { break; } default: {} }\nlbl: { }\n/`/.test('')\nexport const A = { a: 1 };\n"},
	{"conditional with objects", "declare const c: boolean;\nconst v = c ? { a: 1 } : { b: 2 };\nexport const A = { a: 1 };\n"},
	{"re-export and imports", "import { X as Y } from './x';\nimport type { T } from './t';\nexport { Z } from './z';\nexport * from './w';\nexport const A = { a: 1 };\n"},
	{"the service's layout", layout},
}

// layout is our own budget file in the layout of the service's
// src/surface/first-task.ts: header comments, doc comments, `_`
// separators, as const, one-line nested objects and a one-line block.
const layout = `// What an agent reads on its first task, in tokens (bytes / 3).
//
// Each budget is what its walk reads today, nothing to spare.

/** Each way in. */
export const FIRST_TASK_TOKENS = {
  /** The plugin, at /mcp. */
  plugin: 15_629,
  /** A connector client. */
  connector: 14_993,
  http: 2_704,
  /** A start over HTTP. One job each:
   * tasks, research, coordination. */
  start_tasks: 1_870,
  start_research: 2_657,
} as const;

/**
 * What a model reads of the tool list at each address.
 */
export const TOOL_LIST_TOKENS = {
  mcp: 8_780,
  connect: 9_036,
} as const;

/** A proposal's routine: its calls, and the bytes its two writes answer. */
export const PROPOSAL_ROUTINE = {
  /** Calls, both reads of the first round counted. */
  calls: 4,
  /** Over HTTP. */
  http: { create: 1813, entry: 701 },
  /** Through the connector. */
  connector: { create: 3822 },
} as const;

/** The survey of proposals: spaces, calls and bytes. */
export const SURVEY_BUDGET = { spaces: 20, calls: 2, bytes: 30_231 } as const;
`

// ours returns what budgets.Parse reads, in the oracle's shape.
func ours(t *testing.T, name, src string) (map[string][2]int64, error) {
	t.Helper()
	f, err := budgets.Parse(name, []byte(src))
	if err != nil {
		return nil, err
	}
	got := map[string][2]int64{}
	for _, b := range f.Budgets() {
		got[b.Name] = [2]int64{b.Value, int64(b.Line)}
	}
	return got, nil
}

func sortedNames(m map[string][2]int64) string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s=%d@%d", k, v[0], v[1]))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestTypeScriptAsTheCompilerReadsIt holds budgets.Parse to the
// TypeScript compiler's parser over the tricky files: the same budgets,
// values and lines, or a refusal where the tree holds what cannot be read
// for sure.
func TestTypeScriptAsTheCompilerReadsIt(t *testing.T) {
	files := make([]nodeoracle.TSFile, len(tricky))
	for i, tc := range tricky {
		files[i] = nodeoracle.TSFile{Name: "b.ts", Text: tc.src}
	}
	oracle := nodeoracle.ParseTS(t, files...)
	for i, tc := range tricky {
		t.Run(tc.name, func(t *testing.T) {
			o := oracle[i]
			if len(o.Diagnostics) > 0 {
				t.Fatalf("not valid TypeScript: %+v", o.Diagnostics)
			}
			got, err := ours(t, "b.ts", tc.src)
			switch {
			case o.Refused != "" && err == nil:
				t.Fatalf("TypeScript's tree holds what cannot be read for sure (%s); Parse read %s", o.Refused, sortedNames(got))
			case o.Refused != "":
				if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "b.ts:") {
					t.Errorf("refusal is not one line naming file:line: %q", err)
				}
				return
			case err != nil:
				t.Fatalf("Parse: %v; TypeScript reads %s", err, sortedNames(o.Budgets))
			}
			if sortedNames(got) != sortedNames(o.Budgets) {
				t.Errorf("Parse read\n  %s\nTypeScript\n  %s", sortedNames(got), sortedNames(o.Budgets))
			}
		})
	}
}

// inserts are budget files and the budgets an --update adds to them: keys
// at every depth, objects and blocks the file lacks, in every style.
var inserts = []struct {
	name, src string
	values    map[string]int64
}{
	{"the service's layout", layout, map[string]int64{
		"PROPOSAL_ROUTINE.connector.entry": 1508, "FIRST_TASK_TOKENS.start_coordinate": 2306,
		"SURVEY_BUDGET.pages": 1, "DOCUMENT_TOKENS.primer": 1125, "DOCUMENT_TOKENS.reference": 4294,
		"TOOL_LIST_TOKENS.tasks": 6565, "NEW_ROUTINE.http.create": 5, "NEW_ROUTINE.calls": 3,
		"PROPOSAL_ROUTINE.mcp.create": 7, "FIRST_TASK_TOKENS.toolset_tasks": 12_225,
	}},
	{"CRLF", strings.ReplaceAll(layout, "\n", "\r\n"), map[string]int64{"PROPOSAL_ROUTINE.connector.entry": 1, "X.y": 2, "TOOL_LIST_TOKENS.z": 3}},
	{"lone CR", strings.ReplaceAll(layout, "\n", "\r"), map[string]int64{"PROPOSAL_ROUTINE.connector.entry": 1, "X.y": 2}},
	{"export let and no trailing comma", "export let A = {\n  a: 1\n}\n", map[string]int64{"A.b": 2, "A.n.c": 3}},
	{"exported later", "const A = {\n  a: 1,\n} as const;\nexport { A as B };\n", map[string]int64{"B.b": 2, "C.c": 3}},
	{"export default", "export default {\n  a: 1,\n};\n", map[string]int64{"default.b": 2}},
	{"comment after the last member", "export const A = {\n  a: 1 // one\n};\n", map[string]int64{"A.b": 2}},
	{"comment after the comma", "export const A = {\n  a: 1, /* one */ // two\n  // trailing\n};\n", map[string]int64{"A.b": 2}},
	{"empty block", "export const A = {} as const;\n", map[string]int64{"A.b": 2, "A.n.m": 1}},
	{"empty nested object", "export const A = {\n  n: {},\n};\n", map[string]int64{"A.n.b": 2}},
	{"quoted keys", "export const A = {\n  'a': 1,\n  'b-c': 2,\n};\n", map[string]int64{"A.d": 4, "A.e f": 5}},
	{"tabs", "export const A = {\n\ta: 1,\n\tn: {\n\t\tb: 2,\n\t},\n};\n", map[string]int64{"A.n.c": 3, "A.m.d": 4}},
	{"commented-out block", "// export const A = { a: 1 };\n", map[string]int64{"A.a": 2}},
	{"no final line end", "export const A = { a: 1 }", map[string]int64{"B.b": 2}},
	{"regex before the block", "function f() {}\n/`/.test('')\nexport const A = {\n  a: 1,\n};\n", map[string]int64{"A.b": 2, "B.c": 1}},
	{"a mark", "// $server: twin\n", map[string]int64{"A.b": 2}},
}

// TestInsertAsTheCompilerReadsIt adds budgets to each file and wants the
// TypeScript compiler's parser to read the result without a syntax error,
// with exactly the budgets asked and the ones the file held; a second
// update with the same numbers changes no byte.
func TestInsertAsTheCompilerReadsIt(t *testing.T) {
	var files []nodeoracle.TSFile
	var outs [][]byte
	for _, tc := range inserts {
		f, err := budgets.Parse("b.ts", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		out, err := f.Insert(tc.values)
		if err != nil {
			t.Fatalf("%s: Insert: %v", tc.name, err)
		}
		g, err := budgets.Parse("b.ts", out)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		again, _, err := g.Update(tc.values)
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: a second update with the same numbers changed the file (%v):\n%s\n%s", tc.name, err, out, again)
		}
		if again, err := g.Insert(tc.values); err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: a second insert changed the file (%v)", tc.name, err)
		}
		files = append(files, nodeoracle.TSFile{Name: "b.ts", Text: string(out)})
		outs = append(outs, out)
	}
	oracle := nodeoracle.ParseTS(t, files...)
	for i, tc := range inserts {
		o := oracle[i]
		if len(o.Diagnostics) > 0 || o.Refused != "" {
			t.Errorf("%s: TypeScript: %+v %s\n%s", tc.name, o.Diagnostics, o.Refused, outs[i])
			continue
		}
		for name, v := range tc.values {
			if got, ok := o.Budgets[name]; !ok || got[0] != v {
				t.Errorf("%s: TypeScript reads %s = %v, asked %d\n%s", tc.name, name, got, v, outs[i])
			}
		}
		before, _ := ours(t, "b.ts", tc.src)
		for name, b := range before {
			if got := o.Budgets[name]; got[0] != b[0] {
				t.Errorf("%s: %s was %d, TypeScript reads %d after\n%s", tc.name, name, b[0], got[0], outs[i])
			}
		}
		after, err := ours(t, "b.ts", string(outs[i]))
		if err != nil || sortedNames(after) != sortedNames(o.Budgets) {
			t.Errorf("%s: Parse reads\n  %s (%v)\nTypeScript\n  %s", tc.name, sortedNames(after), err, sortedNames(o.Budgets))
		}
		if crlf := strings.Contains(tc.src, "\r\n"); crlf && bytes.Count(outs[i], []byte("\r\n")) != bytes.Count(outs[i], []byte("\n")) {
			t.Errorf("%s: a CRLF file got other line ends:\n%q", tc.name, outs[i])
		}
	}
}
