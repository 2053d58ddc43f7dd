package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/tokenize"
	"github.com/readmeter/readmeter/toollist"
)

// measureDoc is what measure's help says between the usage and the flags.
const measureDoc = `measure reads saved tools/list answers and reports what a language model
reads of them, byte-exact with Node's JSON.stringify: wire bytes, model-read
bytes and tokens (floor(bytes/3)), per tool and per toolset, description
sizes, and what-if savings.

A CAPTURE is a JSON-RPC response, a bare result ({"tools": [...]}) or an
event-stream body, detected by content; - reads one from standard input
(named stdin, its budget key stdin unless --budget-key says). Its initialize (or server/discover)
answer, when saved beside it as STEM.init.EXT (tools-mcp.init.json for
tools-mcp.json), gives the instructions checked against their ceiling.
Several captures (one per address) are reported side by side; toolsets are
taken from the first. A file given that is another capture's init answer is
read as that, not as a capture (so captures/twin/tools-*.json works).

Lints: the limits of the clients and model APIs that read a tool list,
printed as warnings under the table (findings with --strict): a
description or instructions over 2,048 characters (Claude Code cuts them),
a tool name the major model APIs refuse (OpenAI and Anthropic take
^[a-zA-Z0-9_-]{1,64}$; Gemini wants a letter or _ first), a tool without
the inputSchema MCP requires, more tools than
a client or API takes (Cursor 40, Gemini 64, Windsurf 100, OpenAI and
VS Code 128). Sources: see docs/clients.md.

Clients (--client claude-code,cursor or --client all): what each client's
model reads, counted as that client sends it (docs/clients.md holds each
client's rules and their sources): tool names as it shows them
(mcp__SERVER__TOOL in Claude Code), the descriptions and instructions
after its cut, only the fields it sends, its prelude once, the tools up to
its cap; its fixed overhead in tokens beside (an estimate where marked ~).
Claude Code's session start is given with tool search on (deferred tools:
their names only; --always-load and _meta "anthropic/alwaysLoad" load a
tool whole) and off. With --client the lints are the clients' findings,
which --json lists under "clients". --marginal prints what removing each
tool saves, the shared bytes counted once, and checks that they add up.
measure calibrate fits the counts to a provider's (see measure calibrate
--help); --calibration FILE prints each client's estimate with its error.

What-ifs (--lean, --drop-empty-output-schemas, --words, --drop-unused-defs,
--hoist-repeated, --sdk-key-order) apply in that order;
each reports its wire saving (the answer re-serialized compact, as
JSON.stringify writes it, before minus after) and its model-read saving,
measured after the ones before it.

measure diff OLD NEW compares two captures: old, new, change and delta
for every figure and per tool, with the tools added and removed, and gates
growth with --max-growth (see measure diff --help). measure snap DIR
CAPTURE keeps one file per tool, what a model reads of it, to review and
check in (see measure snap --help). measure capture takes a tool list live from a server and saves it,
with its init answer beside it (see measure capture --help). measure config
measures every server of an MCP client's configuration, one row each and
a total (see measure config --help).

Budgets: a capture's budget key is --budget-key, or its file name up to
the first "." with a leading "tools-" removed (tools-mcp.json -> mcp,
x.tools-list.json -> x); a toolset's key is its name. In a budgets file
the key is looked up as TOOL_LIST_TOKENS.KEY; --budget takes KEY=TOKENS or
TOOL_LIST_TOKENS.KEY=TOKENS. A list reading more tokens than its budget is
a breach. Tokens are floor(bytes/3); a budget in the block TOOL_LIST_O200K
(or TOOL_LIST_CL100K) counts that tokenizer's tokens instead. A budget in
these blocks that nothing read is reported (with --strict, a finding).
TOOL_LIST_TOKENS.KEY.CLIENT (CLIENT nested under KEY) holds what CLIENT
reads of the capture, every tool loaded, and has measure count that client.

--update sets every budget at what was read, digits only, adding the keys
and blocks the file lacks (or the file), in the file's own style. The file
is locked from its first read to its write, so runs that update one file
follow each other (one says so on stderr while it waits); if it changed on
disk during the run (an edit by hand, a deletion), nothing is written,
exit 2, and the numbers read are printed, one "KEY VALUE" line each. A
budget file may say whose numbers it holds ("$server": "NAME" in JSON,
"// $server: NAME" in TypeScript): --update refuses to write numbers of
another server into it. A capture's server is unknown unless --server
names it; an unmarked file takes any numbers, and a file --update creates
is marked with --server's NAME when given. --update=existing moves only
the numbers the file has and adds no key, block or file. See
docs/budgets.md.
`

