package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/eventstream"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/mcpwire"
	"github.com/readmeter/readmeter/toollist"
)

// captureDoc is what measure capture's help says between the usage and the flags.
const captureDoc = `measure capture takes a tool list live from an MCP server: it opens a
session (initialize and notifications/initialized, or server/discover with
--protocol 2026-07-28), sends tools/list, follows nextCursor, and writes the
tools/list answer to FILE exactly as received (gzip and chunking undone,
headers out; an event stream with its framing). The initialize (or
server/discover) answer is written beside it as STEM.init.EXT
(tools-mcp.init.json for tools-mcp.json), so that "measure FILE" reports on
the tool list and checks the instructions.

A JSON answer is saved with a final newline, which measure does not count;
an event stream is saved byte for byte. When tools/list comes in several
pages, FILE holds one JSON-RPC response made from them: the first page's
result with "tools" holding every page's tools, each exactly as received,
and "nextCursor" left out (a note on stderr says so).

Transports: streamable HTTP (the default; POST to URL, JSON or event-stream
answers, the session id sent back), the older HTTP+SSE transport (--sse:
GET URL, POST to its endpoint), stdio (--stdio: run COMMAND, newline-
delimited JSON; the process is always stopped at the end). A stdio
server's first answer is given --start-timeout (2m: a first "npx -y PKG"
downloads the package, and npx killed half-way leaves its cache broken),
every other answer --timeout; a server that fails is shown with the last
lines of its stderr.

The token (--token, or the MEASURE_TOKEN environment variable) is sent as
"Authorization: Bearer TOKEN" only to the host named in URL, never after a
redirect to another host, never to a --stdio COMMAND (whose
MEASURE_TOKEN is empty), and never printed.
`

// captureOptions are the flags of `measure capture`.
type captureOptions struct {
	output        string
	token         string
	protocol      string
	capabilities  string
	client        string
	timeout       time.Duration
	startTimeout  time.Duration
	maxBody       int64
	stdio         bool
	sse           bool
	headers       []string
	secretHeaders []string
}

// newCaptureCommand returns measure capture's command with its flags
// bound to o.
func newCaptureCommand(o *captureOptions) *cli.Command {
	c := cli.NewCommand("measure capture",
		"measure capture -o FILE [flags] URL",
		"measure capture -o FILE --sse [flags] URL/sse",
		"measure capture -o FILE --stdio [flags] -- COMMAND [ARG...]")
	c.Doc = captureDoc
	c.Exits = []int{cli.ExitOK, cli.ExitUsage, cli.ExitWalk, 130}
	fs := c.Flags
	fs.StringVarP(&o.output, "output", "o", "", "write the tools/list answer to `FILE` (and the initialize answer to STEM.init.EXT)")
	fs.StringVar(&o.token, "token", "", "bearer `TOKEN` for the server (default: $MEASURE_TOKEN)")
	fs.StringVar(&o.protocol, "protocol", mcpwire.Version20250618, "protocol `VERSION`: 2025-06-18, 2025-11-25 (initialize) or 2026-07-28 (server/discover)")
	fs.StringVar(&o.capabilities, "capabilities", "", "client capabilities, a `JSON` object (some servers list more tools to a client that declares more; default: what --client declares, else "+toollist.DefaultCapabilities+", roots and elicitation, which most clients declare; docs/clients.md)")
	fs.StringVar(&o.client, "client", "", "declare in initialize what the client `NAME` declares: "+strings.Join(toollist.ProfileNames(), ", "))
	fs.DurationVar(&o.timeout, "timeout", mcpwire.DefaultTimeout, "time allowed for each answer, a `DURATION` such as 30s or 2m")
	startTimeoutFlag(fs, &o.startTimeout)
	fs.Int64Var(&o.maxBody, "max-body", mcpwire.DefaultMaxBody, "largest answer read, in `BYTES`")
	fs.StringArrayVar(&o.headers, "header", nil, "extra HTTP header `NAME: VALUE` (repeatable); Authorization, Cookie and X-Api-Key-like ones are credentials: never sent to another host, never printed")
	fs.StringArrayVar(&o.secretHeaders, "secret-header", nil, "treat the --header `NAME` as a credential too (repeatable)")
	fs.BoolVar(&o.sse, "sse", false, "use the older HTTP+SSE transport: URL is the event stream (.../sse)")
	fs.BoolVar(&o.stdio, "stdio", false, "run COMMAND and speak to it on stdin and stdout")
	return c
}

