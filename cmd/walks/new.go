package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/mcpwire"
	"github.com/readmeter/readmeter/walk"
)

// newDoc is what walks new's help says between the usage and the flags.
const newDoc = `Writes a first walk spec for an MCP server: it takes the server's tool
list and writes initialize, the tool list, and one call per tool, with
arguments made from the tool's input schema (each required member: an
enum's first value, a const, a default, an example, or a placeholder of
its type). A call that may change something (its annotations mark it
destructive or not read-only, or leave readOnlyHint out, which defaults to
false; without annotations, its name says it writes or deletes) is
written commented out. The walk's total, its tool list and each call's
answer are held to budget keys: "walks run FILE --budgets B --update"
writes them into B, and "walks run FILE --budgets B" holds them.

The server is a command speaking stdio (--stdio -- CMD ARGS...) or a
streamable HTTP URL. FILE must not exist yet.
`

// newSpec is walks new: a starter spec from a server's tool list.
func newSpec(stdout, stderr io.Writer, args []string) error {
	c := cli.NewCommand("walks new", "walks new -o FILE (--stdio -- CMD [ARGS...] | URL)")
	c.Doc = newDoc
	c.Exits = []int{cli.ExitOK, cli.ExitUsage, cli.ExitWalk, 130}
	fs := c.Flags
	out := fs.StringP("output", "o", "", "write the spec to `FILE` (a new file)")
	stdio := fs.Bool("stdio", false, "the server is the command after --, speaking stdio")
	timeout := fs.Duration("timeout", 30*time.Second, "bound each request to `D`")
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	rest := fs.Args()
	switch {
	case *out == "":
		return c.Usagef("-o FILE is required: where to write the spec")
	case *stdio && len(rest) == 0:
		return c.Usagef("--stdio needs a command after --")
	case !*stdio && len(rest) != 1:
		return c.Usagef("give one URL (or --stdio -- CMD ARGS...); %d arguments given", len(rest))
	case *timeout <= 0:
		return c.Usagef("--timeout must be more than 0")
	}
	if _, err := os.Lstat(*out); err == nil {
		return c.Errorf("-o %s: the file exists; walks new writes only a new file (remove it, or choose another name)", *out)
	}
	dir := filepath.Dir(*out)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return c.Errorf("-o %s: the directory %s does not exist; create it first", *out, dir)
	}
	name := strings.TrimSuffix(filepath.Base(*out), filepath.Ext(*out))
	st := walk.Starter{Walk: walkName(name)}
	var srv mcpwire.Server
	if *stdio {
		st.Command = rest
		srv = mcpwire.Server{Command: rest, Stdio: mcpwire.StdioOptions{Timeout: *timeout}}
		// The spec runs the command from its own directory: the one the
		// command ran in here, relative to the spec's.
		if wd, err := os.Getwd(); err == nil {
			if abs, err := filepath.Abs(dir); err == nil {
				if rel, err := filepath.Rel(abs, wd); err == nil {
					st.Dir = filepath.ToSlash(rel)
				}
			}
		}
	} else {
		u, err := url.Parse(rest[0])
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return c.Usagef("%q is not an http:// or https:// URL", rest[0])
		}
		st.URL = rest[0]
		srv = mcpwire.Server{URL: rest[0], HTTP: mcpwire.HTTPOptions{Timeout: *timeout}}
	}
	ctx := cli.Context()
	cl, err := mcpwire.Dial(ctx, srv)
	if err != nil {
		return cli.WalkFailed(fmt.Errorf("new: %v", err))
	}
	defer cl.Close()
	// Initialize sends notifications/initialized after the answer; its
	// errors, and ListTools', name the server and the method.
	if _, err := cl.Initialize(ctx, mcpwire.InitOptions{}); err != nil {
		if mcpwire.SSEStream(err, srv) {
			err = fmt.Errorf("%w (a URL ending in /sse is most often the older HTTP+SSE transport's stream, which walks does not speak: give the server's streamable HTTP endpoint, often .../mcp, or run it with --stdio)", err)
		}
		return cli.WalkFailed(fmt.Errorf("new: %v", err))
	}
	pages, err := cl.ListTools(ctx)
	if err != nil {
		return cli.WalkFailed(fmt.Errorf("new: %v", err))
	}
	cl.Close()
	if st.Tools, err = mcpwire.MergeToolPages(pages); err != nil {
		return cli.WalkFailed(fmt.Errorf("new: %s: tools/list: %v", cl.Where(), err))
	}
	spec, err := walk.StarterSpec(st)
	if err != nil {
		return cli.WalkFailed(fmt.Errorf("new: %s: %v", cl.Where(), err))
	}
	if err := atomicfile.Write(*out, spec); err != nil {
		return c.Errorf("%v", errors.Unwrap(err))
	}
	calls, off := countCalls(spec)
	fmt.Fprintf(stdout, "%s: walk %s: %d %s, %d commented out (they may change something); next: walks run %s --budgets BUDGETS.json --update\n",
		escape.Term(*out), escape.Term(st.Walk), calls, plural(calls, "call", "calls"), off, escape.Term(*out))
	return nil
}

// walkName makes a file name into a walk name: letters, digits and _ . : -.
func walkName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("_.:-", r):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "walk"
	}
	return b.String()
}

// countCalls counts the calls a starter spec makes and those it leaves
// commented out.
func countCalls(spec []byte) (calls, off int) {
	for _, l := range strings.Split(string(spec), "\n") {
		switch {
		case strings.HasPrefix(l, "    mcp: { call: "):
			calls++
		case strings.HasPrefix(l, "  #   mcp: { call: "):
			off++
		}
	}
	return calls, off
}