// run is the command: it dispatches the subcommands and measures captures.
func run(stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "capture":
			return runCapture(stdout, stderr, args[1:])
		case "diff":
			return runDiff(stdout, stderr, args[1:])
		case "config":
			return runConfig(stdout, stderr, args[1:])
		case "snap":
			return runSnap(stdout, stderr, args[1:])
		case "calibrate":
			return runCalibrate(stdout, stderr, args[1:])
		case "help":
			if len(args) == 1 {
				io.WriteString(stdout, newCommand(new(options)).Help())
				return nil
			}
			switch args[1] {
			case "diff", "capture", "config", "snap", "calibrate":
				return run(stdout, stderr, []string{args[1], "--help"})
			}
			return cli.Usage("help: no subcommand %q: use diff, capture, config, snap or calibrate", args[1])
		}
	}
	return runMeasure(stdout, stderr, args)
}

// options are the flags of `measure CAPTURE...`.
type options struct {
	json                 bool
	jsonArray            bool
	markdown             bool
	toolsets             string
	lean                 bool
	dropEmpty            bool
	sdkKeyOrder          bool
	words                string
	write                string
	init                 string
	maxDescriptionChars  int
	maxInstructionsChars int
	budget               []string
	budgetsFile          string
	budgetKey            string
	tokenizer            string
	tokenizers           []*tokenize.Tokenizer
	strict               bool
	update               bool
	existing             bool // --update=existing: move the numbers the file has, add none
	server               string
	github               bool
	junit                string
	client               string
	alwaysLoad           string
	serverName           string
	marginal             bool
	calibration          string
	html                 string
	profile              bool
	dropUnusedDefs       bool
	hoistRepeated        bool
	profiles             []*toollist.Profile
	calib                *toollist.Calibration
	// descCeiling and instrCeiling: the ceilings were asked for
	descCeiling, instrCeiling bool
}