// runCapture is `measure capture`: it takes a tool list live and writes it.
func runCapture(stdout, stderr io.Writer, args []string) error {
	var o captureOptions
	c := newCaptureCommand(&o)
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	fs := c.Flags
	if fs.Changed("token") && strings.TrimSpace(o.token) == "" {
		// --token "$TOKEN" with TOKEN unset: a request without credentials
		// would be refused, or worse, answered as to anyone.
		return cli.Usage("capture: --token is empty (is the variable it names set?): give a token, or leave --token out")
	}
	if o.token == "" {
		o.token = os.Getenv("MEASURE_TOKEN")
	}
	err := capture(stdout, stderr, &o, fs.Args())
	if err != nil && o.token != "" && strings.Contains(err.Error(), o.token) {
		err = &cli.ExitError{Code: cli.Code(err), Err: errors.New(strings.ReplaceAll(err.Error(), o.token, "[redacted]"))}
	}
	return err
}

func capture(stdout, stderr io.Writer, o *captureOptions, rest []string) error {
	switch {
	case o.output == "":
		return cli.Usage("capture: -o FILE is required: where to write the tools/list answer")
	case o.stdio && o.sse:
		return cli.Usage("capture: --stdio and --sse exclude each other")
	case o.stdio && len(rest) == 0:
		return cli.Usage("capture: --stdio needs a command after --")
	case !o.stdio && len(rest) != 1:
		return cli.Usage("capture: give one URL (or --stdio -- COMMAND ARGS...); %d arguments given", len(rest))
	case o.timeout <= 0:
		return cli.Usage("capture: --timeout must be more than 0")
	case o.startTimeout <= 0:
		return cli.Usage("capture: --start-timeout must be more than 0")
	case o.maxBody <= 0:
		return cli.Usage("capture: --max-body must be more than 0")
	}
	switch o.protocol {
	case mcpwire.Version20250618, mcpwire.Version20251125, mcpwire.Version20260728:
	default:
		return cli.Usage("capture: --protocol %q: use 2025-06-18, 2025-11-25 or 2026-07-28", o.protocol)
	}
	caps, err := declared(o.client, o.capabilities, "capture")
	if err != nil {
		return err
	}
	initPath := toollist.InitPath(o.output)
	if initPath == o.output {
		return cli.Usage("capture: -o %s: the initialize answer would overwrite it; give FILE an extension", o.output)
	}
	if st, err := os.Stat(filepath.Dir(o.output)); err != nil || !st.IsDir() {
		return cli.Usage("capture: -o %s: no directory %s to write into", o.output, filepath.Dir(o.output))
	}

	ctx := cli.Context()
	var srv mcpwire.Server
	if o.stdio {
		// The token is for an HTTP server: the command does not inherit it.
		var env []string
		if _, ok := os.LookupEnv("MEASURE_TOKEN"); ok {
			env = []string{"MEASURE_TOKEN="}
		}
		srv = mcpwire.Server{Command: rest, Stdio: mcpwire.StdioOptions{Env: env, Timeout: o.timeout, StartTimeout: max(o.startTimeout, o.timeout), MaxBody: o.maxBody}}
	} else {
		ho, err := httpOptions(o, rest[0])
		if err != nil {
			return err
		}
		srv = mcpwire.Server{URL: rest[0], SSE: o.sse, HTTP: ho}
	}
	c, err := mcpwire.Dial(ctx, srv)
	if err != nil {
		return cli.WalkFailed(err) // a server that cannot be started or reached
	}
	defer c.Close()

	t, err := take(ctx, c, o.protocol, json.RawMessage(caps), o.output, nil)
	if err != nil {
		return cli.WalkFailed(sseHint(authHint(timeoutHint(err), o.token != ""), srv)) // a server that answered no tool list to measure
	}
	list, merged, initData, capt, figs, init := t.list, t.merged, t.initData, t.capt, t.figs, t.init
	if err := writeBoth(o.output, list, initPath, initData); err != nil {
		return cli.Usage("capture: %v", err)
	}
	if merged > 1 {
		line(stderr, "measure: capture: tools/list came in %d pages; %s holds one response made from them", merged, o.output)
	}
	line(stdout, "%s: %s from %s: %s wire bytes, %s model-read bytes (%s tokens)",
		o.output, toolCount(figs.Tools), c.Where(),
		units.Group(capt.WireBytes), units.Group(figs.ModelReadBytes), units.Group(figs.ModelReadTokens))
	line(stdout, "%s: the %s answer, %s bytes", initPath, initMethod(o.protocol), units.Group(int64(len(init.Raw))))
	return nil
}

