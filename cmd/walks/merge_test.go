package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/junit/junittest"
	"github.com/readmeter/readmeter/walk"
)

// runOut is what one in-process run of the command gave.
type runOut struct {
	stdout, stderr string
	code           int
	files          map[string]string // the files the run wrote, by role
}

func runWith(t *testing.T, files map[string]string, args ...string) runOut {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(&stdout, &stderr, args)
	cli.Report(&stderr, "walks", err)
	out := runOut{stdout: stdout.String(), stderr: stderr.String(), code: cli.Code(err), files: map[string]string{}}
	for role, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("walks %s: %v", strings.Join(args, " "), err)
		}
		out.files[role] = string(data)
	}
	return out
}

// checkJUnit validates a run's JUnit report and holds it to the run: a
// test case per budget, failed when exceeded (with the part lines),
// skipped when nothing held it.
func checkJUnit(t *testing.T, data []byte, over bool) {
	t.Helper()
	got := junittest.Validate(t, data)
	if len(got.Suites) != 1 || got.Tests < 16 {
		t.Fatalf("JUnit: %d suites, %d tests; want one suite, a test per budget", len(got.Suites), got.Tests)
	}
	var failed []junittest.Case
	for _, c := range got.Suites[0].Cases {
		if c.Failure != nil {
			failed = append(failed, c)
		}
	}
	switch {
	case !over && len(failed) > 0:
		t.Errorf("JUnit: %d failures in a run within its budgets", len(failed))
	case over && len(failed) != 1:
		t.Errorf("JUnit: %d failures, want 1 (start_tasks)", len(failed))
	case over:
		c := failed[0]
		if c.Name != "FIRST_TASK_TOKENS.start_tasks" || c.Class != "start_tasks" ||
			!strings.Contains(c.Failure.Text, "over its budget of 100 (FIRST_TASK_TOKENS.start_tasks, ") ||
			!strings.Contains(c.Failure.Text, "\n  the start: ") {
			t.Errorf("JUnit: want start_tasks failed with its part lines; failed: %s (%s): %q", c.Name, c.Class, c.Failure.Text)
		}
	}
}

// twinStderr drops the line that says the walks run on embedded twins,
// which walks merge, running nothing, does not print.
func twinStderr(s string) string {
	var keep []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(l, "walks: no --url: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// TestMergeIsTheUnshardedRun runs every walk of specs/schellingaf on the
// embedded twin once whole and once in shares, and holds the merge of the
// shares to the whole run byte for byte: the table, the markdown with a
// base, the JSON report, the exit code and the budget file --update
// writes. The budgets are moved first so that one is exceeded and one is
// stale. The proposal walks read the index every proposal walk posts to:
// on the twin each walk has a twin of its own, so they count the same in
// any share.
func TestMergeIsTheUnshardedRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every walk on the twin five times")
	}
	noGitHub(t)
	const specs = "../../specs/schellingaf"
	dir := t.TempDir()
	orig, err := os.ReadFile("../../specs/twin/budgets.json")
	if err != nil {
		t.Fatal(err)
	}
	// One budget far under what its walk reads, one far over: whatever the
	// twin's numbers are today.
	moved := regexp.MustCompile(`"start_tasks": \d+`).ReplaceAllString(string(orig), `"start_tasks": 100`)
	moved = regexp.MustCompile(`"http": \d+`).ReplaceAllString(moved, `"http": 9999`)
	if moved == string(orig) {
		t.Fatal("specs/twin/budgets.json no longer holds the values this test moves")
	}
	budgetFile := filepath.Join(dir, "budgets.json")
	reset := func() {
		if err := os.WriteFile(budgetFile, []byte(moved), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	reset()

	const shards = 3
	var reports []string
	for k := 1; k <= shards; k++ {
		p := filepath.Join(dir, fmt.Sprintf("shard%d.json", k))
		// The survey reads its number of SPACEs from the budget file.
		out := runWith(t, nil, "run", specs, "--shard", fmt.Sprintf("%d/%d", k, shards), "--budgets", budgetFile, "--report", p, "--jobs", "2")
		if out.code != 0 && out.code != 1 { // 1: a share holding a moved budget
			t.Fatalf("shard %d/%d: exit %d\n%s", k, shards, out.code, out.stderr)
		}
		reports = append(reports, p)
	}
	// Every walk is in exactly one share, the shared ones in the same.
	count, shareOf := map[string]int{}, map[string]int{}
	for k, p := range reports {
		rep, err := walk.ReadReport(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range rep.Walks {
			count[w.Walk]++
			shareOf[w.Walk] = k
		}
	}
	if len(count) != 14 {
		t.Fatalf("the shares hold %d walks, want the 14 of %s: %v", len(count), specs, count)
	}
	if shareOf["proposal_http"] != shareOf["proposal_connector"] {
		t.Errorf("the proposal walks (isolation: shared) are in shares %d and %d, want one", shareOf["proposal_http"]+1, shareOf["proposal_connector"]+1)
	}
	for w, n := range count {
		if n != 1 {
			t.Errorf("walk %s is in %d shares", w, n)
		}
	}

	whole := filepath.Join(dir, "whole.json")
	merged := filepath.Join(dir, "merged.json")
	for _, tc := range []struct {
		name  string
		flags []string
		code  int
	}{
		{"table", []string{"--budgets", budgetFile, "--check-slack", "5"}, 1},
		{"markdown with a base", []string{"--budgets", budgetFile, "--markdown", "--base", reports[0]}, 1},
		{"json", []string{"--budgets", budgetFile, "--json"}, 1},
		{"update", []string{"--budgets", budgetFile, "--update"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"budgets": budgetFile}
			reset()
			one := runWith(t, files, append([]string{"run", specs, "--jobs", "2", "--report", whole, "--junit", whole + ".xml"}, tc.flags...)...)
			one.files["report"] = mustRead(t, whole)
			one.files["junit"] = mustRead(t, whole+".xml")
			reset()
			two := runWith(t, files, append(append([]string{"merge"}, reports...), append(tc.flags, "--report", merged, "--junit", merged+".xml")...)...)
			two.files["report"] = mustRead(t, merged)
			two.files["junit"] = mustRead(t, merged+".xml")
			one.stderr = twinStderr(one.stderr)
			if one.code != tc.code {
				t.Fatalf("the whole run: exit %d, want %d\n%s", one.code, tc.code, one.stderr)
			}
			if diff := cmp.Diff(one, two, cmp.AllowUnexported(runOut{})); diff != "" {
				t.Errorf("merged differs from the whole run (-whole +merged):\n%s", diff)
			}
			if tc.name == "update" && one.files["budgets"] == moved {
				t.Error("--update left the budget file as it was")
			}
			checkJUnit(t, []byte(one.files["junit"]), tc.code == 1)
		})
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