// newCommand returns measure's command with its flags bound to o.
func newCommand(o *options) *cli.Command {
	c := cli.NewCommand("measure",
		"measure [flags] CAPTURE...",
		"measure diff [flags] OLD NEW",
		"measure capture -o FILE [flags] URL",
		"measure config [flags] [FILE...]",
		"measure snap [--check | --update] DIR CAPTURE",
		"measure calibrate [-o FILE] COUNTS.json")
	c.Doc = measureDoc + profileDoc()
	c.Exits = []int{cli.ExitOK, cli.ExitFinding, cli.ExitUsage, cli.ExitWalk, 130} // 3: measure capture and measure config
	fs := c.Flags
	c.JSON(&o.json)
	fs.BoolVar(&o.jsonArray, "json-array", false, "--json as an array of reports even for one capture: one shape whatever the number of captures (--json alone: an object for one, an array for several)")
	c.Markdown(&o.markdown)
	fs.StringVar(&o.toolsets, "toolsets", "", "JSON map from set name to tool names in `FILE`: report each set of the first capture")
	fs.BoolVar(&o.lean, "lean", false, "what-if: remove $schema at any depth, and any maximum equal to 9007199254740991, from the input and output schemas")
	fs.BoolVar(&o.dropEmpty, "drop-empty-output-schemas", false, "what-if: remove output schemas that declare no property")
	fs.BoolVar(&o.sdkKeyOrder, "sdk-key-order", false, "what-if: put the root keys of each input and output schema in the order a client built on the MCP TypeScript SDK hands them on (type, properties, required first): the same bytes, other real-tokenizer counts (docs/clients.md)")
	fs.StringVar(&o.words, "words", "", "what-if: JSON map in `FILE` from \"TOOL\" (its description) or \"TOOL:/json/pointer\" (a text inside its inputSchema) to the new text")
	finderFlags(fs, o)
	fs.StringVar(&o.write, "write", "", "save the capture after the what-ifs to `FILE`, in the capture's own form (one capture; never a file the run reads)")
	fs.StringVar(&o.init, "init", "", "the initialize or server/discover answer `FILE` (default: STEM.init.EXT beside the capture)")
	fs.IntVar(&o.maxDescriptionChars, "max-description-chars", 0, "a ceiling of `N` UTF-16 code units for a tool description: a gate, none by default (the service's CI asks for 2000)")
	fs.IntVar(&o.maxInstructionsChars, "max-instructions-chars", 0, "a ceiling of `N` UTF-16 code units for the instructions: a gate, none by default")
	c.Strict(&o.strict)
	c.Budgets(&o.budgetsFile)
	c.UpdateExisting(&o.update, &o.existing)
	fs.StringArrayVar(&o.budget, "budget", nil, "a budget `KEY=TOKENS` for a capture or toolset key (repeatable)")
	fs.StringVar(&o.budgetKey, "budget-key", "", "the budget `KEY` of the one capture given (default: its file name up to the first \".\", without \"tools-\")")
	c.Server(&o.server)
	tokenizerFlag(fs, &o.tokenizer)
	c.GitHub(&o.github)
	c.JUnit(&o.junit)
	fs.StringVar(&o.client, "client", "", "what each client's model reads: a comma-separated `LIST` of "+strings.Join(toollist.ProfileNames(), ", ")+", or all (docs/clients.md)")
	fs.StringVar(&o.alwaysLoad, "always-load", "", "with --client claude-code: the tools (a comma-separated `LIST` of their names) loaded whole at session start under tool search")
	fs.StringVar(&o.serverName, "server-name", "", "the server's `NAME` in the client's configuration, which clients put in tool names (default: the init answer's serverInfo.name, else the budget key)")
	fs.BoolVar(&o.marginal, "marginal", false, "print what removing each tool saves, the shared prelude and instructions counted once, with the check that they add up")
	fs.StringVar(&o.calibration, "calibration", "", "a calibration `FILE` that measure calibrate wrote: print each client's estimate of the provider's tokens with its error")
	fs.StringVar(&o.html, "html", "", htmlFlagUsage)
	return c
}

// report is everything measured of one capture.
type report struct {
	capture *toollist.Capture
	figures *toollist.Figures
	sets    []toollist.ToolsetFigures
	init    *toollist.Init
	savings []toollist.Saving
	over    []toollist.Over
	budgets gate.Checks
	stale   []budgets.Budget // budgets nothing read (on the first report)
	// missing are the budgets the --budgets file lacks for what was read
	// (on the first report), missingFile that file.
	missing     []string
	missingFile string
	lints       []toollist.Lint
	warnings    []string
	// cautions are the warnings that are neither a lint nor a budget's
	// (a what-if that cannot follow a $ref, bytes that are not UTF-8):
	// in warnings too, and findings with --strict.
	cautions []string
	// notes are facts worth knowing that are no fault (an optional field
	// absent): printed under the warnings, never a finding.
	notes []string
	// budgetNotes are the warnings of the budget checks (on the first
	// report): made anew by each checkBudgets, printed after warnings.
	budgetNotes []string
	clients     []*toollist.ClientFigures
	marginal    bool // --marginal: print what removing each tool saves
	profile     *toollist.ByteProfile
	// estimates: each client's calibrated estimate, by client name
	estimates map[string]estimate
}

