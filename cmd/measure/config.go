package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/progress"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/mcpconfig"
	"github.com/readmeter/readmeter/mcpwire"
	"github.com/readmeter/readmeter/tokenize"
	"github.com/readmeter/readmeter/toollist"
)

// configDoc is what measure config's help says between the usage and the flags.
const configDoc = `measure config measures every MCP server of a client's configuration, the
way that client hands them to a model: it starts or connects to each server
(all at once), takes its tool list, and prints one row per server (tools,
wire bytes, model-read bytes and tokens, share of the whole) and a total
row: what the whole setup costs a model, and which server to drop.

A FILE is a Claude Desktop, Claude Code (.mcp.json, ~/.claude.json),
Cursor or Windsurf configuration ({"mcpServers": {...}}), or a VS Code one
({"servers": {...}, "inputs": [...]}, or "mcp" in settings.json); comments
and trailing commas are allowed. With no FILE, measure config reads every
one of these it finds: ./.mcp.json, ./.cursor/mcp.json, ./.vscode/mcp.json,
then Claude Desktop's, ~/.claude.json, ~/.cursor/mcp.json,
~/.codeium/windsurf/mcp_config.json and VS Code's user mcp.json.

Servers: stdio ("command", "args", "env", "envFile", "cwd"), streamable
HTTP ("url", "headers"; "type": "http") and HTTP+SSE ("type": "sse", or a
url ending in /sse); "disabled": true is skipped, as the clients skip it.
Variables: ${env:NAME}, ${NAME}, ${NAME:-default}, ${input:ID} (--input
ID=VALUE), ${workspaceFolder}, ${userHome}. Values from variables, env,
env files and headers are never printed: they are [redacted] in every
message.

A server that cannot be started, reached or measured has its row say why
(with the last lines of its stderr), and the command exits 3. A stdio
server's first answer is given --start-timeout (2m: a first "npx -y PKG"
downloads the package), every other answer --timeout. The same tool name
in two servers is reported (a model cannot tell them apart unless the
client prefixes them). Lints (see measure --help) apply to each server,
and the tool-count limits to the whole setup.

--client NAME says which client the file is for: initialize declares what
NAME declares, and each server is counted as NAME reads it (see measure
--help, Clients), every tool loaded, its tools named by NAME's rule from the
server's key in the file (mcp__KEY__TOOL for Claude Code; VS Code takes
the server's own serverInfo name, the key when it gives none); its cuts and
names refused are the lints, its cap is of every server's tools together. Budgets: TOOL_LIST_TOKENS.SERVER for a server, and
TOOL_LIST_TOKENS.total for the whole (--budget SERVER=TOKENS,
--budget total=TOKENS, or --budgets FILE).
`

// configOptions are the flags of measure config.
type configOptions struct {
	json, markdown, strict bool
	output                 string
	tokenizer              string
	budget                 []string
	budgetsFile            string
	inputs                 []string
	timeout                time.Duration
	startTimeout           time.Duration
	jobs                   int
	maxDescriptionChars    int
	client                 string
	caps                   []byte
	profile                *toollist.Profile // --client's, nil without it
}

