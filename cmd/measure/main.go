// Command measure reports what a language model reads of an MCP tool list,
// byte-exact with Node: wire bytes, model-read bytes and tokens, the same
// per tool and per toolset, description sizes and ceilings, what-if
// savings, comparisons, and budget gates.
//
//	measure [flags] CAPTURE...
//	measure diff [flags] OLD NEW
//	measure capture -o FILE [flags] URL
//	measure config [flags] [FILE...]
//	measure snap [--check | --update] DIR CAPTURE
//
// Exit codes: 0 measured, every ceiling and budget held; 1 a ceiling or
// budget exceeded (or a lint with --strict, growth past --max-growth, a
// change at measure diff --fail-on's level, a snapshot that differs); 2 a usage or input error; 3 a server of
// measure config failed; 130 (143) stopped by SIGINT (SIGTERM).
//
// Run `measure --help` (and `measure COMMAND --help`) for the flags.
package main

import (
	"os"

	"github.com/readmeter/readmeter/internal/cli"
)

func main() { os.Exit(cli.MainStoppable("measure", run)) }
