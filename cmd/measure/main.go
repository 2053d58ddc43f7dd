// Command measure reports what a language model reads of an MCP tool list,
// byte-exact with Node: wire bytes, model-read bytes and tokens, the same
// per tool and per toolset, description sizes and ceilings, what-if
// savings, comparisons, and budget gates.
//
// Run `measure --help` for the forms and flags.
package main

import (
	"os"

	"github.com/readmeter/readmeter/internal/cli"
)

func main() { os.Exit(cli.MainStoppable("measure", run)) }