// taken is a tool list taken live: the capture file's bytes and the init
// answer's, both as capture writes them, and what they measure.
type taken struct {
	list, initData []byte
	merged         int // tools/list pages
	init           *mcpwire.Response
	capt           *toollist.Capture
	figs           *toollist.Figures
}

// noToolsCapability adds to a tools/list that the server does not know
// (JSON-RPC -32601) what its init answer says of it: a server that
// declares no "tools" capability has no tools to list (some serve them
// only when an option or a key turns them on).
func noToolsCapability(err error, init *mcpwire.Response, protocol string) error {
	var rpc *mcpwire.RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32601 || init == nil {
		return err
	}
	caps := gjson.GetBytes(init.Message, "result.capabilities")
	if caps.Get("tools").Exists() {
		return err
	}
	var names []string
	caps.ForEach(func(k, _ gjson.Result) bool {
		names = append(names, escape.Term(k.String()))
		return true
	})
	declared := "no capabilities"
	if len(names) > 0 {
		declared = "the capabilities " + strings.Join(names, ", ")
	}
	return fmt.Errorf("%v; its %s answer declares %s, not \"tools\": as started, the server lists no tools (an option or a key may turn them on)", err, initMethod(protocol), declared)
}

// take opens a session with c (initialize, or server/discover for
// 2026-07-28), lists the tools, closes c, and checks that what would be
// written reads back as a capture (path names it), measured and counted
// with counters. Its errors name the server.
func take(ctx context.Context, c *mcpwire.Client, protocol string, caps json.RawMessage, path string, counters []toollist.Counter) (*taken, error) {
	iopts := mcpwire.InitOptions{ProtocolVersion: protocol, Capabilities: caps}
	var init *mcpwire.Response
	var err error
	if protocol == mcpwire.Version20260728 {
		init, err = c.Discover(ctx, iopts)
	} else {
		init, err = c.Initialize(ctx, iopts)
	}
	if err != nil {
		return nil, err
	}
	pages, err := c.ListTools(ctx)
	if err != nil {
		return nil, noToolsCapability(err, init, protocol)
	}
	c.Close()
	list, merged, err := listBytes(pages)
	if err != nil {
		return nil, fmt.Errorf("%s: tools/list: %v", c.Where(), err)
	}
	t := &taken{list: list, merged: merged, init: init, initData: saved(init.Raw)}
	if t.capt, err = toollist.OpenReader(path, bytes.NewReader(list), toollist.Options{Counters: counters}); err != nil {
		return nil, fmt.Errorf("%s: the tools/list answer cannot be measured: %v", c.Where(), err)
	}
	t.figs = t.capt.Figures
	if _, err := toollist.ParseInit(toollist.InitPath(path), t.initData); err != nil {
		return nil, fmt.Errorf("%s: the %s answer cannot be read: %v", c.Where(), initMethod(protocol), err)
	}
	return t, nil
}

// defaultStartTimeout is --start-timeout's default: long enough for a
// first npx -y run to download and install a server's package (a kill
// half-way leaves npx's cache broken for every later run).
const defaultStartTimeout = 2 * time.Minute

// startTimeoutFlag defines --start-timeout, of measure capture and
// measure config.
func startTimeoutFlag(fs *pflag.FlagSet, d *time.Duration) {
	fs.DurationVar(d, "start-timeout", defaultStartTimeout, "time allowed for a stdio server's first answer, its start included (a first npx -y run downloads the package), a `DURATION` (at least --timeout)")
}

// timeoutHint adds to the error of a request that got no answer in time
// the flag that gives more.
func timeoutHint(err error) error {
	switch timedOut, start := mcpwire.TimedOut(err); {
	case !timedOut:
		return err
	case start:
		return fmt.Errorf("%w (--start-timeout gives the server more time to start)", err)
	default:
		return fmt.Errorf("%w (--timeout gives more time)", err)
	}
}