// measureRun is one `measure CAPTURE...`, staged as walks stages its runs:
// prepare (flags, and what they name, read and checked before any
// capture), run (each capture measured), hold (the budgets checked),
// update (--update, --write), report (the table or JSON, the findings,
// the CI outputs) and the exit they call for.
type measureRun struct {
	o       options
	paths   []string
	given   []*givenBudget
	sets    []toollist.Toolset
	words   *toollist.Words
	bfile   *budgets.File   // nil without --budgets (or a file --update creates)
	locked  *budgets.Locked // the budget file, held from its first read to its write, with --update
	server  string          // whose numbers the run reads: budgets.RunServer
	pending *atomicfile.Pending
	reports []*report
	// readings are what was read under each budget key: what --update writes
	readings map[string]int64
}

func runMeasure(stdout, stderr io.Writer, args []string) error {
	m, err := prepareMeasure(stdout, stderr, args)
	if m == nil {
		return err // an error, or the help printed
	}
	defer m.close()
	if err := m.run(); err != nil {
		return err
	}
	if err := m.hold(); err != nil {
		return err
	}
	if err := m.update(stderr); err != nil {
		return err
	}
	return m.report(stdout, stderr)
}

// prepareMeasure reads the flags and checks them, then reads what they
// name. It returns a nil run with a nil error when it printed the help.
func prepareMeasure(stdout, stderr io.Writer, args []string) (*measureRun, error) {
	m := &measureRun{}
	o := &m.o
	c := newCommand(o)
	if help, err := c.Parse(stdout, args); help || err != nil {
		return nil, err
	}
	fs := c.Flags
	o.json = o.json || o.jsonArray // --json-array is --json, one shape
	o.descCeiling, o.instrCeiling = fs.Changed("max-description-chars"), fs.Changed("max-instructions-chars")
	m.paths = skipInitAnswers(fs.Args())
	if len(m.paths) == 0 {
		return nil, cli.Usage("no capture given (see measure --help)")
	}
	if n := len(slices.DeleteFunc(slices.Clone(m.paths), func(p string) bool { return p != "-" })); n > 1 {
		return nil, cli.Usage("- (standard input) is given twice: it can be read once")
	}
	limitMemory(m.paths, allocatesPerTool(o))
	if err := m.checkFlags(); err != nil {
		return nil, err
	}
	if err := m.load(stderr); err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}

// checkFlags refuses flags that do not go together and reads the ones
// that name a list: budgets, tokenizers, clients.
func (m *measureRun) checkFlags() error {
	o := &m.o
	transforms := o.lean || o.dropEmpty || o.words != "" || o.dropUnusedDefs || o.hoistRepeated || o.sdkKeyOrder
	switch {
	case o.write != "" && len(m.paths) != 1:
		return cli.Usage("--write takes one capture; %d given", len(m.paths))
	case o.write != "" && !transforms:
		return cli.Usage("--write saves the capture after a what-if: add --lean, --drop-empty-output-schemas, --words, --drop-unused-defs, --hoist-repeated or --sdk-key-order")
	case o.init != "" && len(m.paths) != 1:
		return cli.Usage("--init takes one capture; %d given", len(m.paths))
	case o.budgetKey != "" && len(m.paths) != 1:
		return cli.Usage("--budget-key names the one capture given; %d given", len(m.paths))
	case o.json && o.markdown:
		return cli.Usage("--json and --markdown exclude each other")
	case o.maxDescriptionChars < 0:
		return cli.Usage("--max-description-chars %d: a ceiling is a number of characters, 0 or more", o.maxDescriptionChars)
	case o.maxInstructionsChars < 0:
		return cli.Usage("--max-instructions-chars %d: a ceiling is a number of characters, 0 or more", o.maxInstructionsChars)
	case o.update && o.budgetsFile == "":
		return cli.Usage("--update sets the budgets of a budgets file: give --budgets FILE")
	}
	if err := checkWriteTarget(o, m.paths[0]); err != nil {
		return err
	}
	if o.junit != "" {
		if err := atomicfile.Writable(o.junit); err != nil {
			return cli.Usage("--junit %s: %v", o.junit, unwrapPath(err))
		}
	}
	if err := checkHTMLPath(o.html); err != nil {
		return err
	}
	var err error
	if m.given, err = parseBudgetFlags(o.budget); err != nil {
		return err
	}
	if o.tokenizers, err = parseTokenizers(o.tokenizer); err != nil {
		return err
	}
	if o.profiles, err = parseClients(o.client); err != nil {
		return err
	}
	switch {
	case o.alwaysLoad != "" && !slices.ContainsFunc(o.profiles, func(p *toollist.Profile) bool { return p.Deferral }):
		return cli.Usage("--always-load names the tools Claude Code loads whole under tool search: add --client claude-code")
	case o.serverName != "" && len(o.profiles) == 0:
		return cli.Usage("--server-name names the server in the clients' tool names: add --client")
	}
	return nil
}