// newConfigCommand returns measure config's command with its flags bound
// to o.
func newConfigCommand(o *configOptions) *cli.Command {
	c := cli.NewCommand("measure config", "measure config [flags] [FILE...]")
	c.Doc = configDoc
	c.Exits = []int{cli.ExitOK, cli.ExitFinding, cli.ExitUsage, cli.ExitWalk, 130}
	fs := c.Flags
	c.JSON(&o.json)
	c.Markdown(&o.markdown)
	fs.StringVarP(&o.output, "output", "o", "", "keep each server's capture in `DIR` (tools-SERVER.json and its init answer)")
	tokenizerFlag(fs, &o.tokenizer)
	fs.StringArrayVar(&o.budget, "budget", nil, "budget `SERVER=TOKENS` or total=TOKENS (repeatable)")
	c.Budgets(&o.budgetsFile)
	fs.IntVar(&o.maxDescriptionChars, "max-description-chars", 0, "a ceiling of `N` UTF-16 code units for a tool description: a gate, none by default (the service's CI asks for 2000)")
	c.Strict(&o.strict)
	fs.StringArrayVar(&o.inputs, "input", nil, "the value of VS Code's ${input:ID}, as `ID=VALUE` (repeatable)")
	fs.DurationVar(&o.timeout, "timeout", mcpwire.DefaultTimeout, "time allowed for each answer, a `DURATION`")
	startTimeoutFlag(fs, &o.startTimeout)
	fs.IntVar(&o.jobs, "jobs", 8, "servers measured at once, `N`")
	fs.StringVar(&o.client, "client", "", "the client `NAME` the file is for: initialize declares what it declares (default "+toollist.DefaultCapabilities+"), and each server is measured as NAME reads it, its tools named by NAME's rule from the server's key in the file (docs/clients.md): "+strings.Join(toollist.ProfileNames(), ", "))
	return c
}

// serverRun is one server of the configurations, and how measuring it went.
type serverRun struct {
	srv     mcpconfig.Server
	name    string // as reported: the key, qualified by its file when two files share it
	t       *taken
	figs    *toollist.Figures
	client  *toollist.ClientFigures // what --client's model reads, nil without --client
	lints   []toollist.Lint
	over    []toollist.Over
	err     error
	capture string // the file kept with -o
}

func runConfig(stdout, stderr io.Writer, args []string) error {
	var o configOptions
	c := newConfigCommand(&o)
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	fs := c.Flags
	caps, err := declared(o.client, "", "config")
	if err != nil {
		return err
	}
	o.caps = caps
	if o.client != "" {
		o.profile, _ = toollist.ClientProfile(o.client)
	}
	switch {
	case o.json && o.markdown:
		return c.Usagef("--json and --markdown are two outputs; give one")
	case o.timeout <= 0:
		return cli.Usage("config: --timeout must be more than 0")
	case o.startTimeout <= 0:
		return cli.Usage("config: --start-timeout must be more than 0")
	case o.jobs <= 0:
		return cli.Usage("config: --jobs must be 1 or more")
	case o.maxDescriptionChars < 0:
		return cli.Usage("config: --max-description-chars %d: a ceiling is a number of characters, 0 or more", o.maxDescriptionChars)
	}
	descCeiling := fs.Changed("max-description-chars")
	inputs := map[string]string{}
	for _, in := range o.inputs {
		id, val, ok := strings.Cut(in, "=")
		if !ok || id == "" {
			return cli.Usage("config: --input %s: want ID=VALUE", strings.SplitN(in, "=", 2)[0])
		}
		inputs[id] = val
	}
	tks, err := parseTokenizers(o.tokenizer)
	if err != nil {
		return err
	}
	given, err := parseBudgetFlags(o.budget)
	if err != nil {
		return err
	}
	var bfile *budgets.File
	if o.budgetsFile != "" {
		if bfile, err = budgets.Load(o.budgetsFile); err != nil {
			return err
		}
	}
	if o.output != "" {
		if st, err := os.Stat(o.output); err != nil || !st.IsDir() {
			return cli.Usage("config: -o %s: not a directory to keep the captures in", o.output)
		}
	}
	paths, err := configPaths(fs.Args())
	if err != nil {
		return err
	}
	runs, notes, err := readConfigs(paths, mcpconfig.Vars{Env: os.LookupEnv, Inputs: inputs})
	if err != nil {
		return err
	}
	measureServers(runs, &o, tks, stderr)
	return reportConfig(stdout, stderr, &o, paths, runs, tks, notes, given, bfile, descCeiling)
}

