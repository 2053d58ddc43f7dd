package main

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/readmeter/readmeter/walk"
)

// TestCountsDoNotDependOnOrder runs every walk of specs/schellingaf on the
// embedded twin 20 times, each time with another --jobs (1 to 20) and
// another --shuffle seed, then each walk alone, and holds every run to the
// first, walks run --json byte for byte: every part of every walk, its
// totals, calls, tool lists and budgets. Each walk has a twin of its own,
// so what another walk wrote, before it or beside it, is never read: the
// proposal walks' seek of the index every proposal walk posts to included.
func TestCountsDoNotDependOnOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every walk on the twin 21 times, and each alone")
	}
	noGitHub(t)
	const specs = "../../specs/schellingaf"
	args := []string{"run", specs, "--json", "--progress=false", "--budgets", "../../specs/twin/budgets.json"}
	first := runWith(t, nil, append(args, "--jobs", "1")...)
	if first.code != 0 {
		t.Fatalf("walks %v --jobs 1: exit %d\n%s", args, first.code, first.stderr)
	}
	want := decodeReport(t, first.stdout)
	if len(want.Walks) != 14 {
		t.Fatalf("%d walks, want the 14 of %s", len(want.Walks), specs)
	}
	for i := 1; i <= 20; i++ {
		flags := []string{"--jobs", strconv.Itoa(i), "--shuffle", strconv.Itoa(1000 + i)}
		out := runWith(t, nil, append(args, flags...)...)
		if out.code != 0 {
			t.Fatalf("walks run %v: exit %d\n%s", flags, out.code, out.stderr)
		}
		if out.stdout == first.stdout {
			continue
		}
		got := decodeReport(t, out.stdout)
		if len(got.Walks) != len(want.Walks) {
			t.Fatalf("walks run %v: %d walks, --jobs 1 %d", flags, len(got.Walks), len(want.Walks))
		}
		for j := range want.Walks {
			if diff := cmp.Diff(want.Walks[j], got.Walks[j]); diff != "" {
				t.Errorf("walks run %v: walk %s counted differently from --jobs 1 (-jobs 1 +this run):\n%s", flags, want.Walks[j].Walk, diff)
			}
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(walk.Report{}, "Walks")); diff != "" {
			t.Errorf("walks run %v: the report's warnings differ from --jobs 1 (-jobs 1 +this run):\n%s", flags, diff)
		}
		if !t.Failed() {
			t.Errorf("walks run %v: the JSON differs from --jobs 1's, though every field decoded is the same:\n%s", flags, cmp.Diff(first.stdout, out.stdout))
		}
	}
	for _, w := range want.Walks {
		out := runWith(t, nil, append(args, "--walk", w.Walk)...)
		if out.code != 0 {
			t.Fatalf("walks run --walk %s: exit %d\n%s", w.Walk, out.code, out.stderr)
		}
		got := decodeReport(t, out.stdout)
		if len(got.Walks) != 1 {
			t.Fatalf("walks run --walk %s: %d walks", w.Walk, len(got.Walks))
		}
		if diff := cmp.Diff(w, got.Walks[0]); diff != "" {
			t.Errorf("walk %s alone counted differently from all of them at once (-all +alone):\n%s", w.Walk, diff)
		}
	}
}

func decodeReport(t *testing.T, s string) *walk.Report {
	t.Helper()
	var r walk.Report
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("not a report: %v\n%s", err, s)
	}
	return &r
}
