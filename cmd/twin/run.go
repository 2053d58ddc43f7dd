package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/twin"
)

// twinDoc is what twin's help says between the usage and the flags.
const twinDoc = `twin serves a stand-in for the agent service on one address: the HTTP API
the first-task walks use, the primer at /, the reference at /reference, the
skill, OAuth for app tokens, and the MCP connector at /mcp and
/mcp/connect. State lives in memory and is gone when twin stops.

It prints its base URL (http://HOST:PORT) on stdout as one line, then serves
until interrupted (SIGINT or SIGTERM).

It listens on loopback only, unless --public is given: an --addr whose host
is not a loopback address (or is empty: every interface) is refused without
it. Anyone who reaches the twin can use it (any KEY registers): serve it to
other hosts only on a network you trust.

Limits (twin/API.md, "Limits"): a request body over 1 MiB (4 MiB at /mcp)
is answered 413; a request's headers must arrive within 5 s and its body
within 10 s, else its connection is closed; a kept-alive connection idle for
2 min is closed. A panic while answering is answered 500 INTERNAL, and
written to stderr with its stack.
`

// interrupted is the context that ends serving; tests replace it.
var interrupted = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func run(stdout, stderr io.Writer, args []string) error {
	c := cli.NewCommand("twin", "twin [flags]")
	c.Doc = twinDoc
	fs := c.Flags
	addr := fs.String("addr", "127.0.0.1:0", "the `HOST:PORT` to listen on (port 0: a free port)")
	apiHost := fs.String("api-host", "", "the `HOST` KEYs sign their token challenge for (default: each request's Host header)")
	jsonAnswers := fs.Bool("json-answers", false, "the MCP connector answers plain JSON instead of an event stream")
	public := fs.Bool("public", false, "allow an --addr other hosts can reach (a host that is not loopback, or none)")
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return c.Usagef("unexpected argument %q: twin takes flags only", fs.Arg(0))
	}
	notLoopback := c.Usagef("--addr %s: not a loopback address, so other hosts could reach the twin: use 127.0.0.1:PORT, or add --public", *addr)
	if host, _, err := net.SplitHostPort(*addr); err == nil && !*public {
		if ip := net.ParseIP(host); host == "" || ip != nil && !ip.IsLoopback() {
			return notLoopback
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return cli.Usage("--addr %s: %v", *addr, err)
	}
	if a, ok := ln.Addr().(*net.TCPAddr); ok && !*public && !a.IP.IsLoopback() {
		ln.Close() // a host name that is not loopback's
		return notLoopback
	}
	srv := twin.New(twin.Options{
		JSONAnswers: *jsonAnswers,
		APIHost:     *apiHost,
		OnPanic:     logPanic(stderr),
		ErrorLog:    log.New(stderr, "twin: ", 0),
	}).HTTPServer()
	ctx, stop := interrupted()
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "http://%s\n", ln.Addr())
	select {
	case err := <-served:
		return fmt.Errorf("serving %s: %v", ln.Addr(), err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		srv.Close()
	}
	return nil
}

// logPanic returns what tells of a panic while the twin answers: one line
// on stderr (where, and the panic), then its stack.
func logPanic(stderr io.Writer) func(where string, v any, stack []byte) {
	var mu sync.Mutex
	return func(where string, v any, stack []byte) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stderr, "twin: panic answering %s: %v\n%s", where, v, stack)
	}
}