// configPaths returns the files given, else the client configurations
// found where clients keep them.
func configPaths(args []string) ([]string, error) {
	if len(args) > 0 {
		return args, nil
	}
	home, _ := os.UserHomeDir()
	locs := mcpconfig.Locations(home, ".", mcpconfig.GOOS)
	var paths []string
	for _, l := range mcpconfig.Found(locs) {
		paths = append(paths, l.Path)
	}
	if len(paths) == 0 {
		var where []string
		for _, l := range locs {
			where = append(where, l.Path)
		}
		return nil, cli.Usage("config: no MCP client configuration found (looked at %s): give a FILE", strings.Join(where, ", "))
	}
	return paths, nil
}

// readConfigs reads the configurations and returns a run for each server
// they enable, named, and a note for each one disabled (skipped, as the
// clients skip it: a fact, no fault).
func readConfigs(paths []string, vars mcpconfig.Vars) (runs []*serverRun, notes []string, err error) {
	for _, p := range paths {
		f, err := mcpconfig.Read(p, vars)
		if err != nil {
			return nil, nil, cli.Usage("%v", err)
		}
		for _, s := range f.Servers {
			if s.Disabled {
				notes = append(notes, fmt.Sprintf("%s: %s is disabled: not measured", p, s.Name))
				continue
			}
			runs = append(runs, &serverRun{srv: s, name: s.Name})
		}
	}
	if len(runs) == 0 {
		return nil, nil, cli.Usage("config: %s: no server to measure", strings.Join(paths, ", "))
	}
	nameServers(runs)
	return runs, notes, nil
}

// reading is what a model reads of one server: of the tool list as
// measure reads any, or, with --client, as that client hands it over.
type reading struct {
	tools         int64 // the tools handed over
	bytes, tokens int64
	tokenizers    []toollist.TokenizerCount
}

// read returns what a model reads of the server that answered.
func (r *serverRun) read() reading {
	if cf := r.client; cf != nil {
		return reading{int64(cf.Sent), cf.Bytes, cf.Tokens, cf.Tokenizers}
	}
	f := r.figs
	return reading{int64(f.Tools), f.ModelReadBytes, f.ModelReadTokens, f.Tokenizers}
}

// configTotal is what every server of a configuration reads together.
type configTotal struct {
	servers, tools, wire, bytes int64
	tokenizers                  []int64
}

// reportConfig totals the servers, holds them to the budgets, writes the
// JSON or the tables, prints the findings and returns the exit.
func reportConfig(stdout, stderr io.Writer, o *configOptions, paths []string, runs []*serverRun, tks []*tokenize.Tokenizer, notes []string, given []*givenBudget, bfile *budgets.File, descCeiling bool) error {
	var total configTotal
	for _, r := range runs {
		total.servers++
		if r.err != nil {
			continue
		}
		if descCeiling {
			r.over = toollist.OverDescriptions(r.figs, o.maxDescriptionChars)
		}
		rd := r.read()
		total.tools += rd.tools
		total.wire += r.figs.WireBytes
		total.bytes += rd.bytes
		if total.tokenizers == nil {
			total.tokenizers = make([]int64, len(rd.tokenizers))
		}
		for i, tc := range rd.tokenizers {
			total.tokenizers[i] += tc.Tokens
		}
	}
	checks, missing, err := holdConfig(runs, total, given, bfile)
	if err != nil {
		return err
	}
	var warnings []string
	var found []finding
	if bfile != nil && len(missing) > 0 {
		f := finding{kind: missingBudget, key: missing[0], file: o.budgetsFile, counts: o.strict, missing: missing}
		warnings = append(warnings, f.note())
		found = append(found, f)
	}
	collisions := toolCollisions(runs)
	var lints []string
	for _, r := range runs {
		for _, ov := range r.over {
			found = append(found, finding{kind: overCeiling, key: "max-description-chars", file: r.name, counts: true, over: ov})
		}
	}
	for _, r := range runs {
		for _, l := range r.lints {
			lints = append(lints, r.name+": "+l.Text)
			found = append(found, finding{kind: clientLimit, key: l.Rule, file: r.name, counts: o.strict, lint: l})
		}
	}
	if l, ok := setupCountLint(o.profile, int(total.tools)); ok {
		lints = append(lints, "every server: "+l.Text)
		found = append(found, finding{kind: clientLimit, key: l.Rule, file: "every server", counts: o.strict, lint: l})
	}
	for _, c := range checks.With(gate.Over) {
		found = append(found, finding{kind: overBudget, key: c.Key, counts: true, check: c})
	}

	if o.json {
		err := jsonout.Encode(stdout, newConfigJSON(runs, o.profile, total, tks, collisions, lints, warnings, notes, checks))
		if err != nil {
			return err
		}
	} else {
		out := stdout
		if o.markdown {
			out = markdown{stdout}
		}
		writeConfigTable(out, paths, runs, o.profile, total.tools, total.wire, total.bytes, total.tokenizers, tks)
		writeChecks(out, checks)
		ws := append(append(append([]string{}, collisions...), lints...), warnings...)
		writeNotes(out, ws)
		writeList(out, "notes", notes)
	}
	exit := writeFindings(stderr, [][]finding{found})
	failed := 0
	for _, r := range runs {
		if r.err != nil {
			failed++
		}
	}
	if failed > 0 {
		return cli.WalkFailed(fmt.Errorf("config: %d of %d servers failed", failed, len(runs)))
	}
	return exit
}