// load reads the files the flags name (calibration, toolsets, words, the
// budgets, locked with --update), adds the clients and tokenizers they
// ask for, and opens the --write file.
func (m *measureRun) load(stderr io.Writer) error {
	o := &m.o
	var err error
	if o.calibration != "" {
		if o.calib, err = toollist.ReadCalibration(o.calibration); err != nil {
			return err
		}
		for _, c := range o.calib.Clients {
			o.profiles = addClient(o.profiles, c.Client)
			if c.Predictor != "bytes" {
				if err := m.addTokenizer(c.Predictor); err != nil {
					return cli.Usage("%s: %v", o.calibration, err)
				}
			}
		}
	}
	if o.toolsets != "" {
		if m.sets, err = toollist.ReadToolsets(o.toolsets); err != nil {
			return err
		}
	}
	if o.words != "" {
		if m.words, err = toollist.ReadWords(o.words); err != nil {
			return err
		}
	}
	if err := m.loadBudgets(stderr); err != nil {
		return err
	}
	for _, c := range wantedClients(m.bfile, m.given) {
		o.profiles = addClient(o.profiles, c)
	}
	for _, u := range wantedUnits(m.bfile, m.given) {
		if err := m.addTokenizer(u); err != nil {
			return cli.Usage("%v", err)
		}
	}
	// --write streams the transformed capture into a temporary file beside
	// its place, renamed into place once everything held.
	if o.write != "" {
		if m.pending, err = atomicfile.Create(o.write); err != nil {
			return cli.Usage("%s: %v", o.write, unwrapPath(err))
		}
	}
	return nil
}

// addTokenizer counts with the tokenizer named, unless it counts already.
func (m *measureRun) addTokenizer(name string) error {
	if slices.ContainsFunc(m.o.tokenizers, func(t *tokenize.Tokenizer) bool { return t.Name() == name }) {
		return nil
	}
	t, err := tokenize.Get(name)
	if err != nil {
		return err
	}
	m.o.tokenizers = append(m.o.tokenizers, t)
	return nil
}

// loadBudgets reads the --budgets file; with --update it is locked from
// its first read to the write, so that runs that update the file follow
// each other whole.
func (m *measureRun) loadBudgets(stderr io.Writer) error {
	o := &m.o
	m.server = budgets.RunServer(o.server, "", false)
	var err error
	switch {
	case o.update:
		m.locked, err = budgets.Lock(cli.Context(), o.budgetsFile, func() {
			fmt.Fprintf(stderr, "measure: waiting for another run's --update of %s\n", o.budgetsFile)
		})
		if err != nil {
			return err
		}
		if m.locked.Exists() {
			m.bfile = m.locked.File()
		} else if o.existing {
			return cli.Usage("--update=existing: %s does not exist: there are no numbers to move (plain --update creates it)", o.budgetsFile)
		}
		if err := budgets.CheckServer(m.locked.File(), m.server, "--server"); err != nil {
			return cli.Usage("--update: %v", err)
		}
	case o.budgetsFile != "":
		if m.bfile, err = budgets.Load(o.budgetsFile); err != nil {
			return err
		}
	}
	return nil
}

