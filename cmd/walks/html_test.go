package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/browsertest"
	"github.com/readmeter/readmeter/walk"
)

// TestHTMLWalksPage runs a walk of the repository's specs on the
// embedded twin against a budget it passes, and draws the --html page in
// headless Chromium: one segment per part, the budget's line, the walk
// marked over budget in words and by a hatched overflow, no error, no
// request.
func TestHTMLWalksPage(t *testing.T) {
	noGitHub(t)
	dir := t.TempDir()
	budgetFile := filepath.Join(dir, "budgets.json")
	if err := os.WriteFile(budgetFile, []byte(`{"FIRST_TASK_TOKENS": {"http": 1000}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "walks.html")
	var stdout, stderr bytes.Buffer
	err := run(&stdout, &stderr, []string{"run", filepath.Join("..", "..", "specs", "schellingaf", "http.yaml"), "--budgets", budgetFile, "--html", page, "--report", filepath.Join(dir, "report.json")})
	if err == nil || !strings.Contains(stdout.String(), "over") {
		t.Fatalf("walks run: %v, want the walk over its budget; stdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	data, rerr := os.ReadFile(filepath.Join(dir, "report.json"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	var rep walk.Report
	if rerr := json.Unmarshal(data, &rep); rerr != nil || len(rep.Walks) != 1 {
		t.Fatalf("the --report: %v, %d walks", rerr, len(rep.Walks))
	}
	parts := len(rep.Walks[0].Parts)
	p := browsertest.Open(t, page)
	p.CheckInert()
	if n := browsertest.Eval[int](p, `document.querySelectorAll('[data-walk="http"] [data-part]').length`); n != parts || n == 0 {
		t.Errorf("%d part segments, want %d (the table's parts)", n, parts)
	}
	if got := browsertest.Eval[string](p, `document.querySelector('[data-walk="http"]').textContent`); !strings.Contains(got, "OVER BUDGET by ") || !strings.Contains(got, "budget 1,000 tokens") {
		t.Errorf("the walk reads %q: no over-budget verdict in words or no budget line label", got)
	}
	if n := browsertest.Eval[int](p, `document.querySelectorAll('[data-over="http"]').length`); n != 1 {
		t.Errorf("%d overflow marks, want 1", n)
	}
	p.Check()
}