// holdConfig holds each server that answered, and the total, to the
// budgets named for it (each --budget, then the file's). It returns the
// checks and the budget names that nothing declared; a --budget whose key
// names no server is a usage error.
func holdConfig(runs []*serverRun, total configTotal, given []*givenBudget, bfile *budgets.File) (checks gate.Checks, missing []string, err error) {
	if len(given) == 0 && bfile == nil {
		return nil, nil, nil
	}
	var keys []string
	hold := func(key, subject string, tokens, bytes int64) {
		name := budgetBlock + "." + key
		keys = append(keys, key)
		found := false
		for _, g := range given {
			if g.budget.Name == name {
				g.used, found = true, true
				checks = append(checks, gate.Hold(subject, name, gate.Measure{Kind: gate.ToolList}, tokens, bytes, gate.Given{g.budget}))
			}
		}
		if bfile != nil {
			if c := gate.Hold(subject, name, gate.Measure{Kind: gate.ToolList}, tokens, bytes, bfile); c.Budgeted() {
				checks, found = append(checks, c), true
			}
		}
		if !found {
			missing = append(missing, name)
		}
	}
	for _, r := range runs {
		if r.err == nil {
			rd := r.read()
			hold(r.name, r.name, rd.tokens, rd.bytes)
		}
	}
	hold("total", "every server", units.Tokens(total.bytes), total.bytes)
	for _, g := range given {
		if !g.used {
			sort.Strings(keys)
			return nil, nil, cli.Usage("%s: no server has that key (keys: %s)", g.budget.File, strings.Join(keys, ", "))
		}
	}
	return checks, missing, nil
}

// nameServers qualifies the names that two files share with their file.
func nameServers(runs []*serverRun) {
	count := map[string]int{}
	for _, r := range runs {
		count[r.srv.Name]++
	}
	for _, r := range runs {
		if count[r.srv.Name] > 1 {
			r.name = r.srv.Name + " (" + r.srv.File + ")"
		}
	}
}

// measureServers measures every server, o.jobs at a time, with a progress
// bar on stderr when it is a terminal.
func measureServers(runs []*serverRun, o *configOptions, tks []*tokenize.Tokenizer, stderr io.Writer) {
	bar := progress.New(stderr, "servers", len(runs))
	sem := make(chan struct{}, o.jobs)
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r.err = measureServer(r, o, tks)
			if r.err != nil {
				r.err = errors.New(mcpconfig.Redact(r.err.Error(), r.srv.Secrets))
			}
			bar.Add(1)
		})
	}
	wg.Wait()
	bar.Finish()
}

