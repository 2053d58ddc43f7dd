package specs_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
)

// sampleTS is our own budget file shaped like the service's
// src/surface/first-task.ts: header comments, doc comments above entries,
// digit separators, nested one-line objects, a one-line block, an import
// and a function that are not budgets.
const sampleTS = "../testdata/budgets/first-task.ts"

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// numbers matches a number literal with its separators.
var numbers = regexp.MustCompile(`[0-9][0-9_]*`)

// onlyDigitsMoved fails unless new is old with only number literals
// changed: every other byte (comments, keys, spacing) is the same.
func onlyDigitsMoved(t *testing.T, old, new []byte) {
	t.Helper()
	a := numbers.ReplaceAll(old, []byte("#"))
	b := numbers.ReplaceAll(new, []byte("#"))
	if !bytes.Equal(a, b) {
		t.Errorf("more than digits changed (numbers shown as #):\n%s", cmp.Diff(string(a), string(b)))
	}
}

// TestUpdateSampleGolden rewrites the sample with fixed values and holds
// the bytes to a golden file: separators are kept (and dropped below
// 1,000 only where the block writes none), comments stay, keys not named
// stay as they were. go test ./specs -run TestUpdateSampleGolden -update
// rewrites the golden file.
func TestUpdateSampleGolden(t *testing.T) {
	bf, err := budgets.Load(sampleTS)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]int64{
		"FIRST_TASK_TOKENS.plugin":             23_989,
		"FIRST_TASK_TOKENS.connector":          20_146,
		"FIRST_TASK_TOKENS.http":               6_330,
		"FIRST_TASK_TOKENS.start_tasks":        2_846,
		"FIRST_TASK_TOKENS.start_research":     2_885,
		"FIRST_TASK_TOKENS.start_coordinate":   902,
		"FIRST_TASK_TOKENS.toolset_tasks":      13_958,
		"FIRST_TASK_TOKENS.toolset_research":   14_960,
		"FIRST_TASK_TOKENS.toolset_coordinate": 18_172,
		"TOOL_LIST_TOKENS.mcp":                 14_380,
		"TOOL_LIST_TOKENS.connect":             14_781,
		"TOOL_LIST_TOKENS.tasks":               9_449,
		"TOOL_LIST_TOKENS.research":            9_280,
		"TOOL_LIST_TOKENS.coordinate":          13_097,
		"DOCUMENT_TOKENS.primer":               1_111,
		"DOCUMENT_TOKENS.reference":            3_341,
	}
	data, moves, err := bf.Update(values)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != len(values) {
		t.Errorf("%d moves, want one per value (%d)", len(moves), len(values))
	}
	onlyDigitsMoved(t, bf.Bytes(), data)
	golden := filepath.Join("testdata", "first-task.updated.ts")
	if *update {
		if err := os.WriteFile(golden, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	if d := cmp.Diff(string(want), string(data)); d != "" {
		t.Errorf("rewritten sample differs from %s (-want +got):\n%s", golden, d)
	}
	// Read back, every budget holds its new value; the others are kept.
	nf, err := budgets.Parse(sampleTS, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bf.Budgets() {
		want := b.Value
		if v, ok := values[b.Name]; ok {
			want = v
		}
		got, ok := nf.Get(b.Name)
		if !ok || got.Value != want || got.Line != b.Line {
			t.Errorf("%s: read back %d at line %d, want %d at line %d", b.Name, got.Value, got.Line, want, b.Line)
		}
	}
	// A second update with the same values changes nothing.
	again, _, err := nf.Update(values)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, data) {
		t.Errorf("a second update with the same values changed the file:\n%s", cmp.Diff(string(data), string(again)))
	}
}

// TestUpdateSampleFromTwin runs every walk on the twin and rewrites a copy
// of the sample at what the walks read, as `walks run --budgets FILE
// --update` does: only digits change, and every budget then holds.
func TestUpdateSampleFromTwin(t *testing.T) {
	specs := loadSpecs(t, specDir)
	results := failures(t, aloneRun(t, specs))
	if t.Failed() {
		t.FailNow()
	}
	src, err := os.ReadFile(sampleTS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "first-task.ts")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	bf, err := budgets.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var checks gate.Checks
	for _, s := range specs {
		cs, err := results[s.Name].Checks(bf)
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, cs...)
	}
	values, err := checks.Values()
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := bf.Update(values)
	if err != nil {
		t.Fatal(err)
	}
	onlyDigitsMoved(t, src, data)
	if err := budgets.WriteAtomic(path, bf.Bytes(), data); err != nil {
		t.Fatal(err)
	}
	nf, err := budgets.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		checks, err := results[s.Name].Checks(nf)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			if c.Status != gate.OK || c.Slack() != 0 {
				t.Errorf("after --update: %s: %s, slack %d; want ok at 0", c.Key, c.Status, c.Slack())
			}
		}
	}
}
