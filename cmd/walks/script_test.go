package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"readmeter/internal/cli"
	"readmeter/walk/walktest"
)

var updateGoldens = flag.Bool("u", false, "update the golden files of testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"walks": func() { os.Exit(cli.Main("walks", run)) },
	})
}

// TestScripts runs the golden scripts; each gets a fresh local server's
// address in $URL.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *updateGoldens,
		Setup: func(e *testscript.Env) error {
			srv := walktest.Start()
			e.Defer(srv.Close)
			e.Setenv("URL", srv.URL)
			return nil
		},
	})
}