// measureServer starts or connects to one server and measures its list.
func measureServer(r *serverRun, o *configOptions, tks []*tokenize.Tokenizer) error {
	s := r.srv
	if s.Err != nil {
		return s.Err
	}
	ctx := context.Background()
	var srv mcpwire.Server
	switch s.Transport {
	case mcpconfig.Stdio:
		srv = mcpwire.Server{Command: append([]string{s.Command}, s.Args...), Stdio: mcpwire.StdioOptions{Env: s.Env, Dir: s.Dir, Timeout: o.timeout, StartTimeout: max(o.startTimeout, o.timeout)}}
	default:
		ho := mcpwire.HTTPOptions{Timeout: o.timeout}
		for _, h := range s.Header {
			if ho.Header == nil {
				ho.Header = map[string][]string{}
			}
			ho.Header.Add(h[0], h[1])
		}
		srv = mcpwire.Server{URL: s.URL, SSE: s.Transport == mcpconfig.SSE, HTTP: ho}
	}
	c, err := mcpwire.Dial(ctx, srv)
	if err != nil {
		return err
	}
	defer c.Close()
	path := "tools-" + fileSafe(s.Name) + ".json"
	if o.output != "" {
		path = filepath.Join(o.output, path)
	}
	t, err := take(ctx, c, mcpwire.Version20250618, json.RawMessage(o.caps), path, asCounters(tks))
	if err != nil {
		return timeoutHint(err)
	}
	r.t, r.figs = t, t.figs
	init, err := toollist.ParseInit(toollist.InitPath(path), t.initData)
	if err != nil {
		init = nil
	}
	if o.profile != nil {
		if err := measureAsClient(r, init, o.profile, tks); err != nil {
			return err
		}
	} else {
		r.lints = toollist.Lints(t.figs, init)
	}
	// The count lints and caps apply to the whole setup, once.
	kept := r.lints[:0]
	for _, l := range r.lints {
		if l.Rule != "tool-count" && l.Rule != "tool-cap" {
			kept = append(kept, l)
		}
	}
	r.lints = kept
	if o.output != "" {
		if err := writeBoth(path, t.list, toollist.InitPath(path), t.initData); err != nil {
			return err
		}
		r.capture = path
	}
	return nil
}

// measureAsClient counts what the client of profile p reads of the
// server's list, its tools named by p's rule from the server's key in the
// configuration (the name the client puts in front of them), and makes
// the client's cuts and names refused the server's lints. The client's
// cap is of every server's tools together, so each server is counted
// without it (setupCountLint holds the whole to it).
func measureAsClient(r *serverRun, init *toollist.Init, p *toollist.Profile, tks []*tokenize.Tokenizer) error {
	uncapped := *p
	uncapped.Cap = 0
	counters := make([]toollist.Counter, len(tks))
	for i, t := range tks {
		counters[i] = t
	}
	cf, err := toollist.MeasureClient(r.t.capt, r.figs, init, &uncapped, toollist.ClientOptions{Server: r.srv.Name, Counters: counters})
	if err != nil {
		return err
	}
	cf.Profile = p
	r.client = cf
	for _, fd := range cf.Findings {
		if fd.Kind != "fields-dropped" { // what no client reads: a fact, not a fault
			r.lints = append(r.lints, toollist.Lint{Rule: fd.Kind, Tool: fd.Tool, Text: fd.Detail})
		}
	}
	return nil
}

// setupCountLint is the lint of a whole setup's tool count: with --client
// (p not nil), that client's cap, else the caps of every client and API.
func setupCountLint(p *toollist.Profile, tools int) (toollist.Lint, bool) {
	if p == nil {
		return toollist.CountLint(tools)
	}
	if p.Cap == 0 || tools <= p.Cap {
		return toollist.Lint{}, false
	}
	return toollist.Lint{Rule: "tool-cap", Text: fmt.Sprintf("%s %s: the servers list %d tools together, %d past the cap of %d",
		p.Title, p.CapEffect, tools, tools-p.Cap, p.Cap)}, true
}

