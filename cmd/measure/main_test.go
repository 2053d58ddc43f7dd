package main

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/readmeter/readmeter/internal/scripttest"
)

var update = flag.Bool("u", false, "rewrite the golden output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		// Registered under another name than the script command below,
		// which runs it and keeps its exit code.
		"measure-program": main, // the built command exactly: main, as the binary runs it
	})
}

// TestScripts runs the golden scripts. Each script's directory holds a copy
// of ../../toollist/testdata. Besides testscript's own commands:
//
//	measure ARGS...   runs the measure command; "! measure" expects it to fail
//	exitcode N        checks the exit code of the last measure
func TestScripts(t *testing.T) {
	fixtures, err := filepath.Glob("../../toollist/testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			for _, f := range fixtures {
				st, err := os.Stat(f)
				if err != nil || !st.Mode().IsRegular() {
					continue
				}
				data, err := os.ReadFile(f)
				if err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(env.WorkDir, filepath.Base(f)), data, 0o644); err != nil {
					return err
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"measure":    measureCmd,
			"exitcode":   exitcodeCmd,
			"wellformed": scripttest.Wellformed,
			"noraw":      scripttest.Noraw,
			"tsvalid":    scripttest.TSValid,
			"lineends":   scripttest.LineEnds,
		},
	})
}

// measureCmd runs the measure program testscript set up, in the script's
// current directory, and keeps its exit code for exitcode.
func measureCmd(ts *testscript.TestScript, neg bool, args []string) {
	stdout, stderr, code := scripttest.Run(ts, "measure-program", nil, args...)
	ts.Stdout().Write(stdout)
	ts.Stderr().Write(stderr)
	ts.Setenv("MEASURE_EXIT", strconv.Itoa(code))
	if (code != 0) != neg {
		ts.Fatalf("measure exited %d", code)
	}
}

func exitcodeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: exitcode N")
	}
	if got := ts.Getenv("MEASURE_EXIT"); got != args[0] {
		ts.Fatalf("measure exited %s, want %s", got, args[0])
	}
}
