//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/infile/infiletest"
	"github.com/readmeter/readmeter/walk"
)

// TestEveryFileFlagRefusesBadFiles gives each flag or argument that names
// a file a FIFO, a link to /dev/zero and a file past its cap: each is
// refused at once, exit 2, in one line naming the file.
func TestEveryFileFlagRefusesBadFiles(t *testing.T) {
	ok := t.TempDir()
	spec := filepath.Join(ok, "a.yaml")
	os.WriteFile(spec, []byte("walk: a\nsteps:\n  - part: p\n    exec: [echo, hi]\n"), 0o644)
	budgetFile := filepath.Join(ok, "budgets.json")
	os.WriteFile(budgetFile, []byte(`{"FIRST_TASK_TOKENS": {"a": 1}}`+"\n"), 0o644)
	tmpl := filepath.Join(ok, "t.md")
	os.WriteFile(tmpl, []byte("a: {{FIRST_TASK_TOKENS.a}}\n"), 0o644)
	for _, tc := range []struct {
		name string
		cap  int64
		args []string // BAD stands for the bad file
	}{
		{"run SPEC", walk.MaxSpecFile, []string{"run", "BAD"}},
		{"run --budgets", infile.MaxText, []string{"run", spec, "--budgets", "BAD"}},
		{"run --budgets --update", infile.MaxText, []string{"run", spec, "--budgets", "BAD", "--update"}},
		{"run --base", infile.MaxText, []string{"run", spec, "--base", "BAD"}},
		{"check SPEC", walk.MaxSpecFile, []string{"check", "BAD"}},
		{"merge REPORT", infile.MaxText, []string{"merge", "BAD"}},
		{"merge --budgets", infile.MaxText, []string{"merge", "BAD", "--budgets", "BAD"}},
		{"budgets render --budgets", infile.MaxText, []string{"budgets", "render", "--budgets", "BAD", "--template", tmpl}},
		{"budgets render --template", infile.MaxText, []string{"budgets", "render", "--budgets", budgetFile, "--template", "BAD"}},
	} {
		ext := ".json"
		if strings.HasSuffix(tc.name, "SPEC") {
			ext = ".yaml"
		}
		bad := infiletest.BadFiles(t, t.TempDir(), tc.cap, ext)
		for kind, path := range bad {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				args := make([]string, len(tc.args))
				for i, a := range tc.args {
					args[i] = strings.ReplaceAll(a, "BAD", path)
				}
				var stderr strings.Builder
				done := make(chan error, 1)
				go func() { done <- run(io.Discard, &stderr, args) }()
				select {
				case err := <-done:
					msg := strings.TrimSuffix(stderr.String(), "\n")
					if msg == "" && err != nil {
						msg = err.Error()
					}
					if cli.Code(err) != cli.ExitUsage || !strings.Contains(msg, path) || strings.Contains(msg, "\n") {
						t.Errorf("walks %v: exit %d, %q; want exit 2 and one line naming the file", args, cli.Code(err), msg)
					}
				case <-time.After(20 * time.Second):
					os.WriteFile(bad["fifo"], nil, 0) // let a reader of the FIFO go
					t.Fatalf("walks %v: still reading after 20s", args)
				}
			})
		}
	}
}
