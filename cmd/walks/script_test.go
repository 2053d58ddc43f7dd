package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/readmeter/readmeter/internal/mcptest"
	"github.com/readmeter/readmeter/internal/scripttest"
	"github.com/readmeter/readmeter/internal/walktest"
)

var updateGoldens = flag.Bool("u", false, "update the golden files of testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"walks": main,   // the built command exactly: main, as the binary runs it
		"gh":    fakeGH, // the GitHub CLI, as TestAction's action calls it
		// a stdio MCP server whose answers are as large as asked
		"answers": func() {
			srv := walktest.NewAnswerServer()
			if os.Getenv("ANSWERS_FAULTS") == "1" {
				walktest.AddFaultTools(srv, func() { os.Exit(1) })
			}
			if p := os.Getenv("ANSWERS_PIDFILE"); p != "" {
				if err := os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
					os.Exit(1)
				}
			}
			if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
				os.Exit(1)
			}
		},
	})
}

// TestScripts runs the golden scripts; each gets a fresh local server's
// address in $URL, a second one's (another origin) in $OTHER, an MCP
// server's HTTP+SSE stream in $MCP_SSE, the
// repository's specs directory in $SPECS, and the commands exits (exit
// codes), wellformed, tsvalid (the TypeScript compiler reads a file) and
// lineends (CRLF or CR files).
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
			e.Setenv("MCP_SSE", mcptest.StartSSE(t, mcptest.Options{})) // the older HTTP+SSE transport's stream
			specs, err := filepath.Abs("../../specs")
			if err != nil {
				return err
			}
			e.Setenv("SPECS", specs) // the repository's walk specs
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":      scripttest.Exits,
			"wellformed": scripttest.Wellformed,
			"noraw":      scripttest.Noraw,
			"tsvalid":    scripttest.TSValid,
			"lineends":   scripttest.LineEnds,
			"gone":       gone,
		},
	})
}

// noGitHub turns --github's default off for a test that runs in a GitHub
// Actions job: the goldens that want it set it themselves.
func noGitHub(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
}

// gone checks that the process whose pid the file holds has ended: every
// process a walk started is gone when walks exits.
func gone(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: gone PIDFILE")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("gone: %v", err)
	}
	alive := processAlive(pid)
	if alive != neg {
		ts.Fatalf("gone: process %d alive: %v", pid, alive)
	}
}
