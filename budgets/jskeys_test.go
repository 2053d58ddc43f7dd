package budgets_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

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
	// Object.keys lists integer-like keys first, in numeric order: compare
	// as sets.
	have := map[string]bool{}
	for _, k := range got {
		have[k] = true
	}
	// A key with a dot is no budget a dotted name can address: the
	// reader keeps it aside.
	want = slices.DeleteFunc(want, func(k string) bool { return strings.Contains(k, ".") })
	if len(got) != len(want) {
		t.Fatalf("got %d keys %q, Node %d without the dotted ones %q", len(got), got, len(want), want)
	}
	for _, w := range want {
		if !have[w] && !strings.Contains(w, "\uFFFD") {
			t.Errorf("Node has key %q, budgets read %q", w, got)
		}
	}
}

// TestJSONKeysAsNodeReadsThem writes a JSON budget file's keys with every
// JSON escape and wants the names JSON.parse gives them, lone surrogates
// included (compared as UTF-16 code units, as JavaScript holds them).
func TestJSONKeysAsNodeReadsThem(t *testing.T) {
	keys := []string{
		`"pl\u0061in"`, `"\uD83D\uDE00pair"`, `"lone\uD800x"`, `"low\uDC00"`, `"a\"b"`, `"back\\slash"`,
		`"\/solidus"`, `"tab\there"`, `"nl\nb\bf\fr\r"`, `"é"`, `"\u00e9x"`, `"\u0000nul"`, `"10"`, `"2"`, `"x.y"`,
	}
	var src strings.Builder
	src.WriteString("{\"A\": {\n")
	for i, k := range keys {
		if i > 0 {
			src.WriteString(",\n")
		}
		src.WriteString("  " + k + ": " + strings.Repeat("1", i%3+1))
	}
	src.WriteString("\n}}\n")
	f, err := budgets.Parse("keys.json", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, b := range f.Budgets() {
		got[fmt.Sprint(utf16Units(strings.TrimPrefix(b.Name, "A.")))] = true
	}
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	js := "const o = JSON.parse(require('fs').readFileSync(0, 'utf8')).A;\n" +
		"process.stdout.write(JSON.stringify(Object.keys(o).map(k => Array.from({length: k.length}, (_, i) => k.charCodeAt(i)))));"
	cmd := exec.Command(node, "-e", js)
	cmd.Stdin = strings.NewReader(src.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	var want [][]uint16
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(keys) {
		t.Fatalf("Node read %d keys, written %d", len(want), len(keys))
	}
	// "x.y" is no budget a dotted name can address: kept aside.
	want = slices.DeleteFunc(want, func(k []uint16) bool { return strings.Contains(string(utf16.Decode(k)), ".") })
	if len(got) != len(want) {
		t.Fatalf("budgets read %d keys, Node %d without the dotted one", len(got), len(want))
	}
	if _, err := f.Lookup("A.x.y"); !errors.Is(err, budgets.ErrNotBudgetBlock) {
		t.Errorf("Lookup(A.x.y) = %v, want a refusal", err)
	}
	// Object.keys lists integer-like keys first: compare as sets.
	for _, w := range want {
		if !got[fmt.Sprint(w)] {
			t.Errorf("Node has key %q (UTF-16 %v), budgets has not", string(utf16.Decode(w)), w)
		}
	}
}

// utf16Units returns the UTF-16 code units of the WTF-8 string s: UTF-8
// whose three-byte sequences may also encode a lone surrogate.
func utf16Units(s string) []uint16 {
	var u []uint16
	for i := 0; i < len(s); {
		c := s[i]
		var r rune
		switch {
		case c < 0x80:
			r, i = rune(c), i+1
		case c < 0xE0:
			r, i = rune(c&0x1F)<<6|rune(s[i+1]&0x3F), i+2
		case c < 0xF0:
			r, i = rune(c&0x0F)<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), i+3
		default:
			r, i = rune(c&0x07)<<18|rune(s[i+1]&0x3F)<<12|rune(s[i+2]&0x3F)<<6|rune(s[i+3]&0x3F), i+4
		}
		if r < 0x10000 {
			u = append(u, uint16(r)) // a lone surrogate too
		} else {
			u = utf16.AppendRune(u, r)
		}
	}
	return u
}
