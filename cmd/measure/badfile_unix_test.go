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
)

// TestEveryFileFlagRefusesBadFiles gives each flag or argument that names
// a file a FIFO, a link to /dev/zero and a file past its cap: each is
// refused at once, exit 2, in one line naming the file.
func TestEveryFileFlagRefusesBadFiles(t *testing.T) {
	capture, err := filepath.Abs("../../captures/twin/tools-mcp.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cap  int64
		args []string // BAD stands for the bad file
	}{
		{"capture", infile.Max, []string{"BAD"}},
		{"diff", infile.Max, []string{"diff", capture, "BAD"}},
		{"--toolsets", infile.Max, []string{"--toolsets", "BAD", capture}},
		{"--words", infile.Max, []string{"--words", "BAD", capture}},
		{"--init", infile.Max, []string{"--init", "BAD", capture}},
		{"--calibration", infile.Max, []string{"--calibration", "BAD", capture}},
		{"--budgets", infile.MaxText, []string{"--budgets", "BAD", capture}},
		{"--budgets --update", infile.MaxText, []string{"--budgets", "BAD", "--update", capture}},
		{"config", infile.MaxText, []string{"config", "BAD"}},
		{"config --budgets", infile.MaxText, []string{"config", "--budgets", "BAD", "BAD"}},
	} {
		bad := infiletest.BadFiles(t, t.TempDir(), tc.cap, ".json")
		for kind, path := range bad {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				args := make([]string, len(tc.args))
				for i, a := range tc.args {
					args[i] = strings.ReplaceAll(a, "BAD", path)
				}
				done := make(chan error, 1)
				go func() { done <- run(io.Discard, io.Discard, args) }()
				select {
				case err := <-done:
					if cli.Code(err) != cli.ExitUsage || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
						t.Errorf("measure %v: exit %d, %v; want exit 2 and one line naming the file", args, cli.Code(err), err)
					}
				case <-time.After(20 * time.Second):
					os.WriteFile(bad["fifo"], nil, 0) // let a reader of the FIFO go
					t.Fatalf("measure %v: still reading after 20s", args)
				}
			})
		}
	}
}
