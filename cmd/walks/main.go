// Command walks replays walks from spec files against a running server,
// counts every byte it answers in a ledger, holds each walk to its budget,
// and rewrites budgets at what the walks read when asked.
//
//	walks run SPEC...|DIR [--url BASE] [flags]
//	walks merge REPORT... [--budgets FILE] [flags]
//	walks history --budgets FILE [--since REV] [--markdown] [--svg FILE]
//	walks check SPEC...|DIR [--var k=v]
//	walks new -o FILE (--stdio -- CMD [ARGS...] | URL)
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
	"strings"

	"github.com/readmeter/readmeter/internal/cli"
)

func main() { os.Exit(cli.MainStoppable("walks", run)) }

// command is walks itself: its subcommands, in its help.
func command() *cli.Command {
	c := cli.NewCommand("walks",
		"walks run SPEC...|DIR [--url BASE] [flags]",
		"walks merge REPORT... [--budgets FILE] [flags]",
		"walks history --budgets FILE [--since REV]",
		"walks check SPEC...|DIR [--var k=v]",
		"walks new -o FILE (--stdio -- CMD [ARGS...] | URL)",
		"walks budgets render --budgets FILE --template FILE")
	c.Doc = `Commands:
  run      replay walks against a server (the embedded twin when no --url
           is given), count every answered byte, gate budgets
  merge    merge the reports of walks run --shard K/N, gate budgets
  history  each budget's value at each commit that moved it
  check    parse and check specs, send nothing
  new      write a first walk spec from an MCP server's tool list
  budgets  render text from budgets

Run "walks COMMAND --help" for a command's flags.
`
	c.Exits = []int{cli.ExitOK, cli.ExitFinding, cli.ExitUsage, cli.ExitWalk, 130}
	return c
}

func run(stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, command().Help())
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
	case "new":
		return newSpec(stdout, stderr, args[1:])
	case "budgets":
		return budgetsCmd(stdout, stderr, args[1:])
	case "help":
		if len(args) > 1 {
			return run(stdout, stderr, []string{args[1], "--help"})
		}
	}
	_, err := command().Parse(stdout, args)
	if err == nil && !strings.HasPrefix(args[0], "-") {
		err = cli.Usage("unknown command %q: want run, merge, history, check, new or budgets (see walks --help)", args[0])
	}
	return err
}
