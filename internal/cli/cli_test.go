package cli

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
)

func TestCode(t *testing.T) {
	if Code(nil) != ExitOK || Code(errors.New("x")) != ExitUsage || Code(Finding(errors.New("x"))) != ExitFinding ||
		Code(WalkFailed(errors.New("x"))) != ExitWalk || Code(Silent) != ExitFinding {
		t.Fatal("exit codes do not map")
	}
}

// TestImportedOnlyByCommands holds cli to its stance: it talks to people,
// so only cmd/ imports it; libraries return errors and data.
func TestImportedOnlyByCommands(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "github.com/readmeter/readmeter/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const self = "github.com/readmeter/readmeter/internal/cli"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		if pkg == self || strings.HasPrefix(pkg, "github.com/readmeter/readmeter/cmd/") {
			continue
		}
		if slices.Contains(fields[1:], self) {
			t.Errorf("%s imports internal/cli: only cmd/ may (libraries return errors and data)", pkg)
		}
	}
}

func TestCommandHelp(t *testing.T) {
	c := NewCommand("walks run", "walks run SPEC...", "walks run --other")
	c.Doc = "Runs walks.\n"
	c.Exits = []int{ExitOK, ExitWalk}
	var asJSON bool
	c.JSON(&asJSON)
	got := c.Help()
	for _, want := range []string{
		"usage: walks run SPEC...\n       walks run --other\n\nRuns walks.\n\nFlags:\n",
		"--json[=true|false]",
		"--version[=true|false]",
		"-h, --help",
		"\nExit codes:\n  0    success",
		"\n  3    a server failed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("help lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\n  1 ") || strings.Contains(got, "\n  2 ") {
		t.Errorf("help lists codes the command does not end with:\n%s", got)
	}
	var b strings.Builder
	help, err := c.Parse(&b, []string{"--bogus"})
	if help || err == nil || err.Error() != "run: unknown flag: --bogus (see walks run --help)" || Code(err) != ExitUsage {
		t.Errorf("Parse(--bogus) = %v, %v (code %d)", help, err, Code(err))
	}
	help, err = c.Parse(&b, []string{"-h"})
	if !help || err != nil || b.String() != c.Help() {
		t.Errorf("Parse(-h) = %v, %v; printed %q", help, err, b.String())
	}
}

// TestReportEscapes holds an error that quotes a server's text to lines
// a terminal shows as they are and a CI runner reads no command from.
func TestReportEscapes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New("plain"), "measure: plain\n"},
		{errors.New("answered text/html: \x1b[2J\rok"), "measure: answered text/html: \\x1b[2J\\rok\n"},
		{errors.New("first\n::error file=x::forged\n  ##[error]v1"), "measure: first\n\\x3a:error file=x::forged\n  ##\\x5berror]v1\n"},
		{WalkFailed(errors.New("safe\u202egnp \xff")), "measure: safe\\u202egnp \\xff\n"},
		{Silent, ""},
	} {
		var b strings.Builder
		Report(&b, "measure", tc.err)
		if b.String() != tc.want {
			t.Errorf("Report(%q) = %q, want %q", tc.err, b.String(), tc.want)
		}
	}
}

// TestOverAnnotation: a budget exceeded is an error at its line, its key
// escaped in the heading; a budget of a flag (no line) names no file.
func TestOverAnnotation(t *testing.T) {
	c := gate.Check{Subject: "w", Key: "A.b\x1b", Measure: gate.Measure{Kind: gate.Total}, Read: 1234, Status: gate.Over,
		Budget: budgets.Budget{Name: "A.b", Value: 10, File: "b.json", Line: 3}}
	got := OverAnnotation(c, "tokens", "walk w read 1,234 tokens").String()
	want := "::error file=b.json,line=3,title=A.b\\x1b::A.b\\x1b over budget by 1,224 tokens%0Awalk w read 1,234 tokens"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	c.Budget.Line, c.Budget.File = 0, ""
	if got := OverAnnotation(c, "tokens", "x").String(); strings.Contains(got, "file=") {
		t.Errorf("a budget without a line names a file: %q", got)
	}
}