// authHint adds to the error of a server that refused the request for
// want of credentials (HTTP 401, 403) how to give them.
func authHint(err error, token bool) error {
	var he *mcpwire.HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusUnauthorized && he.Status != http.StatusForbidden {
		return err
	}
	if token {
		return fmt.Errorf("%w (the token given was refused: check --token or MEASURE_TOKEN)", err)
	}
	return fmt.Errorf("%w (the server wants credentials: give --token TOKEN, MEASURE_TOKEN, or --header)", err)
}

// sseHint adds to the error of a server that refused a streamable HTTP
// request to what looks like the stream of the older HTTP+SSE transport
// (mcpwire.SSEStream) the flag that speaks it.
func sseHint(err error, srv mcpwire.Server) error {
	if !mcpwire.SSEStream(err, srv) {
		return err
	}
	return fmt.Errorf("%w (a URL ending in /sse is most often the older HTTP+SSE transport's stream: add --sse)", err)
}

func initMethod(protocol string) string {
	if protocol == mcpwire.Version20260728 {
		return "server/discover"
	}
	return "initialize"
}

func httpOptions(o *captureOptions, raw string) (mcpwire.HTTPOptions, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return mcpwire.HTTPOptions{}, cli.Usage("capture: %q is not an http:// or https:// URL", raw)
	}
	ho := mcpwire.HTTPOptions{Token: o.token, MaxBody: o.maxBody, Timeout: o.timeout, Credentials: o.secretHeaders}
	for _, h := range o.headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return ho, cli.Usage("capture: --header %q: write NAME: VALUE", h)
		}
		if ho.Header == nil {
			ho.Header = map[string][]string{}
		}
		ho.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	return ho, nil
}

// saved is an answer as a capture file holds it: an event stream byte for
// byte, JSON with a final newline (which measure does not count).
func saved(raw []byte) []byte {
	if eventstream.Sniff(raw) {
		return raw
	}
	out := make([]byte, 0, len(raw)+1)
	out = append(out, raw...)
	return append(out, '\n')
}

// listBytes is what the capture file holds: the one page as saved, or, for
// several pages, the one JSON-RPC response mcpwire.MergeToolPages makes of
// them, with a final newline. merged is the number of pages.
func listBytes(pages []*mcpwire.Response) (data []byte, merged int, err error) {
	if len(pages) == 0 {
		return nil, 0, errors.New("no answer")
	}
	if len(pages) == 1 {
		return saved(pages[0].Raw), 1, nil
	}
	one, err := mcpwire.MergeToolPages(pages)
	if err != nil {
		return nil, 0, err
	}
	return append(one, '\n'), len(pages), nil
}

// writeBoth writes the capture and its initialize answer atomically: both
// go to temporary files in their directory first and are renamed into
// place only when both are written; on any error nothing new is left.
func writeBoth(path string, data []byte, initPath string, initData []byte) error {
	p, err := atomicfile.Prepare(path, data)
	if err != nil {
		return fmt.Errorf("%s: %v", path, capturePathErr(err))
	}
	pi, err := atomicfile.Prepare(initPath, initData)
	if err != nil {
		p.Abort()
		return fmt.Errorf("%s: %v", initPath, capturePathErr(err))
	}
	if err := pi.Commit(); err != nil {
		p.Abort()
		return fmt.Errorf("%s: %v", initPath, capturePathErr(err))
	}
	if err := p.Commit(); err != nil {
		os.Remove(initPath)
		return fmt.Errorf("%s: %v", path, capturePathErr(err))
	}
	return nil
}

func capturePathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func toolCount(n int) string {
	if n == 1 {
		return "1 tool"
	}
	return fmt.Sprintf("%d tools", n)
}

// declared returns the capabilities to declare in initialize: given (a
// --capabilities JSON object), else what the client named declares, else
// toollist.DefaultCapabilities. cmd names the command in its errors.
func declared(client, given, cmd string) ([]byte, error) {
	caps := []byte(toollist.DefaultCapabilities)
	if client != "" {
		c, ok := toollist.CapabilitiesFor(client)
		if !ok {
			return nil, noSuchClient(cmd+": ", client, false)
		}
		caps = []byte(c.JSON)
	}
	if given != "" {
		caps = bytes.TrimSpace([]byte(given))
		if !json.Valid(caps) || !gjson.ParseBytes(caps).IsObject() {
			return nil, cli.Usage("%s: --capabilities must be a JSON object, like {\"roots\":{}}", cmd)
		}
	}
	return caps, nil
}
