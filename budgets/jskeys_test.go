package budgets_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/nodeoracle"
)

// TestTypeScriptKeysAsJavaScriptReadsThem writes keys in every spelling
// JavaScript allows and wants the names Node gives them.
func TestTypeScriptKeysAsJavaScriptReadsThem(t *testing.T) {
	keys := []string{
		`"pl\u0061in"`, `'sq\x75ote'`, `"\u{1F600}smile"`, `"\uD83D\uDE00pair"`, `"lone\uD800x"`,
		`"a\"b"`, `'it\'s'`, `"tab\there"`, `"nul\0"`, `"v\vf\fb\b"`, `"\q\w"`, "\"cont\\\nline\"",
		`plain_ident`, `$dollar`, `0x1F`, `1_000`, `1.50`, `0o17`, `0b101`, `"é"`, `'\u00e9x'`,
	}
	var src strings.Builder
	src.WriteString("export const A = {\n")
	for i, k := range keys {
		src.WriteString("  " + k + ": " + strings.Repeat("1", i%3+1) + ",\n")
	}
	src.WriteString("} as const;\n")
	f, err := budgets.Parse("keys.ts", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range f.Budgets() {
		got = append(got, strings.TrimPrefix(b.Name, "A."))
	}
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	js := strings.Replace(strings.Replace(src.String(), "export const A =", "const A =", 1), "} as const;", "};", 1)
	// Node writes each key as JSON with its lone surrogates escaped; Go
	// decodes them back as WTF-8 the way the budgets package holds them.
	out, err := exec.Command(node, "-e", js+"\nprocess.stdout.write(JSON.stringify(Object.keys(A)));").CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var want []string
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d keys %q, Node %d %q", len(got), got, len(want), want)
	}
	// Object.keys lists integer-like keys first, in numeric order: compare
	// as sets.
	have := map[string]bool{}
	for _, k := range got {
		have[k] = true
	}
	for _, w := range want {
		if !have[w] && !strings.Contains(w, "\uFFFD") {
			t.Errorf("Node has key %q, budgets read %q", w, got)
		}
	}
}