// close lets go of what the run holds: the captures, the --write file
// (thrown away unless committed) and the lock.
func (m *measureRun) close() {
	for i := len(m.reports) - 1; i >= 0; i-- {
		m.reports[i].capture.Close()
	}
	if m.pending != nil {
		m.pending.Abort()
	}
	if m.locked != nil {
		m.locked.Unlock()
	}
}

// run measures each capture.
func (m *measureRun) run() error {
	m.reports = make([]*report, 0, len(m.paths))
	for i, path := range m.paths {
		r, err := measureOne(path, i == 0, m.sets, m.words, &m.o, m.pending)
		if err != nil {
			return err
		}
		if path == "-" {
			m.paths[i] = toollist.StdinName // its name, and its budget key
		}
		m.reports = append(m.reports, r)
	}
	return nil
}

// hold checks what was read against the budgets.
func (m *measureRun) hold() (err error) {
	m.readings, err = checkBudgets(m.reports, m.paths, m.o.budgetKey, m.given, m.bfile, m.o.budgetsFile)
	return err
}

// update moves the budgets to what was read, with --update, and checks
// again against the file as written; then it puts the --write file in
// its place.
func (m *measureRun) update(stderr io.Writer) error {
	o := &m.o
	if o.update {
		var written *budgets.Written
		var err error
		if o.existing {
			written, err = m.locked.WriteExisting(m.readings)
		} else {
			written, err = m.locked.Write(m.readings, m.server)
		}
		var ae *budgets.AddError
		switch {
		case errors.As(err, &ae):
			return cli.Usage("%v; %s", err, keyHint)
		case errors.Is(err, budgets.ErrChanged):
			fmt.Fprintf(stderr, "measure: %v; the numbers read:\n", err)
			cli.PrintReadings(stderr, m.readings)
			return cli.SilentUsage
		case err != nil:
			return err
		}
		moved := len(written.Added)
		for _, mv := range written.Moves {
			if mv.Old != mv.New && !slices.Contains(written.Added, mv.Name) {
				line(stderr, "measure: %s: %s moved from %s to %s (%s)", mv.Where(), mv.Name, units.Group(mv.Old), units.Group(mv.New), units.Signed(mv.New-mv.Old))
				moved++
			}
		}
		for _, a := range written.Added {
			line(stderr, "measure: %s: %s added at %s", o.budgetsFile, a, units.Group(m.readings[a]))
		}
		if moved == 0 {
			line(stderr, "measure: --update: no budget moved: %s holds what was read", o.budgetsFile)
		}
		// the checks as they hold now, against the file as written
		if _, err := checkBudgets(m.reports, m.paths, o.budgetKey, m.given, written.File, o.budgetsFile); err != nil {
			return err
		}
	}
	if m.pending != nil {
		init, err := prepareInit(m.reports[0], o.write)
		if err != nil {
			return err
		}
		if err := m.pending.Commit(); err != nil {
			if init != nil {
				init.Abort()
			}
			return cli.Usage("%s: %v", o.write, unwrapPath(err))
		}
		reportWritten(stderr, o.write)
		if init != nil {
			if err := init.Commit(); err != nil {
				return cli.Usage("%s: %v", toollist.InitPath(o.write), unwrapPath(err))
			}
			reportWrittenInit(stderr, toollist.InitPath(o.write), m.reports[0].init.Path)
		}
	}
	return nil
}

// report writes the JSON or the tables, the findings and the CI outputs,
// and returns the exit the findings call for.
func (m *measureRun) report(stdout, stderr io.Writer) error {
	o := &m.o
	if o.html != "" {
		page, err := measurePage(m.reports, m.paths)
		if err == nil {
			err = writeHTML(o.html, page)
		}
		if err != nil {
			return err
		}
	}
	out := stdout
	if o.markdown {
		out = markdown{stdout}
	}
	if o.json {
		if err := writeJSON(stdout, m.reports, o); err != nil {
			return err
		}
	} else if len(m.reports) == 1 {
		writeTable(out, m.reports[0])
	} else {
		writeSideBySide(out, m.reports)
	}
	subs := subjects(m.reports, m.paths, o.budgetKey)
	found := reportFindings(m.reports, subs, o.strict)
	exit := writeFindings(stderr, found)
	annotate := stdout
	if o.json { // stdout is the JSON document
		annotate = stderr
	}
	if err := ciOutputs(annotate, stderr, m.reports, subs, found, o); err != nil {
		return cli.Usage("%v", err)
	}
	return exit
}

