package main

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/internal/scripttest"
	"github.com/readmeter/readmeter/internal/testhook"
)

var update = flag.Bool("u", false, "rewrite the golden output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		// Registered under another name than the script command below,
		// which runs it and keeps its exit code.
		"measure-program": main, // the built command exactly: main, as the binary runs it
		// measure with the mapped capture cut or fenced (see hookedCmd).
		"measure-hooked": func() {
			n, _ := strconv.ParseInt(os.Getenv("MEASURE_HOOK_AT"), 10, 64)
			switch os.Getenv("MEASURE_HOOK") {
			case "cut":
				testhook.Mapped = func(path string, _ []byte) {
					if err := os.Truncate(path, n); err != nil {
						panic(err)
					}
				}
			case "fence":
				testhook.Mapped = func(_ string, data []byte) { fence(data[n:]) }
			}
			main()
		},
	})
}

// TestScripts runs the golden scripts. Each script's directory holds a copy
// of ../../toollist/testdata. Besides testscript's own commands:
//
//	measure ARGS...   runs the measure command; "! measure" expects it to fail
//	measure-cut N ARGS...
//	                  runs measure; as soon as it has mapped a capture into
//	                  memory, before reading it, the file is truncated to N
//	                  bytes (a writer cutting it while it is read)
//	measure-fenced N ARGS...
//	                  runs measure; as soon as it has mapped a capture, the
//	                  mapping from byte N on is made unreadable, so that
//	                  reading past N would fault (N: a multiple of the page)
//	gencapture FILE TOOLS [sse]
//	                  writes bench/gencapture's capture of TOOLS tools (as
//	                  an event stream with sse)
//	sparse FILE SIZE HEAD
//	                  writes a file of SIZE bytes, the bytes of the file
//	                  HEAD then a hole (zeros that take no disk)
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
			"measure": measureCmd,
			"measure-cut": func(ts *testscript.TestScript, neg bool, args []string) {
				hookedCmd(ts, neg, "cut", args)
			},
			"measure-fenced": func(ts *testscript.TestScript, neg bool, args []string) {
				hookedCmd(ts, neg, "fence", args)
			},
			"gencapture": gencaptureCmd,
			"sparse":     sparseCmd,
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

// hookedCmd runs measure-hooked with the hook named and its place, args[0].
func hookedCmd(ts *testscript.TestScript, neg bool, hook string, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: measure-%s N ARGS...", hook)
	}
	stdout, stderr, code := scripttest.Run(ts, "measure-hooked", []string{"MEASURE_HOOK=" + hook, "MEASURE_HOOK_AT=" + args[0]}, args[1:]...)
	ts.Stdout().Write(stdout)
	ts.Stderr().Write(stderr)
	ts.Setenv("MEASURE_EXIT", strconv.Itoa(code))
	if (code != 0) != neg {
		ts.Fatalf("measure exited %d", code)
	}
}

func gencaptureCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 || len(args) == 3 && args[2] != "sse" || neg {
		ts.Fatalf("usage: gencapture FILE TOOLS [sse]")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	data, err := benchcap.Generate(n, 24, 1)
	ts.Check(err)
	if len(args) == 3 {
		data = append(append([]byte("event: message\ndata: "), data...), "\n\n"...)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}

func sparseCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 || neg {
		ts.Fatalf("usage: sparse FILE SIZE HEAD")
	}
	size, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	head, err := os.ReadFile(ts.MkAbs(args[2]))
	ts.Check(err)
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	ts.Check(f.Truncate(size))
	_, err = f.WriteAt(head, 0)
	ts.Check(err)
}

func exitcodeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: exitcode N")
	}
	if got := ts.Getenv("MEASURE_EXIT"); got != args[0] {
		ts.Fatalf("measure exited %s, want %s", got, args[0])
	}
}
