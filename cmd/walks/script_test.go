package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/scripttest"
	"github.com/readmeter/readmeter/internal/walktest"
)

var updateGoldens = flag.Bool("u", false, "update the golden files of testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"walks": func() { os.Exit(cli.Main("walks", run)) },
		"gh":    fakeGH, // the GitHub CLI, as TestAction's action calls it
	})
}

// TestScripts runs the golden scripts; each gets a fresh local server's
// address in $URL, a second one's (another origin) in $OTHER, and the
// exits command to check exit codes.
func TestScripts(t *testing.T) {
	noGitHub(t)
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *updateGoldens,
		Setup: func(e *testscript.Env) error {
			srv := walktest.Start()
			e.Defer(srv.Close)
			e.Setenv("URL", srv.URL)
			other := walktest.Start()
			e.Defer(other.Close)
			e.Setenv("OTHER", other.URL)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":      scripttest.Exits,
			"wellformed": scripttest.Wellformed,
		},
	})
}

// noGitHub turns --github's default off for a test that runs in a GitHub
// Actions job: the goldens that want it set it themselves.
func noGitHub(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
}