// limitMemory asks the garbage collector to keep the Go heap within what
// leaves the whole process under twice the size of the captures: twice
// their size, less what lies outside the heap (the program's code, about
// 8 MiB resident, and the window of a mapped capture being read, about 2
// MiB), and at least 8 MiB. The collector works
// harder only as the heap nears the limit (never more than half the CPU,
// by the runtime's own rule), so small captures and large ones measure as
// fast as before.
//
// Captures of up to gcOffBelow in all are measured with the collector
// off until the heap nears a limit of at least their size and 24 MiB: a
// run allocates about a quarter of the captures' size, mostly figures
// kept to the end, so a collection would find little to free, and
// costs more than it saves (marking, and the pages it touches). A run
// that allocates for each tool what it drops after it (perTool: the
// profile, or what-ifs that parse each tool) keeps the collector on,
// since nearly all it allocates is garbage (each tool is parsed into the
// room of the last one); up to roomyPerToolBelow it is given the same
// roomy limit, which costs no more CPU than the collector off and holds a
// third less memory (bench/finders.sh). GOGC or GOMEMLIMIT, when set,
// wins.
func limitMemory(paths []string, perTool bool) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var total int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			total += st.Size()
		}
	}
	limit := max(2*total-10<<20, 8<<20)
	if total <= gcOffBelow && (!perTool || total <= roomyPerToolBelow) {
		limit = max(limit, total+24<<20)
		if !perTool && os.Getenv("GOGC") == "" {
			debug.SetGCPercent(-1)
		}
	}
	debug.SetMemoryLimit(limit)
}

// gcOffBelow is the size of captures up to which measure runs with a
// limit of their size and 24 MiB, and the collector off unless the run
// allocates for each tool (see limitMemory); roomyPerToolBelow the
// size up to which a run that does is given that limit.
const (
	gcOffBelow        = 64 << 20
	roomyPerToolBelow = 4 << 20
)

// allocatesPerTool reports whether the run allocates for each tool what it
// drops after it: the profile (--profile, --html), or what-ifs that parse
// each tool.
func allocatesPerTool(o *options) bool {
	return o.profile || o.html != "" || o.dropUnusedDefs || o.hoistRepeated
}

// skipInitAnswers leaves out of paths the files that are the init answers
// of other captures given (tools-mcp.init.json beside tools-mcp.json), as a
// glob such as captures/twin/tools-*.json names them: each is read with its
// capture.
func skipInitAnswers(paths []string) []string {
	inits := map[string]bool{}
	for _, p := range paths {
		inits[filepath.Clean(toollist.InitPath(p))] = true
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !inits[filepath.Clean(p)] {
			out = append(out, p)
		}
	}
	return out
}

