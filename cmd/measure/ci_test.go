package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/junit/junittest"
)

// TestJUnitIsValid writes the JUnit report of a run with every kind of
// case (a budget held, one exceeded, one missing, a ceiling passed, the
// client limits) and validates it against the JUnit schema.
func TestJUnitIsValid(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	dir := t.TempDir()
	capture := filepath.Join(dir, "tools-mcp.json")
	data, err := os.ReadFile("../../toollist/testdata/demo.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(capture, data, 0o666); err != nil {
		t.Fatal(err)
	}
	budgetFile := filepath.Join(dir, "budgets.json")
	if err := os.WriteFile(budgetFile, []byte(`{"TOOL_LIST_TOKENS": {"mcp": 1008, "research": 670}}`), 0o666); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "junit.xml")
	err = run(io.Discard, io.Discard, []string{"--budgets", budgetFile, "--toolsets", "../../toollist/testdata/toolsets.json",
		"--max-description-chars", "200", "--max-instructions-chars", "10000", "--junit", out, capture})
	if err == nil {
		t.Fatal("a budget and a ceiling passed, and the run held")
	}
	xml, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := junittest.Validate(t, xml)
	var names []string
	for _, c := range got.Suites[0].Cases {
		state := "passed"
		switch {
		case c.Failure != nil:
			state = "failed"
		case c.Skipped != nil:
			state = "skipped"
		}
		names = append(names, c.Name+" "+state)
	}
	want := "TOOL_LIST_TOKENS.mcp passed, TOOL_LIST_TOKENS.tasks skipped, TOOL_LIST_TOKENS.research failed, max-description-chars failed, max-instructions-chars passed, client limits passed"
	if strings.Join(names, ", ") != want {
		t.Errorf("cases:\n got %s\nwant %s", strings.Join(names, ", "), want)
	}
}
