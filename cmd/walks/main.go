// Command walks replays walks from spec files against a running server,
// counts every byte it answers in a ledger, holds each walk to its budget,
// and rewrites budgets at what the walks read when asked.
//
//	walks run SPEC...|DIR [--url BASE] [flags]
//	walks merge REPORT... [--budgets FILE] [flags]
//	walks history --budgets FILE [--since REV] [--markdown] [--svg FILE]
//	walks check SPEC...|DIR [--var k=v]
//	walks budgets render --budgets FILE --template FILE
//
// Exit codes: 0 every walk within its budgets; 1 a budget exceeded (or
// repeated runs counted differently); 2 a spec or usage error; 3 a walk
// failed against the server; 130 (143) stopped by SIGINT (SIGTERM).
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/readmeter/readmeter/internal/cli"
)

func main() { os.Exit(cli.MainStoppable("walks", run)) }

const usage = `usage:
  walks run SPEC...|DIR [--url BASE] [flags]   replay walks, count, gate budgets
  walks merge REPORT... [--budgets FILE]       merge the reports of shards, gate budgets
  walks history --budgets FILE [--since REV]   each budget's value at each commit that moved it
  walks check SPEC...|DIR [--var k=v]          parse and check specs, send nothing
  walks budgets render --budgets FILE --template FILE
                                               render text from budgets

Run "walks COMMAND --help" for a command's flags.

Exit codes:
  0  every walk within its budgets
  1  a budget exceeded, or repeated runs counted differently
  2  a spec or usage error, or a keep path that finds nothing in an
     answer (the spec file and line are named)
  3  a walk failed against the server (status, assert, transport)
  130  stopped by SIGINT (143: by SIGTERM); what it started was stopped
       too, and nothing was written half-way
`

func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return cli.SilentUsage
	}
	switch args[0] {
	case "run":
		return runWalks(stdout, stderr, args[1:])
	case "merge":
		return mergeCmd(stdout, stderr, args[1:])
	case "history":
		return historyCmd(stdout, stderr, args[1:])
	case "check":
		return checkSpecs(stdout, stderr, args[1:])
	case "budgets":
		return budgetsCmd(stdout, stderr, args[1:])
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return cli.Usage("unknown command %q (run, merge, history, check, budgets)", args[0])
}