// measureOne reads and measures one capture; the first one also gets the
// toolsets. With out (--write), the transformed capture is written to it.
func measureOne(path string, first bool, sets []toollist.Toolset, words *toollist.Words, o *options, out *atomicfile.Pending) (*report, error) {
	var ts []toollist.Transform
	if o.lean {
		ts = append(ts, toollist.Lean())
	}
	if o.dropEmpty {
		ts = append(ts, toollist.DropEmptyOutputSchemas())
	}
	if words != nil {
		ts = append(ts, words.Transform())
	}
	ts = append(ts, finderTransforms(o)...)
	if o.sdkKeyOrder {
		ts = append(ts, toollist.SDKKeyOrder())
	}
	opts := toollist.Options{Counters: asCounters(o.tokenizers), Transforms: ts, Profile: o.profile}
	if out != nil {
		opts.Write = out
	}
	var c *toollist.Capture
	var err error
	if path == "-" {
		c, err = toollist.OpenReader(toollist.StdinName, os.Stdin, opts)
	} else {
		c, err = toollist.Open(path, opts)
	}
	if err != nil {
		var pe *fs.PathError
		if out != nil && errors.As(err, &pe) {
			// the file written, not the capture, is at fault
			return nil, cli.Usage("%s: %v", o.write, pe.Err)
		}
		return nil, err
	}
	f := c.Figures
	r := &report{capture: c, figures: f, savings: c.Savings, marginal: o.marginal}
	r.caution(f.Warnings...)
	if first && sets != nil {
		if r.sets, err = toollist.MeasureToolsets(f, path, sets); err != nil {
			return nil, err
		}
	}
	if err := r.readInit(path, o.init); err != nil {
		return nil, err
	}
	if len(ts) > 0 {
		r.caution(transformWarnings(ts)...)
	}
	if r.profile = c.Profile; r.profile != nil {
		if err := checkProfile(r.profile, f); err != nil {
			return nil, err
		}
		r.caution(r.profile.Warnings...)
	}
	if err := r.check(path, o); err != nil {
		return nil, err
	}
	return r, nil
}

// readInit reads the capture's init answer: initPath (--init), else
// STEM.init.EXT beside the capture when there is one.
func (r *report) readInit(path, initPath string) error {
	if initPath == "" && path != "-" {
		if st, err := os.Stat(toollist.InitPath(path)); err == nil && st.Mode().IsRegular() {
			initPath = toollist.InitPath(path)
		}
	}
	if initPath == "" {
		return nil
	}
	var err error
	if r.init, err = toollist.ReadInit(initPath); err != nil {
		return err
	}
	if r.init.Replaced > 0 {
		r.caution(fmt.Sprintf("%s: %d invalid UTF-8 %s decoded as U+FFFD, as Node decodes them",
			initPath, r.init.Replaced, plural(r.init.Replaced, "sequence", "sequences")))
	}
	if !r.init.HasInstructions {
		// instructions are optional in MCP: a fact, not a fault
		r.notes = append(r.notes, initPath+": the answer holds no instructions (optional in MCP; a server that has them says there how its tools go together)")
	}
	return nil
}

// check holds the capture measured (path) to the ceilings asked for,
// then to the clients' limits: each client's, with --client, else the
// lints.
func (r *report) check(path string, o *options) error {
	f := r.figures
	if o.descCeiling {
		r.over = append(r.over, toollist.OverDescriptions(f, o.maxDescriptionChars)...)
	}
	if o.instrCeiling {
		r.over = append(r.over, toollist.OverInstructions(r.init, o.maxInstructionsChars)...)
	}
	if len(o.profiles) > 0 {
		if err := measureClients(r, o); err != nil {
			return err
		}
		r.estimates = estimates(r, o.calib)
		return nil
	}
	r.lints = toollist.Lints(f, r.init)
	for _, l := range r.lints {
		where := path
		if l.Rule == "instructions-cut" {
			where = r.init.Path
		}
		r.warnings = append(r.warnings, where+": "+l.Text)
	}
	return nil
}

// tokenizerFlag defines --tokenizer, one text for measure and its
// subcommands.
func tokenizerFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "tokenizer", "", "also count what a model reads with real tokenizers, per tool and in total: a comma-separated `LIST` of o200k, cl100k (the vocabularies are built in, nothing is fetched)")
}

// parseTokenizers reads --tokenizer: nil when it is not given.
func parseTokenizers(list string) ([]*tokenize.Tokenizer, error) {
	if list == "" {
		return nil, nil
	}
	ts, err := tokenize.Parse(list)
	if err != nil {
		return nil, cli.Usage("--tokenizer: %v", err)
	}
	return ts, nil
}

// asCounters returns the tokenizers as the counters toollist.Open counts
// with.
func asCounters(ts []*tokenize.Tokenizer) []toollist.Counter {
	counters := make([]toollist.Counter, len(ts))
	for i, t := range ts {
		counters[i] = t
	}
	return counters
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
