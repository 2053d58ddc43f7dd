package jsonjs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
)

// checkScan requires the validated scanner to read every object and array
// of a valid text as the validating readers (RawMembers, RawElems) and
// Parse do: the same members and elements, the key JSON.parse keeps, the
// same kinds and strings.
func checkScan(t *testing.T, name string, raw []byte, v jsonjs.Value) {
	t.Helper()
	if got, want := jsonjs.KindValid(raw), v.Kind(); got != want {
		t.Fatalf("%s: KindValid %v, Parse %v", name, got, want)
	}
	switch v.Kind() {
	case jsonjs.String:
		if got := jsonjs.StringValid(bytes.TrimSpace(raw)); got != v.Str() {
			t.Fatalf("%s: StringValid %q, Parse %q", name, got, v.Str())
		}
	case jsonjs.Array:
		got := jsonjs.ElemsValid(nil, raw)
		want, err := jsonjs.RawElems(raw)
		if err != nil || len(got) != len(want) {
			t.Fatalf("%s: ElemsValid %d elements, RawElems %d (%v)", name, len(got), len(want), err)
		}
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("%s[%d]: %q, RawElems %q", name, i, got[i], want[i])
			}
			checkScan(t, name, got[i], v.Elems()[i])
		}
	case jsonjs.Object:
		got := jsonjs.MembersValid(nil, raw)
		want, err := jsonjs.RawMembers(raw)
		if err != nil || len(got) != len(want) {
			t.Fatalf("%s: MembersValid %d members, RawMembers %d (%v)", name, len(got), len(want), err)
		}
		for i := range got {
			if !jsonjs.KeyIs(got[i].Key, want[i].Key) || !bytes.Equal(got[i].Value, want[i].Value) {
				t.Fatalf("%s: member %d: %q: %q, RawMembers %q: %q", name, i, got[i].Key, got[i].Value, want[i].Key, want[i].Value)
			}
		}
		for _, m := range v.Members() {
			val, ok := jsonjs.LastMember(got, m.Key)
			if !ok {
				t.Fatalf("%s: LastMember %q: missing", name, m.Key)
			}
			checkScan(t, name+"."+m.Key, val, m.Value)
		}
		if _, ok := jsonjs.LastMember(got, "\x00absent"); ok {
			t.Fatalf("%s: LastMember finds an absent key", name)
		}
	}
}

// TestScanCorpus runs the scanner over every valid text of the corpus.
func TestScanCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*")
	if err != nil || len(files) < 20 {
		t.Fatalf("corpus: %d files (%v)", len(files), err)
	}
	files = append(files, "")
	scanned := 0
	for _, f := range files {
		data := []byte(` {"a\u0062":1, "ab" : [2, "x\"y", {"\ud800":null}], "1":true, "ab":{"c\/d":"\u00e9"}} `)
		if f != "" {
			if data, err = os.ReadFile(f); err != nil {
				t.Fatal(err)
			}
		}
		text, _ := jsonjs.Decode(data)
		v, err := jsonjs.Parse(text)
		if err != nil {
			continue
		}
		checkScan(t, f, text, v)
		scanned++
	}
	if scanned < 20 {
		t.Fatalf("only %d valid texts scanned", scanned)
	}
}
