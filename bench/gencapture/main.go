// Command gencapture writes a generated tools/list capture for the
// benchmarks: a JSON-RPC response with N tools shaped like a real service's
// (a paragraph of description, an input schema with described fields,
// enums, `$schema`, `maximum: 9007199254740991`, some output schemas),
// about 1 KB of wire per tool at the default --words, deterministic for a given
// N and seed.
//
//	go run ./bench/gencapture --tools 10000 -o /tmp/tools-10000.json
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/benchcap"
)

// main runs gencapture; every error is a usage or write error, exit 2. It
// is a benchmark tool, not one of the toolkit's commands, so it keeps to
// the standard library's error printing rather than the commands' frame.
func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gencapture:", err)
		os.Exit(2)
	}
}

func run(stdout, stderr io.Writer, args []string) error {
	fs := pflag.NewFlagSet("gencapture", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("tools", 10000, "how many tools")
	words := fs.Int("words", 24, "words in each tool's description")
	seed := fs.Uint64("seed", 1, "random seed")
	defs := fs.Bool("defs", false, "tools that carry shared $defs they mostly leave unused and repeat subschemas (what measure --drop-unused-defs and --hoist-repeated cut)")
	out := fs.StringP("output", "o", "", "file to write (required)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gencapture [--tools N] [--words N] [--seed N] [--defs] -o FILE\n\nExit codes: 0 written, 2 usage or write error.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return err
	}
	if *out == "" || fs.NArg() != 0 || *n < 0 || *words < 1 {
		fs.Usage()
		return errors.New("-o FILE is required; --tools and --words must be positive")
	}
	var data []byte
	if *defs {
		data = benchcap.GenerateDefs(*n, *seed)
	} else {
		var err error
		if data, err = benchcap.Generate(*n, *words, *seed); err != nil {
			return err
		}
	}
	if err := atomicfile.Write(*out, data); err != nil {
		return fmt.Errorf("%s: %v", *out, err)
	}
	fmt.Fprintf(stdout, "%s: %d tools, %d bytes\n", *out, *n, len(data))
	return nil
}
