package main

import (
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/scripttest"
	"github.com/readmeter/readmeter/walk/walktest"
)

var updateGoldens = flag.Bool("u", false, "update the golden files of testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"walks": func() { os.Exit(cli.Main("walks", run)) },
	})
}

// TestScripts runs the golden scripts; each gets a fresh local server's
// address in $URL, and the exits command to check exit codes.
func TestScripts(t *testing.T) {
	noGitHub(t)
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *updateGoldens,
		Setup: func(e *testscript.Env) error {
			srv := walktest.Start()
			e.Defer(srv.Close)
			e.Setenv("URL", srv.URL)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":      scripttest.Exits,
			"wellformed": wellformed,
		},
	})
}

// wellformed FILE... fails unless each file is well-formed XML (an SVG
// chart, a JUnit report) with one root element.
func wellformed(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: wellformed FILE...")
	}
	for _, a := range args {
		f, err := os.Open(ts.MkAbs(a))
		ts.Check(err)
		d := xml.NewDecoder(f)
		roots := 0
		depth := 0
		for {
			tok, err := d.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				f.Close()
				ts.Fatalf("%s: %v", a, err)
			}
			switch tok.(type) {
			case xml.StartElement:
				if depth == 0 {
					roots++
				}
				depth++
			case xml.EndElement:
				depth--
			}
		}
		f.Close()
		if roots != 1 {
			ts.Fatalf("%s: %d root elements, want 1", a, roots)
		}
	}
}

// noGitHub turns --github's default off for a test that runs in a GitHub
// Actions job: the goldens that want it set it themselves.
func noGitHub(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
}