// fileSafe makes a server name a file name's part: each run of
// characters other than A-Z, a-z, 0-9, ".", "_" and "-" becomes one "_".
func fileSafe(name string) string {
	var b strings.Builder
	run := false
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
			b.WriteByte(c)
			run = false
		case !run:
			b.WriteByte('_')
			run = true
		}
	}
	s := b.String()
	if s == "" || s == "." || s == ".." {
		return "server"
	}
	return s
}

// toolCollisions names each tool name that two or more servers list.
func toolCollisions(runs []*serverRun) []string {
	where := map[string][]string{}
	var order []string
	for _, r := range runs {
		if r.err != nil {
			continue
		}
		seen := map[string]bool{}
		add := func(name string) {
			if seen[name] {
				return
			}
			seen[name] = true
			if where[name] == nil {
				order = append(order, name)
			}
			where[name] = append(where[name], r.name)
		}
		if r.client != nil { // the names as the client shows them
			for _, t := range r.client.Tools {
				if t.Sent && r.figs.PerTool[t.Index].HasName {
					add(t.Name)
				}
			}
			continue
		}
		for _, t := range r.figs.PerTool {
			if t.HasName {
				add(t.Name)
			}
		}
	}
	var out []string
	for _, n := range order {
		if len(where[n]) > 1 {
			out = append(out, fmt.Sprintf("the tool name %q is listed by %s", n, joinAnd(where[n])))
		}
	}
	return out
}

func joinAnd(ss []string) string {
	if len(ss) <= 1 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}

// writeConfigTable prints one row per server and a total row; with
// --client (p not nil), what that client reads, its approximations marked
// "~".
func writeConfigTable(w io.Writer, paths []string, runs []*serverRun, p *toollist.Profile, tools, wire, bytes int64, totalTk []int64, tks []*tokenize.Tokenizer) {
	line(w, "%d %s from %s", len(runs), plural(len(runs), "server", "servers"), strings.Join(paths, ", "))
	mark := func(s string) string { return s }
	read := "model-read bytes"
	if p != nil {
		line(w, "as %s reads them: every tool loaded, each named as %s names it, from the server's key in the file", p.Title, p.Title)
		read = "bytes " + p.Name + " reads"
		if !p.Exact {
			mark = func(s string) string { return "~" + s }
		}
	}
	fmt.Fprintln(w)
	head := []string{"server", "tools", "wire bytes", read, units.TokensLabel}
	for _, tk := range tks {
		head = append(head, tk.Name())
	}
	t := table.New(append(head, "share", "status")...)
	for i := 1; i <= len(head); i++ { // the numbers and the share; the status reads left
		t.Right(i)
	}
	for _, r := range runs {
		if r.err != nil {
			row := []string{r.name}
			for range len(head) - 1 {
				row = append(row, "-")
			}
			t.Add(append(row, "-", "failed: "+r.err.Error())...)
			continue
		}
		rd := r.read()
		row := []string{r.name, group(rd.tools), group(r.figs.WireBytes), mark(group(rd.bytes)), mark(group(rd.tokens))}
		for _, tc := range rd.tokenizers {
			row = append(row, mark(group(tc.Tokens)))
		}
		t.Add(append(row, share(rd.bytes, bytes), "ok")...)
	}
	row := []string{"total", group(tools), group(wire), mark(group(bytes)), mark(group(units.Tokens(bytes)))}
	for i := range tks {
		var v int64
		if i < len(totalTk) {
			v = totalTk[i]
		}
		row = append(row, mark(group(v)))
	}
	t.Add(append(row, share(bytes, bytes), "")...)
	render(w, t)
	if p != nil && !p.Exact {
		fmt.Fprintln(w)
		line(w, "~ an approximation: %s does not document the form it sends (docs/clients.md)", p.Title)
	}
}

