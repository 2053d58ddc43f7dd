package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/compat"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// TestSnapUpgradesLegacy writes a snapshot folder in the earlier form
// (what a model reads of each tool, as measure snap wrote it before it
// kept whole tools), upgrades it with --update, and checks that nothing
// was lost: each file's name, description and input schema are in the
// upgraded file, the same by meaning, and a file that is not a snapshot
// is left alone.
func TestSnapUpgradesLegacy(t *testing.T) {
	capture := filepath.Join("..", "..", "toollist", "testdata", "demo.json")
	c, err := toollist.Open(capture, toollist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dir := t.TempDir()
	legacy := map[string][]byte{}
	for i := range c.Tools {
		text, err := c.ModelReadText(i)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := jsonjs.Parse(text)
		name, _ := v.Get("name")
		file := fileSafe(name.Str()) + ".json"
		legacy[file] = append(jsonout.Indent(nil, text, nil), '\n')
		if err := os.WriteFile(filepath.Join(dir, file), legacy[file], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	readme := []byte("reviewed snapshots\n")
	if err := os.WriteFile(filepath.Join(dir, "README.md"), readme, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(&out, &errs, []string{"snap", "--update", dir, capture}); err != nil {
		t.Fatalf("snap --update: %v\n%s", err, errs.String())
	}
	if len(legacy) != len(c.Tools) || len(legacy) == 0 {
		t.Fatalf("wrote %d legacy files for %d tools", len(legacy), len(c.Tools))
	}
	for file, old := range legacy {
		nb, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(nb, old) {
			t.Errorf("%s: not rewritten", file)
		}
		ov, isLegacy, ok := snapTool(old)
		if !ok || !isLegacy {
			t.Fatalf("%s: the earlier form not recognised", file)
		}
		nv, isLegacy, ok := snapTool(nb)
		if !ok || isLegacy {
			t.Fatalf("%s: the upgraded file is not a whole tool", file)
		}
		// the upgraded tool kept to the members the legacy file had
		var kept []jsonjs.Member
		for _, k := range []string{"name", "description", "inputSchema"} {
			if v, has := nv.Get(k); has {
				kept = append(kept, jsonjs.Member{Key: k, Value: v})
			}
		}
		if len(kept) != len(ov.Members()) {
			t.Errorf("%s: %d members of the earlier form, %d kept", file, len(ov.Members()), len(kept))
		}
		if cs := compat.Compare([]jsonjs.Value{ov}, []jsonjs.Value{jsonjs.ObjectValue(kept)}); len(cs) != 0 {
			t.Errorf("%s: lost or changed in the upgrade: %+v", file, cs)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "README.md")); err != nil || !bytes.Equal(b, readme) {
		t.Errorf("README.md: %q, %v; want it left alone", b, err)
	}
	out.Reset()
	if err := run(&out, &errs, []string{"snap", "--check", dir, capture}); err != nil {
		t.Errorf("snap --check after the upgrade: %v\n%s", err, out.String())
	}
}
