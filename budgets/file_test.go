package budgets

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func load(t *testing.T, path string) *File {
	t.Helper()
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestLoadTypeScript(t *testing.T) {
	f := load(t, "testdata/first-task.ts")
	if f.Format != TypeScript {
		t.Errorf("Format = %v", f.Format)
	}
	p := "testdata/first-task.ts"
	want := []Budget{
		{"FIRST_TASK_TOKENS.plugin", 23324, p, 11},
		{"FIRST_TASK_TOKENS.connector", 19490, p, 13},
		{"FIRST_TASK_TOKENS.http", 6266, p, 15},
		{"FIRST_TASK_TOKENS.start_tasks", 2846, p, 18},
		{"FIRST_TASK_TOKENS.start_research", 2885, p, 19},
		{"FIRST_TASK_TOKENS.start_coordinate", 2902, p, 20},
		{"FIRST_TASK_TOKENS.toolset_tasks", 13958, p, 22},
		{"FIRST_TASK_TOKENS.toolset_research", 14960, p, 23},
		{"FIRST_TASK_TOKENS.toolset_coordinate", 18172, p, 24},
		{"TOOL_LIST_TOKENS.mcp", 13724, p, 44},
		{"TOOL_LIST_TOKENS.connect", 14125, p, 45},
		{"TOOL_LIST_TOKENS.tasks", 9033, p, 46},
		{"TOOL_LIST_TOKENS.research", 8869, p, 47},
		{"TOOL_LIST_TOKENS.coordinate", 12441, p, 48},
		{"PROPOSAL_ROUTINE.calls", 4, p, 54},
		{"PROPOSAL_ROUTINE.http.create", 2696, p, 56},
		{"PROPOSAL_ROUTINE.http.entry", 1129, p, 56},
		{"PROPOSAL_ROUTINE.connector.create", 4505, p, 58},
		{"PROPOSAL_ROUTINE.connector.entry", 2042, p, 58},
		{"SURVEY_BUDGET.spaces", 20, p, 62},
		{"SURVEY_BUDGET.calls", 2, p, 62},
		{"SURVEY_BUDGET.bytes", 30291, p, 62},
	}
	if diff := cmp.Diff(want, f.Budgets()); diff != "" {
		t.Errorf("Budgets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"FIRST_TASK_TOKENS", "TOOL_LIST_TOKENS", "PROPOSAL_ROUTINE", "SURVEY_BUDGET"}, f.Blocks()); diff != "" {
		t.Errorf("Blocks (-want +got):\n%s", diff)
	}
	b, ok := f.Get("FIRST_TASK_TOKENS.start_tasks")
	if !ok || b.Where() != "testdata/first-task.ts:18" || b.Block() != "FIRST_TASK_TOKENS" || b.Key() != "start_tasks" {
		t.Errorf("Get = %+v, %v", b, ok)
	}
}

func TestLoadJSON(t *testing.T) {
	f := load(t, "testdata/budgets.json")
	p := "testdata/budgets.json"
	want := []Budget{
		{"FIRST_TASK_TOKENS.start_tasks", 2450, p, 4},
		{"FIRST_TASK_TOKENS.http", 6355, p, 5},
		{"TOOL_LIST_TOKENS.mcp", 11161, p, 7},
		{"TOOL_LIST_TOKENS.connect", 11563, p, 7},
		{"PROPOSAL_ROUTINE.calls", 3, p, 9},
		{"PROPOSAL_ROUTINE.http.create", 1234, p, 10},
		{"PROPOSAL_ROUTINE.http.entry", 567, p, 10},
	}
	if diff := cmp.Diff(want, f.Budgets()); diff != "" {
		t.Errorf("Budgets (-want +got):\n%s", diff)
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		path, data string
		want       Format
	}{
		{"a.ts", `{"X": {"a": 1}}`, TypeScript},
		{"a.mts", ``, TypeScript},
		{"a.json", `export const X = {a: 1};`, JSON},
		{"budgets", "\n  {\"X\": {\"a\": 1}}", JSON},
		{"budgets", "export const X = {a: 1};", TypeScript},
	} {
		if got := detect(tc.path, []byte(tc.data)); got != tc.want {
			t.Errorf("detect(%q, %q) = %v, want %v", tc.path, tc.data, got, tc.want)
		}
	}
}

func TestTypeScriptSkipsWhatIsNotABudget(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // name=value
	}{
		{"strings block", `export const A = { a: "x", b: 1 }; export const B = { b: 2 };`, []string{"B.b=2"}},
		{"not exported", `const A = { a: 1 }; export const B = { b: 2 };`, []string{"B.b=2"}},
		{"nested in a function", `function f() { export const A = { a: 1 }; } export const B = { b: 2 };`, []string{"B.b=2"}},
		{"without as const", "export const A = {\n  a: 1_000,\n}\nexport const B = { b: 2 }", []string{"A.a=1000", "B.b=2"}},
		{"type annotation", `export const A: Record<string, number> = { a: 1 };`, []string{"A.a=1"}},
		{"satisfies", `export const A = { a: 1 } satisfies Record<string, number>;`, []string{"A.a=1"}},
		{"template with braces", "const t = `}${ { a: `{` } }{`; export const A = { a: 1 };", []string{"A.a=1"}},
		{"regex with quote and brace", `const r = /["{]/; export const A = { a: 1 };`, []string{"A.a=1"}},
		{"division is not a regex", `const x = a / b / c; export const A = { a: 1 };`, []string{"A.a=1"}},
		{"comment with code", "// export const A = { a: 1 };\n/* export const B = { b: 1 }; */ export const C = { c: 3 };", []string{"C.c=3"}},
		{"spread without numbers", `export const A = { ...B }; export const C = { c: 3 };`, []string{"C.c=3"}},
		{"spread beside strings", `export const A = { ...B, a: "x" }; export const C = { c: 3 };`, []string{"C.c=3"}},
		{"method", `export const A = { a: 1, f() { return 2; } }; export const C = { c: 3 };`, []string{"C.c=3"}},
		{"array leaf", `export const A = { a: [1, 2], b: 1 };`, nil},
		{"arrow leaf", `export const A = { a: () => 1, b: 1 };`, nil},
		{"boolean leaf", `export const A = { a: true, b: 1 };`, nil},
		{"only references", `export const A = { a: B, b: C.d };`, nil},
		{"empty", `export const A = {} as const;`, nil},
		{"a scalar const", `export const A = 5;`, nil},
		{"quoted keys", `export const A = { "a-b": 1, 'c': 2, 3: 4 };`, []string{"A.a-b=1", "A.c=2", "A.3=4"}},
		{"deep", `export const A = { b: { c: { d: 7 } } };`, []string{"A.b.c.d=7"}},
		{"enum", `export const enum E { A = 1 } export const A = { a: 1 };`, []string{"A.a=1"}},
		{"regex after return", "function f() { return /'\\/{/.test(x); }\nexport const A = { a: 1 };", []string{"A.a=1"}},
		{"regex class with slash", "const r = /[/'\"]+/g, s = 1;\nexport const A = { a: 1 };", []string{"A.a=1"}},
		{"division after a call", "const x = f(a) / 2 / g('}');\nexport const A = { a: 1 };", []string{"A.a=1"}},
		{"comment markers in strings", "const s = '/* not a comment', u = \"// nor this\";\nexport const A = { a: 1 };", []string{"A.a=1"}},
		{"class and generics", "class C<T extends { x: number }> { m(): Map<string, { y: 1 }> { return new Map(); } }\nexport const A = { a: 1 };", []string{"A.a=1"}},
		{"comments inside a block", "export const A = {\n  // one\n  a: /* inline */ 1_000, /** doc */\n  b: 2 // trailing\n};", []string{"A.a=1000", "A.b=2"}},
		{"nested template", "const t = `a ${`b ${ {c: `}`}.c } d`} e`;\nexport const A = { a: 1 };", []string{"A.a=1"}},
		{"escaped backtick", "const t = `\\` ${'`'}`;\nexport const A = { a: 1 };", []string{"A.a=1"}},
		{"crlf", "export const A = {\r\n  a: 1_000,\r\n} as const;\r\n", []string{"A.a=1000"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("x.ts", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range f.Budgets() {
				got = append(got, b.Name+"="+itoa(b.Value))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("budgets (-want +got):\n%s", diff)
			}
		})
	}
}

func itoa(n int64) string { return formatInt(n, false) }

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, path, src, want string
	}{
		{"exponent", "b.ts", "export const A = {\n  a: 1_000,\n  b: 1e3,\n};", "b.ts:3: A.b = 1e3 is not a plain integer literal; write the budget as digits (23_324), or move it out of the block"},
		{"hex", "b.ts", "export const A = { a: 1, b: 0x10 };", "b.ts:1: A.b = 0x10 is not a plain integer literal"},
		{"expression", "b.ts", "export const A = {\n a: 1,\n b: 2 * 1_000 };", "b.ts:3: A.b = 2 * 1_000 is not a plain integer literal"},
		{"reference", "b.ts", "export const A = { a: 1, b: BASE };", "b.ts:1: A.b = BASE is not a plain integer literal"},
		{"negative", "b.ts", "export const A = { a: 1, b: -2 };", "b.ts:1: A.b = -2 is not a plain integer literal"},
		{"fraction", "b.ts", "export const A = { a: 1, b: 2.5 };", "b.ts:1: A.b = 2.5 is not a plain integer literal"},
		{"bad separators", "b.ts", "export const A = { a: 1, b: 1__000 };", "b.ts:1: a number runs into a name (a misplaced \"_\" separator?)"},
		{"leading zero", "b.ts", "export const A = { a: 1, b: 010 };", "b.ts:1: a number with a leading zero (a legacy octal) is not TypeScript"},
		{"missing comma", "b.ts", "export const A = {\n  a: 1\n  b: 2,\n};", "b.ts:3: a missing comma before b: end the member above it with a comma"},
		{"missing comma after an object", "b.ts", "export const A = {\n  a: { x: 1 }\n  'b': 2,\n};", "b.ts:3: a missing comma before 'b': end the member above it with a comma"},
		{"a comma too many", "b.ts", "export const A = {\n  a: 1,,\n  b: 2,\n};", "b.ts:2: a comma too many: an object takes one comma between two members; remove this one"},
		{"spread", "b.ts", "export const A = {\n  ...B,\n  a: 1,\n};", "b.ts:2: A: a spread (...B) cannot be read for sure; write each budget of the block as `key: 23_324`"},
		{"computed key", "b.ts", "export const A = {\n  a: 1,\n  [K]: 2,\n};", "b.ts:3: A: a computed key [K] cannot be read for sure"},
		{"shorthand", "b.ts", "export const A = {\n  a: 1,\n  b,\n};", "b.ts:3: A: a shorthand member b cannot be read for sure"},
		{"nested spread", "b.ts", "export const A = {\n  a: 1,\n  n: { ...N },\n};", "b.ts:3: A: a spread (...N) cannot be read for sure"},
		{"second block without budgets", "b.ts", "export const A = {\n a: 1 };\nexport const A = {\n b: 'x' };", "b.ts:3: A is declared twice (first at line 1); keep one"},
		{"let then const", "b.ts", "export let A = {\n a: 1 };\nconst B = { b: 1 };\nexport { B as A };", "b.ts:3: A is declared twice (first at line 1); keep one"},
		{"exported twice", "b.ts", "const A = {\n a: 1 };\nexport { A, A as B };", "b.ts:3: A is exported as A and B"},
		{"declared and re-exported", "b.ts", "export { A } from './a';\nexport const A = { a: 1 };", "b.ts:2: A is declared twice (first at line 1, a re-export from './a'); keep one"},
		{"a second mark", "b.ts", "// $server: twin\n// $server: other\nexport const A = { a: 1 };", "b.ts:2: a second `// $server:` mark (first at line 1); keep one"},
		{"an empty mark", "b.ts", "// $server:\nexport const A = { a: 1 };", "b.ts:1: \"$server:\" is not a server mark"},
		{"json mark not a string", "b.json", "{\"$server\": 1, \"A\": {\"a\": 1}}", "b.json:1: $server: 1 is not a server's name"},
		{"lone CR lines", "b.ts", "// one\r// two\rexport const A = {\r  a: 1,\r  a: 2,\r};", "b.ts:5: A.a is declared twice (first at line 4)"},
		{"LS lines", "b.ts", "// one\u2028export const A = {\u2029  a: 1,\r\n  a: 2,\n};", "b.ts:4: A.a is declared twice (first at line 3)"},
		{"bigint", "b.ts", "export const A = { a: 1, b: 10n };", "b.ts:1: A.b = 10n is not"},
		{"duplicate", "b.ts", "export const A = {\n a: 1,\n a: 2 };", "b.ts:3: A.a is declared twice (first at line 2); keep one"},
		{"duplicate block", "b.ts", "export const A = {\n a: 1 };\nexport const A = {\n b: 2 };", "b.ts:3: A is declared twice (first at line 1); keep one"},
		{"duplicate JSON block", "b.json", "{\"A\": {\"a\": 1},\n \"A\": {\"b\": 2}}", "b.json:2: A is declared twice (first at line 1); keep one"},
		{"duplicate JSON key by escape", "b.json", "{\"A\": {\"plain\": 1,\n \"pl\\u0061in\": 2}}", "b.json:2: A.plain is declared twice (first at line 1); keep one"},
		{"bad JSON escape", "b.json", "{\"A\": {\"a\\x41\": 1}}", "b.json:1: \"a\\x41\" is not a JSON string (a bad escape, or a control character)"},
		{"unclosed brace", "b.ts", "\nexport const B = {\n  ok: 1_000,\n", "b.ts:4: a { is not closed at the end of the file"},
		{"unbalanced", "b.ts", "export const B = {\n  ok: (1_000],\n};", "b.ts:2: a ] closes another bracket"},
		{"unclosed string", "b.ts", "const s = 'abc\nexport const A = { a: 1 };", "b.ts:1: a string is not closed on its line"},
		{"unclosed comment", "b.ts", "export const A = { a: 1 };\n/* oops", "b.ts:2: a /* comment is not closed"},
		{"unclosed template", "b.ts", "export const A = { a: 1 };\nconst t = `abc ${x}", "b.ts:2: a template literal is not closed"},
		{"html page", "b.json", "\n<!doctype html><html><body>budgets</body></html>", "b.json:2: an HTML or XML page, not a budget file: give the JSON file or the TypeScript file"},
		{"html page as TypeScript", "b.ts", "<html>", "b.ts:1: an HTML or XML page, not a budget file"},
		{"json not object", "b.json", "[1]", "b.json:1: a JSON budget file is one object"},
		{"json string leaf", "b.json", "{\n \"A\": {\"a\": \"x\"}}", "b.json:2: A.a: \"x\" is not a budget; write a non-negative integer, or an object of them"},
		{"json negative", "b.json", `{"A": {"a": -1}}`, "b.json:1: A.a: -1 is not a budget"},
		{"json float", "b.json", `{"A": {"a": 1.0}}`, "b.json:1: A.a: 1.0 is not a budget"},
		{"json exponent", "b.json", `{"A": {"a": 1e3}}`, "b.json:1: A.a: 1e3 is not a budget"},
		{"json duplicate", "b.json", "{\"A\": {\"a\": 1,\n \"a\": 2}}", "b.json:2: A.a is declared twice"},
		{"json trailing", "b.json", `{"A": 1} x`, "b.json:1: unexpected text after the object"},
		{"json unclosed", "b.json", `{"A": {"a": 1}`, "b.json:1: expected"},
		{"json unclosed key", "b.json", "{\"A\": {\"a\" 1}}", "b.json:1: expected \":\" after \"a\""},
		{"json ends inside", "b.json", "{\"A\": {\n\"a\":", "b.json:2: the file ends inside A.a"},
		{"json leading zero", "b.json", `{"A": {"a": 01}}`, "b.json:1: A.a: 01 is not a budget"},
		{"json word", "b.json", `{"A": {"a": tru}}`, "b.json:1: A.a: tru is not a budget"},
		{"json array leaf on one line", "b.json", "{\"A\": {\"a\": [1,\n 2]}}", "b.json:1: A.a: [1, 2] is not a budget"},
		{"json unclosed string", "b.json", "{\"A\":\n {\"a\": \"x}}", "b.json:2: a string is not closed"},
		{"json control character", "b.json", "{\"A\": {\"a\tb\": 1}}", "b.json:1: \"a b\" is not a JSON string"},
		{"json trailing lines", "b.json", "{\"A\": {\"a\": 1}}\n\n x", "b.json:3: unexpected text after the object"},
		{"json $ member not JSON", "b.json", "{\"$s\": [1,],\n \"A\": {\"a\": 1}}", "b.json:1: a trailing comma before ']': JSON takes none; remove the comma"},
		{"json $ member not a value", "b.json", "{\"$s\": [1,:],\n \"A\": {\"a\": 1}}", "b.json:1: expected a JSON value"},
		{"json trailing comma", "b.json", "{\"A\": {\"a\": 1,\n  \"b\": 2,\n}}", "b.json:2: a trailing comma before '}': JSON takes none; remove the comma"},
		{"json missing comma", "b.json", "{\"A\": {\"a\": 1\n  \"b\": 2}}", "b.json:2: a missing comma: a comma goes between a value and the next key"},
		{"json missing comma in a list", "b.json", "{\"$s\": [1 2], \"A\": {\"a\": 1}}", "b.json:1: a missing comma: a comma goes between two values of a list"},
		{"json $ member twice", "b.json", "{\"$s\": 1,\n \"$s\": 2, \"A\": {\"a\": 1}}", "b.json:2: $s is declared twice (first at line 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.path, []byte(tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Parse error = %v\nwant prefix %s", err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestJSONDollarMembersSkipped(t *testing.T) {
	f, err := Parse("b.json", []byte(`{"$schema": {"x": ["a", {"b": "}"}]}, "$c": "text", "A": {"a": 1, "$note": "x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Budgets(); len(got) != 1 || got[0].Name != "A.a" {
		t.Errorf("Budgets = %v", got)
	}
}

func TestLookup(t *testing.T) {
	f := load(t, "testdata/first-task.ts")
	for _, tc := range []struct{ name, want string }{
		{"FIRST_TASK_TOKENS.plugin", ""},
		{"FIRST_TASK_TOKENS.nope", "testdata/first-task.ts: no budget FIRST_TASK_TOKENS.nope: block FIRST_TASK_TOKENS holds plugin, connector, http, start_tasks, start_research, start_coordinate, toolset_tasks, toolset_research, toolset_coordinate"},
		{"WAYS.plugin", `testdata/first-task.ts:29: no budget WAYS.plugin: "with the plugin" is not a number, so block WAYS is not a budget block; write the budget as digits (23_324)`},
		{"WAYS.nope", "testdata/first-task.ts:28: no budget WAYS.nope: block WAYS is not a budget block (it holds values that are not numbers); a budget block holds plain integer literals (23_324) and nothing else"},
		{"NOPE.x", "testdata/first-task.ts: no budget NOPE.x: the file declares FIRST_TASK_TOKENS, TOOL_LIST_TOKENS, PROPOSAL_ROUTINE, SURVEY_BUDGET"},
	} {
		_, err := f.Lookup(tc.name)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Lookup(%s) = %q, want %q", tc.name, got, tc.want)
		}
		if notBlock := strings.HasPrefix(tc.name, "WAYS."); errors.Is(err, ErrNotBudgetBlock) != notBlock {
			t.Errorf("Lookup(%s): errors.Is(err, ErrNotBudgetBlock) = %v, want %v", tc.name, !notBlock, notBlock)
		}
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load("testdata/none.ts")
	if err == nil || err.Error() != "testdata/none.ts: no such file or directory" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file = %v, want the path named once and fs.ErrNotExist", err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A block a walk names that is not a budget block: the error names the line
// of the value that is not a plain literal (or of the block) and what to do.
func TestLookupNotABudgetBlock(t *testing.T) {
	for _, tc := range []struct{ src, name, want string }{
		{"export const B = {\n  ok: 1e3,\n} as const;\n", "B.ok",
			"b.ts:2: no budget B.ok: 1e3 is not a plain integer literal, so block B is not a budget block; write the budget as digits (23_324)"},
		{"export const B = {\n  ok: X,\n} as const;\n", "B.ok",
			"b.ts:2: no budget B.ok: X is not a plain integer literal, so block B is not a budget block; write the budget as digits (23_324)"},
		{"export const B = {\n  n: { ok: 2 * 1_000 },\n} as const;\n", "B.n.ok",
			"b.ts:2: no budget B.n.ok: 2 * 1_000 is not a plain integer literal, so block B is not a budget block; write the budget as digits (23_324)"},
		{"export const B = {\n  ok: 'many',\n} as const;\n", "B.ok",
			"b.ts:2: no budget B.ok: 'many' is not a number, so block B is not a budget block; write the budget as digits (23_324)"},
		{"// x\nexport const B = {\n  ok: -1,\n  other: 'x',\n} as const;\n", "B.gone",
			"b.ts:2: no budget B.gone: block B is not a budget block (it holds values that are not numbers); a budget block holds plain integer literals (23_324) and nothing else"},
		{"export const B = {\n  ...A,\n  ok: 'x',\n} as const;\n", "B.other",
			"b.ts:1: no budget B.other: block B is not a budget block (it holds values that are not numbers); a budget block holds plain integer literals (23_324) and nothing else"},
		{"const B = {\n  ok: 1,\n} as const;\n", "B.ok",
			"b.ts:1: no budget B.ok: B is declared here but not exported; export it (export const B = {...})"},
		{"export { B } from './b';\n", "B.ok",
			"b.ts:1: no budget B.ok: B is a re-export from './b'; give --budgets the file that declares it"},
		{"export const B = {\n  'http.create': 1,\n} as const;\n", "B.http.create",
			"b.ts:2: no budget B.http.create: a key on this line holds a dot (or is empty), so the dotted name B.http.create cannot address it; rename the key (http_create) or nest it (http: { create: ... })"},
		{"export const B = {\n  http: { create: 2 },\n  \"http.create\": 1,\n} as const;\n", "B.http.create",
			"b.ts:3: no budget B.http.create: a key on this line holds a dot (or is empty), so the dotted name B.http.create cannot address it; rename the key (http_create) or nest it (http: { create: ... })"},
	} {
		f, err := Parse("b.ts", []byte(tc.src))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		_, err = f.Lookup(tc.name)
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrNotBudgetBlock) {
			t.Errorf("Lookup(%s) in %q = %v, want %q wrapping ErrNotBudgetBlock", tc.name, tc.src, err, tc.want)
		}
	}
}