// writeChecks prints the budget table, when there are checks.
func writeChecks(w io.Writer, checks gate.Checks) {
	if len(checks) == 0 {
		return
	}
	fmt.Fprintln(w)
	writeBudgetTable(w, checks)
}

// writeNotes prints warnings once, under the tables.
func writeNotes(w io.Writer, notes []string) { writeList(w, "warnings", notes) }

// writeList prints a list under the tables, under its title (warnings,
// notes).
func writeList(w io.Writer, title string, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, title+":")
	bullet := "  "
	if _, ok := w.(markdown); ok {
		fmt.Fprintln(w)
		bullet = "- "
	}
	for _, s := range notes {
		fmt.Fprintln(w, bullet+text(w, s))
	}
}

// configJSON is the --json report of measure config: client and
// exact_rendering when the figures are what a client reads, budgets when
// any is held.
type configJSON struct {
	Client         *string            `json:"client,omitempty"`
	ExactRendering *bool              `json:"exact_rendering,omitempty"`
	Servers        []configServerJSON `json:"servers"`
	Total          configTotalJSON    `json:"total"`
	Collisions     []string           `json:"collisions"`
	Lints          []string           `json:"lints"`
	Budgets        []budgetJSON       `json:"budgets,omitempty"`
	Warnings       []string           `json:"warnings"`
	Notes          []string           `json:"notes"`
}

// configServerJSON is a server's row: its figures null and its error given
// when it could not be measured; tokenizers when counted.
type configServerJSON struct {
	Name            string          `json:"name"`
	Tools           *int64          `json:"tools"`
	ModelReadBytes  *int64          `json:"model_read_bytes"`
	ModelReadTokens *int64          `json:"model_read_tokens"`
	Tokenizers      *jsonout.Object `json:"tokenizers,omitempty"`
	Error           *string         `json:"error"`
}

type configTotalJSON struct {
	Servers         int64          `json:"servers"`
	Tools           int64          `json:"tools"`
	ModelReadBytes  int64          `json:"model_read_bytes"`
	ModelReadTokens int64          `json:"model_read_tokens"`
	Tokenizers      jsonout.Object `json:"tokenizers,omitempty"`
}

func newConfigJSON(runs []*serverRun, p *toollist.Profile, total configTotal, tks []*tokenize.Tokenizer, collisions, lints, warnings, notes []string, checks gate.Checks) *configJSON {
	tokenizers := func(counts []int64) jsonout.Object {
		o := make(jsonout.Object, len(tks))
		for i, tk := range tks {
			var v int64
			if i < len(counts) {
				v = counts[i]
			}
			o[i] = jsonout.Member{Key: tk.Name(), Value: v}
		}
		return o
	}
	c := &configJSON{
		Servers:    make([]configServerJSON, len(runs)),
		Total:      configTotalJSON{total.servers, total.tools, total.bytes, units.Tokens(total.bytes), nil},
		Collisions: collisions, Lints: lints, Budgets: budgetsJSON(checks), Warnings: warnings, Notes: notes,
	}
	if p != nil { // the figures are what this client reads
		c.Client, c.ExactRendering = ptr(p.Name), &p.Exact
	}
	if len(tks) > 0 {
		c.Total.Tokenizers = tokenizers(total.tokenizers)
	}
	for i, r := range runs {
		row := configServerJSON{Name: r.name}
		if r.err != nil {
			row.Error = ptr(r.err.Error())
			if len(tks) > 0 {
				row.Tokenizers = new(jsonout.Object) // null
			}
		} else {
			rd := r.read()
			row.Tools, row.ModelReadBytes, row.ModelReadTokens = &rd.tools, &rd.bytes, &rd.tokens
			if len(tks) > 0 {
				counts := make([]int64, len(rd.tokenizers))
				for j, tc := range rd.tokenizers {
					counts[j] = tc.Tokens
				}
				row.Tokenizers = ptr(tokenizers(counts))
			}
		}
		c.Servers[i] = row
	}
	return c
}
