package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

// TestFindingsRendered makes the findings of a run with one of each kind
// and checks that each output renders each finding once: the warnings,
// the texts of the budgets exceeded, JUnit and the annotations, in their
// orders.
func TestFindingsRendered(t *testing.T) {
	total := gate.Measure{Kind: gate.Total}
	budget := func(v int64, line int) budgets.Budget {
		return budgets.Budget{Name: "B.x", Value: v, File: "budgets.json", Line: line}
	}
	rep := &walk.Report{Walks: []walk.WalkReport{
		{Walk: "a", Spec: "a.yaml", Error: "walk a: a.yaml:7: step: no answer", OrderDependent: true},
		{Walk: "b", Spec: "b.yaml", Differ: "run 2 read 3 bytes more", Unbudgeted: true,
			Parts:        []ledger.Part{{Name: "start", Bytes: 30, Tokens: 10}},
			AnswerLimits: []walk.AnswerLimitReport{{Part: "start", Tool: "t", File: "b.yaml", Line: 4, Client: "claude-code", Limit: "output", Unit: "tokens", Max: 5, Read: 9}}},
	}}
	checks := gate.Checks{
		{Subject: "b", Key: "B.over", Measure: total, Read: 12, Bytes: 36, Budget: budget(10, 2), Status: gate.Over},
		{Subject: "b", Key: "B.missing", Measure: total, Read: 12, Status: gate.Unbudgeted, Missing: errors.New("budgets.json has no B.missing")},
		{Subject: "b", Key: "B.unchecked", Measure: total, Read: 12, Status: gate.Unchecked},
		{Subject: "b", Key: "B.stale", Measure: total, Read: 12, Budget: budget(20, 3), Status: gate.OK},
		{Subject: "b", Key: "B.held", Measure: total, Read: 12, Budget: budget(12, 4), Status: gate.OK},
	}
	found := makeFindings(rep, checks, 10)
	var kinds []findingKind
	for _, f := range found {
		kinds = append(kinds, f.kind)
	}
	want := []findingKind{walkFailed, runsDiffer, walkUnbudgeted, overBudget, budgetMissing, budgetUnchecked, staleBudget, budgetHeld, answerLimit, orderDependent}
	if !slices.Equal(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	if n := notes(found); len(n) != 6 || !strings.HasPrefix(n[0], "walk b: repeated runs") || !strings.HasPrefix(n[5], "walk a reads lists") {
		t.Errorf("notes: %q", n)
	}
	if o := overTexts(found, raw); len(o) != 1 || !strings.Contains(o[0], "over its budget of 10") || !strings.Contains(o[0], "\n  start: 30 bytes, 10 tokens") {
		t.Errorf("over texts: %q", o)
	}
	data, err := junitReport(found, false).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "<testcase "); n != 9 {
		t.Errorf("%d JUnit cases, want one for each finding but the order note: 9\n%s", n, data)
	}
	var titles []string
	for _, a := range annotations(found) {
		titles = append(titles, a.Title)
	}
	wantTitles := []string{"walk a failed", "walk b counted differently", "walk b is unbudgeted", "answer over claude-code's output", "B.over", "B.missing", "B.stale"}
	if !slices.Equal(titles, wantTitles) {
		t.Errorf("annotations %q, want %q", titles, wantTitles)
	}
	if n := len(makeFindings(rep, checks.Settled(), 10)); n != len(found) {
		t.Errorf("settled: %d findings, want %d", n, len(found))
	}
	if slices.ContainsFunc(makeFindings(rep, checks.Settled(), 10), func(f finding) bool { return f.kind == overBudget || f.kind == staleBudget }) {
		t.Errorf("settled checks (after --update) still make a budget over or stale")
	}
}
