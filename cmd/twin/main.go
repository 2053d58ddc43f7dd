// Command twin serves the twin: a server that plays the agent service's
// surface (its HTTP API, documents, OAuth and MCP connector) with words of
// its own and state in memory. It prints its base URL on stdout, then
// serves until interrupted.
//
// Run `twin --help` for the flags.
package main

import (
	"os"

	"github.com/readmeter/readmeter/internal/cli"
)

func main() { os.Exit(cli.Main("twin", run)) }
