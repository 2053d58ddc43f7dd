// Command twin serves the twin: a server that plays the agent service's
// surface (its HTTP API, documents, OAuth and MCP connector) with words of
// its own and state in memory. It prints its base URL on stdout, then
// serves until interrupted.
//
//	twin --addr 127.0.0.1:0     prints http://127.0.0.1:PORT, serves until interrupted
//
// Exit codes: 0 stopped on an interrupt; 2 bad flags, or an address that
// cannot be listened on. Run `twin --help` for the flags.
package main

import (
	"os"

	"github.com/readmeter/readmeter/internal/cli"
)

func main() { os.Exit(cli.Main("twin", run)) }
