package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
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
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return c.Usagef("unexpected argument %q: twin takes flags only", fs.Arg(0))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return cli.Usage("--addr %s: %v", *addr, err)
	}
	srv := &http.Server{
		Handler:           twin.New(twin.Options{JSONAnswers: *jsonAnswers, APIHost: *apiHost}),
		ReadHeaderTimeout: 10 * time.Second,
	}
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
