package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/atomicfile"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/twin"
	"github.com/readmeter/readmeter/walk"
)

// runDoc is what walks run's help says between the usage and the flags.
const runDoc = `Runs each walk: its set-up steps (never counted), then its steps, every
answer counted in the walk's ledger. Prints per walk its parts, bytes and
tokens, then each budget with what the walk read and the slack.

With no --url, each walk runs against a twin of its own (the embedded
twin, a server that plays the agent service's surface), started empty on a
loopback port for the walk and stopped after it: a walk counts the same
alone, beside any others, in any order (--jobs, --shuffle) and in any
share (--shard). A run whose walks send nothing to a base URL (their
servers are stdio commands or absolute URLs) starts no twin.

With --url, the walks share the server. A walk that reads lists other
walks write (isolation: shared in its spec) counts what ran there before
it: such walks run first, one at a time, in the run's order, are named
in the report, and --shard deals them all to one share.

Each counted tools/call answer is held to the clients' answer limits (the
text of its content blocks, against Claude Code's file threshold, output
limit and error cut; see docs/clients.md): a limit passed is a warning
naming the walk, the part, the client and the limit; with --strict (which
needs no --budgets for it), a finding.

--update rewrites each budget at what its walk read and adds what the file
lacks (a key at any depth, a block, the file), keeping every other byte;
--update=existing moves only the numbers the file has and adds nothing (a
budget it lacks stays a warning).
The file is locked from its first read to its write, so runs that update
one file follow each other (one says so while it waits); if it changed on
disk during the run, nothing is written, exit 2, and the numbers read are
printed, one "KEY VALUE" line each. A budget file may say whose numbers it
holds ("$server": "NAME" in JSON, "// $server: NAME" in TypeScript); a
run's numbers are the twin's without --url, else the --url's host, or the
--server given. --update refuses a file marked as another server's, and
with no --url any file not marked as the twin's (an unmarked file may be
the service's); a file it creates is marked with the run's server. See
docs/budgets.md.
`

type runFlags struct {
	url        string
	noExec     bool
	allowHost  []string
	summary    bool
	walks      []string
	vars       []string
	jobs       int
	shuffle    uint64
	asJSON     bool
	report     string
	markdown   bool
	base       string
	budgetFile string
	strict     bool
	update     bool
	existing   bool // --update=existing: move the numbers the file has, add none
	server     string
	slack      float64
	repeat     int
	timeout    time.Duration
	progress   bool
	shard      string
	github     bool
	junit      string
	html       string
}

// addGateFlags defines the flags of gating and output that walks run and
// walks merge share.
func addGateFlags(c *cli.Command, f *runFlags) {
	fs := c.Flags
	c.JSON(&f.asJSON)
	fs.StringVar(&f.report, "report", "", "also write the JSON report to `FILE`")
	c.Markdown(&f.markdown)
	fs.StringVar(&f.base, "base", "", "compare with an earlier JSON `REPORT`: old, new and delta per walk and part")
	c.Budgets(&f.budgetFile)
	c.Strict(&f.strict)
	c.UpdateExisting(&f.update, &f.existing)
	c.Server(&f.server)
	fs.Float64Var(&f.slack, "check-slack", -1, "with --budgets: warn when a budget is more than `PCT` percent above what its walk read (default: off)")
	fs.Lookup("check-slack").DefValue = "0" // off (-1 inside) is not a value to pass
	c.GitHub(&f.github)
	c.JUnit(&f.junit)
	fs.StringVar(&f.html, "html", "", "also write the report as one self-contained HTML page to `FILE`: per walk its parts as a bar against its budget (it works offline, from disk)")
}

// checkGateFlags refuses the gating and output flags that do not go
// together.
func checkGateFlags(c *cli.Command, f runFlags) error {
	if _, err := newAllowHosts(f.allowHost, ""); err != nil {
		return c.Usagef("%v", err)
	}
	if c.Flags.Changed("check-slack") && (f.slack < 0 || f.slack != f.slack) {
		return c.Usagef("--check-slack %v: want a percentage of 0 or more (10 warns when a budget is over 10%% above what its walk read)", f.slack)
	}
	// --strict alone holds the answers to the clients' answer limits.
	if f.budgetFile == "" && (f.update || f.slack >= 0) {
		return c.Usagef("--update and --check-slack need --budgets FILE")
	}
	if f.asJSON && f.markdown {
		return c.Usagef("--json and --markdown are two outputs; give one (--report FILE writes the JSON beside the table)")
	}
	for _, out := range []struct{ flag, path string }{{"--report", f.report}, {"--junit", f.junit}, {"--html", f.html}} {
		if out.path == "" {
			continue
		}
		if st, err := os.Stat(filepath.Dir(out.path)); err != nil || !st.IsDir() {
			return c.Errorf("%s %s: the directory %s does not exist; create it first", out.flag, out.path, filepath.Dir(out.path))
		}
		if err := atomicfile.Writable(out.path); err != nil {
			return c.Errorf("%s %s: %v", out.flag, out.path, errors.Unwrap(err))
		}
	}
	if f.update {
		// Said before any walk runs, not after all of them.
		if _, err := os.Stat(f.budgetFile); err == nil {
			if err := atomicfile.Writable(f.budgetFile); err != nil {
				return c.Errorf("--update: %s: %v", f.budgetFile, errors.Unwrap(err))
			}
		}
	}
	return nil
}

// runWalks runs the walks, holds what they read to their budgets, moves
// the budgets with --update, and reports: the exit code follows from the
// checks and the outcomes.
func runWalks(stdout, stderr io.Writer, args []string) error {
	r, err := prepare(stdout, stderr, args)
	if r == nil {
		return err // an error, or the help printed
	}
	defer r.unlock()
	outcomes, err := r.run(stderr)
	if err != nil {
		return err
	}
	return r.finish(stdout, stderr, outcomes)
}

// finish holds the outcomes of a run (or of merged shard reports) to the
// budgets, moves the budgets with --update, writes the report and the
// tables, and returns the run's exit.
func (r *walksRun) finish(stdout, stderr io.Writer, outcomes []walk.Outcome) error {
	v := r.hold(outcomes)
	updateErr := r.update(stderr, v)
	v.found = makeFindings(v.rep, v.checks, r.f.slack)
	v.rep.Warnings = notes(v.found)
	if err := r.report(stdout, stderr, v, outcomes); err != nil {
		return err
	}
	exit := updateErr
	if exit == nil {
		exit = r.exit(v)
	}
	if r.f.summary && r.budgets != nil && !r.f.asJSON {
		fmt.Fprintln(stdout, "\n"+summaryLine(v.checks))
	}
	if r.f.github {
		r.github(stdout, stderr, v, exit)
	}
	return exit
}

// summaryLine says in one line how many budgets held, and the tightest
// slack, or the budget passed by most.
func summaryLine(checks gate.Checks) string {
	n, held := 0, 0
	var tight *gate.Check
	for i, c := range checks {
		if !c.Budgeted() {
			continue
		}
		n++
		if c.Status == gate.OK {
			held++
		}
		if tight == nil || c.Slack() < tight.Slack() {
			tight = &checks[i]
		}
	}
	if tight == nil {
		return "summary: no budget held anything"
	}
	if held == n {
		return fmt.Sprintf("summary: %d of %d budgets held; tightest slack %s %s (%s, %s)", held, n, units.Group(tight.Slack()), units.Label(string(tight.Unit())), tight.Key, tight.Budget.Where())
	}
	return fmt.Sprintf("summary: %d of %d budgets held, %d exceeded; most over: %s by %s %s (%s)", held, n, n-held, tight.Key, units.Group(-tight.Slack()), units.Label(string(tight.Unit())), tight.Budget.Where())
}

// github prints the annotations (on stderr when stdout is the JSON
// document) and appends the verdict and the markdown tables to the step
// summary.
func (r *walksRun) github(stdout, stderr io.Writer, v *verdict, exit error) {
	w := stdout
	if r.f.asJSON {
		w = stderr
	}
	head := "every walk within its budgets"
	if r.budgets == nil {
		n := len(v.rep.Walks)
		head = fmt.Sprintf("%d %s counted, held to no budget file", n, plural(n, "walk", "walks"))
	}
	if exit != nil {
		head = exit.Error()
	}
	err := writeGitHub(w, v.found, func(w io.Writer) {
		fmt.Fprintf(w, "### walks: %s\n\n", escape.Markdown(head))
		printTables(w, v.rep, overTexts(v.found, escape.Term), r.base, true)
	})
	if err != nil {
		fmt.Fprintf(stderr, "walks: warning: --github: the step summary: %s\n", escape.Term(err.Error()))
	}
}

// walksRun is one `walks run`: its flags and what they name, loaded and
// checked before anything is sent.
type walksRun struct {
	f       runFlags
	vars    map[string]string // --var, parsed
	specs   []*walk.Spec
	budgets *budgets.File     // nil without --budgets
	locked  *budgets.Locked   // the budget file, held from its first read to its write, with --update
	server  string            // whose numbers the run reads: budgets.RunServer
	base    *walk.Report      // nil without --base
	shard   *walk.ShardReport // nil unless --shard picked a share
	target  string            // where the walks run: "twin", "local", or the --url (serverName)
	own     bool              // each walk runs on servers of its own: a twin, or the commands it starts
	rank    map[string]int    // each walk's place in the run order, with --shuffle
}

// verdict is what a run came to: the checks, derived from the outcomes,
// and the report built from both.
type verdict struct {
	rep     *walk.Report
	checks  gate.Checks
	failed  int  // walks that failed against the server
	differ  int  // walks whose repeated runs counted differently
	specErr bool // a spec error stopped a walk

	// found are the findings, made from the report and the checks as
	// they hold after --update.
	found []finding
}

// prepare reads the flags, the specs, the budget file and the base report.
// It returns a nil run with a nil error when it printed the help.
func prepare(stdout, stderr io.Writer, args []string) (*walksRun, error) {
	var f runFlags
	c := cli.NewCommand("walks run", "walks run SPEC...|DIR [--url BASE] [flags]")
	c.Doc = runDoc
	c.Exits = []int{cli.ExitOK, cli.ExitFinding, cli.ExitUsage, cli.ExitWalk, 130}
	fs := c.Flags
	fs.StringVar(&f.url, "url", "", "the server's `BASE` URL; paths in specs are relative to it (default: the embedded twin)")
	fs.StringSliceVar(&f.walks, "walk", nil, "run only the walk `NAME` (repeat, or comma-separate)")
	fs.StringArrayVar(&f.vars, "var", nil, "set a variable, `k=v` (repeatable); wins over a spec's vars")
	fs.IntVar(&f.jobs, "jobs", runtime.NumCPU(), "run `N` walks at a time (default: the CPU count)")
	fs.Lookup("jobs").DefValue = "0" // the help names the default; the number differs by machine
	fs.Uint64Var(&f.shuffle, "shuffle", 0, "run the walks in an order drawn from `SEED` (the same on every machine; the report keeps the specs' order), to show that no count depends on the order")
	addGateFlags(c, &f)
	fs.IntVar(&f.repeat, "repeat", 1, fmt.Sprintf("run each walk `N` times concurrently, at most %d; every run must count the same", walk.MaxRuns))
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "bound each step to `D`, such as 30s or 2m")
	fs.StringVar(&f.shard, "shard", "", "run only share `K/N` of the walks (1 <= K <= N): every walk is in exactly one share, the same on every machine, the walks declared isolation: shared all in one; merge the reports with walks merge")
	fs.BoolVar(&f.progress, "progress", true, "draw a progress bar on stderr when it is a terminal")
	fs.BoolVar(&f.summary, "summary", false, "with --budgets: end the tables with one line: how many budgets held, and the tightest slack (or the budget passed by most)")
	fs.StringArrayVar(&f.allowHost, "allow-host", nil, "let requests (http steps, doc http, MCP URLs, redirects) go to `HOST` too (repeatable); the --url host and loopback always may, a URL written out to another host is refused before anything runs (exit 2), one whose host is a template fails its step, nothing sent (docs/specs.md)")
	fs.BoolVar(&f.noExec, "no-exec", false, "refuse, before anything runs (exit 2), every walk with a step that starts a process: exec, doc: {exec}, an mcp server's command (for specs you do not trust: docs/specs.md)")
	if help, err := c.Parse(stdout, args); help || err != nil {
		return nil, err
	}
	if fs.NArg() == 0 {
		return nil, c.Usagef("name spec files or a directory of them")
	}
	if f.jobs < 1 || f.repeat < 1 {
		return nil, c.Usagef("--jobs and --repeat are at least 1")
	}
	if f.repeat > walk.MaxRuns {
		return nil, c.Usagef("--repeat %d: at most %d runs of each walk", f.repeat, walk.MaxRuns)
	}
	if err := checkGateFlags(c, f); err != nil {
		return nil, err
	}
	if f.shard != "" && f.update {
		return nil, cli.Usage("run: --update with --shard would rewrite budgets from a share of the walks; run the shards with --report, then walks merge --update")
	}
	if f.url != "" {
		if u, err := url.Parse(f.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, cli.Usage("run: --url %q: want http://host[:port][/path] or https://...", f.url)
		}
	}
	vars, err := parseVars(f.vars)
	if err != nil {
		return nil, err
	}
	r := &walksRun{f: f, vars: vars, target: serverName(f.url)}
	if r.specs, err = loadSpecs(stderr, fs.Args(), vars, f.walks); err != nil {
		return nil, err
	}
	if f.noExec {
		refused := 0
		for _, s := range r.specs {
			for _, p := range s.Processes() {
				p.Msg += ": refused by --no-exec"
				fmt.Fprintf(stderr, "walks: %s\n", escape.Lines(p.Error()))
				refused++
			}
		}
		if refused > 0 {
			return nil, cli.SilentUsage
		}
	}
	allow, err := newAllowHosts(f.allowHost, f.url)
	if err != nil {
		return nil, cli.Usage("run: %v", err)
	}
	if refused := refusedHosts(r.specs, allow); len(refused) > 0 {
		for _, e := range refused {
			fmt.Fprintf(stderr, "walks: %s\n", escape.Lines(e.Error()))
		}
		return nil, cli.SilentUsage
	}
	r.own = f.url == ""
	if r.own && !needsTwin(r.specs) {
		r.target = localTarget
	}
	if fs.Changed("shuffle") {
		r.rank = shuffleRank(r.specs, f.shuffle)
	}
	if err := r.share(stderr, c); err != nil {
		return nil, err
	}
	if err := r.readBase(); err != nil {
		return nil, err
	}
	// Last, so that nothing after it fails with the file locked.
	r.server = budgets.RunServer(f.server, f.url, r.target == "twin")
	if err := r.loadBudgets(stderr, "run"); err != nil {
		return nil, err
	}
	if err := checkBudgetValues(stderr, r.budgets, r.specs); err != nil {
		r.unlock()
		return nil, err
	}
	return r, nil
}

// share keeps, with --shard, the walks of the share picked, and notes
// what the share report must match: the specs, the server, the toolkit,
// the budget file.
func (r *walksRun) share(stderr io.Writer, c *cli.Command) error {
	f := r.f
	if f.shard == "" {
		return nil
	}
	k, n, err := parseShard(f.shard)
	if err != nil {
		return err
	}
	hash, err := walk.HashSpecs(r.specs)
	if err != nil {
		return err
	}
	r.specs, r.shard = pickShard(r.specs, k, n)
	r.shard.Specs, r.shard.Server, r.shard.Toolkit = hash, r.target, toolkitVersion()
	if len(r.specs) == 0 {
		fmt.Fprintf(stderr, "walks: shard %d/%d holds none of the %d walks\n", k, n, len(r.shard.Walks))
	}
	if f.budgetFile != "" {
		if r.shard.Budgets, err = hashFile(f.budgetFile); err != nil {
			return c.Errorf("--budgets %s: %v", f.budgetFile, errors.Unwrap(err))
		}
	}
	return nil
}

// readBase reads the --base report, keeping the walks picked (--walk,
// --shard): the ones left out are not compared as removed.
func (r *walksRun) readBase() error {
	if r.f.base == "" {
		return nil
	}
	var err error
	if r.base, err = walk.ReadReport(r.f.base); err != nil {
		return err
	}
	if len(r.f.walks) > 0 || r.shard != nil {
		picked := map[string]bool{}
		for _, s := range r.specs {
			picked[s.Name] = true
		}
		kept := r.base.Walks[:0:0]
		for _, wr := range r.base.Walks {
			if picked[wr.Walk] {
				kept = append(kept, wr)
			}
		}
		r.base.Walks = kept
	}
	return nil
}

// run runs every walk against the server (with no --url, each run of a
// walk on an embedded twin of its own), in the run's order, drawing the
// progress bar. On a server the walks share, the walks that read lists
// others write run first, one at a time.
func (r *walksRun) run(stderr io.Writer) ([]walk.Outcome, error) {
	allow, err := newAllowHosts(r.f.allowHost, r.f.url)
	if err != nil {
		return nil, cli.Usage("run: %v", err)
	}
	opts := walk.Options{BaseURL: r.f.url, Vars: r.vars, Timeout: r.f.timeout, HTTPClient: allow.client()}
	if r.budgets != nil {
		opts.Budget = budgetValue(r.budgets)
	}
	if r.target == "twin" {
		opts.StartServer = func() (string, func(), error) { return twin.Start(twin.Options{}) }
		fmt.Fprintln(stderr, "walks: no --url: each walk runs against an embedded twin of its own, started for it on a loopback port")
	}
	stopBar := func() {}
	if r.f.progress {
		var steps int
		// A together step's steps each move the bar, as every other step does.
		for _, s := range r.specs {
			for _, st := range append(append([]*walk.Step{}, s.Setup...), s.Steps...) {
				steps += max(len(st.Group()), 1) * r.f.repeat
			}
		}
		opts.OnStep, stopBar = progress(stderr, steps)
	}
	outcomes := make([]walk.Outcome, len(r.specs))
	runSome := func(idx []int, jobs int) {
		specs := make([]*walk.Spec, len(idx))
		for i, j := range idx {
			specs[i] = r.specs[j]
		}
		for i, oc := range walk.RunAll(cli.Context(), specs, opts, jobs, r.f.repeat) {
			outcomes[idx[i]] = oc
		}
	}
	order := runOrder(r.specs, r.rank)
	if r.own {
		runSome(order, r.f.jobs)
	} else {
		var shared, rest []int
		for _, i := range order {
			if r.specs[i].Isolation == walk.IsolationShared {
				shared = append(shared, i)
			} else {
				rest = append(rest, i)
			}
		}
		runSome(shared, 1)
		runSome(rest, r.f.jobs)
	}
	stopBar()
	return outcomes, nil
}

// hold holds each walk that ran to its budgets and builds the report: the
// walk's parts and totals, its checks, its answers over a limit (the findings
// are made of them once --update settled the checks: makeFindings).
func (r *walksRun) hold(outcomes []walk.Outcome) *verdict {
	v := &verdict{rep: &walk.Report{Walks: []walk.WalkReport{}, Over: []string{}, Warnings: []string{}}}
	var bs gate.Budgets
	if r.budgets != nil {
		bs = r.budgets
	}
	for _, oc := range outcomes {
		s := oc.Spec
		wr := walk.WalkReport{Walk: s.Name, Spec: s.File, Runs: oc.Runs, Parts: []ledger.Part{}, Budgets: []walk.BudgetReport{}}
		if s.Isolation == walk.IsolationShared && !r.own {
			wr.OrderDependent = true
		}
		if oc.Result != nil {
			l := oc.Result.Ledger
			wr.Bytes, wr.Tokens, wr.Calls = l.Bytes(), l.Tokens(), oc.Result.Calls
			if parts := l.Parts(); parts != nil {
				wr.Parts = parts
			}
			for _, st := range s.Steps {
				if n, ok := oc.Result.ToolLists[st.Part]; ok && !hasToolList(wr.ToolLists, st.Part) {
					wr.ToolLists = append(wr.ToolLists, walk.ToolListReport{Part: st.Part, Bytes: n, Tokens: units.Tokens(n)})
				}
			}
		}
		if oc.Err != nil {
			wr.Error = oc.Err.Error()
			v.failed++
			var se *walk.SpecError
			var fl *walk.Failure
			var sf *specFault
			if errors.As(oc.Err, &se) || (errors.As(oc.Err, &fl) && fl.Spec) || errors.As(oc.Err, &sf) {
				v.specErr, wr.SpecFault = true, true
			}
			v.rep.Walks = append(v.rep.Walks, wr)
			continue
		}
		if oc.Differ != "" {
			wr.Differ = oc.Differ
			v.differ++
		}
		if len(s.AllMeasures()) == 0 {
			wr.Unbudgeted = true
		}
		checks, err := oc.Result.Checks(bs)
		if err != nil {
			wr.Error = err.Error()
			v.failed++
		}
		v.checks = append(v.checks, checks...)
		wr.AnswerLimits = oc.Result.AnswerLints()
		wr.ErrorAnswers = oc.Result.ErrorAnswers()
		v.rep.Walks = append(v.rep.Walks, wr)
	}
	return v
}

// update moves each budget to what its walk read, when --update asks and
// every walk ran and counted alike; the checks then hold as settled.
func (r *walksRun) update(stderr io.Writer, v *verdict) error {
	switch {
	case !r.f.update:
		return nil
	case v.failed > 0 || v.specErr:
		return cli.WalkFailed(fmt.Errorf("--update: %s left untouched: %d %s failed", r.f.budgetFile, v.failed, plural(v.failed, "walk", "walks")))
	case v.differ > 0:
		return cli.Finding(fmt.Errorf("--update: %s left untouched: repeated runs counted differently", r.f.budgetFile))
	}
	moves, file, err := updateBudgets(r.locked, r.server, v.checks, r.f.existing)
	var ae *budgets.AddError
	switch {
	case errors.As(err, &ae):
		return fmt.Errorf("--update: %v; %s", err, keyOrigin(r.specs, ae.Name))
	case errors.Is(err, budgets.ErrChanged):
		fmt.Fprintf(stderr, "walks: --update: %v; the numbers read:\n", err)
		values, _ := v.checks.Values()
		for _, c := range v.checks.With(gate.Unbudgeted) {
			values[c.Key] = c.Read
		}
		cli.PrintReadings(stderr, values)
		return cli.SilentUsage
	case err != nil:
		return fmt.Errorf("--update: %v", err)
	}
	v.rep.Moves = moves
	if len(moves) == 0 {
		fmt.Fprintf(stderr, "walks: --update: no budget moved: %s holds what every walk read\n", r.f.budgetFile)
	}
	// A budget the file lacked is in it now: its check holds, at the line
	// it was added at, and its warning lapses.
	for i, c := range v.checks {
		if b, ok := file.Get(c.Key); ok && c.Status == gate.Unbudgeted {
			v.checks[i].Budget, v.checks[i].Status, v.checks[i].Missing = b, gate.OK, nil
		}
	}
	v.checks = v.checks.Settled()
	return nil
}

// report writes the --report file, then the JSON or the tables. The
// budgets of each walk and the failure texts come from the checks.
func (r *walksRun) report(stdout, stderr io.Writer, v *verdict, outcomes []walk.Outcome) error {
	for _, oc := range outcomes {
		if oc.Err != nil {
			fmt.Fprintf(stderr, "walks: %s\n", escape.Lines(oc.Err.Error())) // the request and the answer on lines of their own
		}
	}
	rep := v.rep
	rep.Shard = r.shard
	for i := range rep.Walks {
		for _, c := range v.checks {
			if c.Subject == rep.Walks[i].Walk {
				rep.Walks[i].Budgets = append(rep.Walks[i].Budgets, walk.BudgetOf(c))
			}
		}
	}
	rep.Over = overTexts(v.found, raw)
	if r.f.report != "" {
		if err := writeJSONFile(r.f.report, rep); err != nil {
			return err
		}
	}
	if r.f.html != "" {
		if err := writeHTML(r.f.html, *rep); err != nil {
			return err
		}
	}
	if r.f.junit != "" {
		data, err := junitReport(v.found, r.f.strict).Marshal()
		if err == nil {
			err = atomicfile.Write(r.f.junit, data)
		}
		if err != nil {
			return fmt.Errorf("--junit: %v", err)
		}
	}
	if r.f.asJSON {
		return jsonout.Encode(stdout, rep)
	}
	printTables(stdout, rep, overTexts(v.found, escape.Term), r.base, r.f.markdown)
	return nil
}

// exit returns the run's end: a spec error (2), a walk failed (3), a
// budget exceeded or runs that differ (1), --strict's unbudgeted (1).
func (r *walksRun) exit(v *verdict) error {
	unbudgeted := count(v.found, budgetMissing)
	switch {
	case v.specErr:
		return errors.New("a spec error stopped a walk")
	case v.failed > 0:
		n := len(v.rep.Walks)
		return cli.WalkFailed(fmt.Errorf("%d of %d %s failed against the server", v.failed, n, plural(n, "walk", "walks")))
	case v.checks.Err() != nil:
		return cli.Finding(v.checks.Err())
	case v.differ > 0:
		return cli.Finding(fmt.Errorf("%d %s counted differently when repeated", v.differ, plural(v.differ, "walk", "walks")))
	case r.f.strict && unbudgeted > 0:
		return cli.Finding(fmt.Errorf("--strict: %d %s not in %s", unbudgeted, plural(unbudgeted, "budget is", "budgets are"), r.f.budgetFile))
	case r.f.strict && r.budgets != nil && count(v.found, walkUnbudgeted) > 0:
		n := count(v.found, walkUnbudgeted)
		return cli.Finding(fmt.Errorf("--strict: %d %s no budget key", n, plural(n, "walk has", "walks have")))
	case r.f.strict && count(v.found, answerLimit) > 0:
		n := count(v.found, answerLimit)
		return cli.Finding(fmt.Errorf("--strict: %d %s over a client's answer limit", n, plural(n, "answer is", "answers are")))
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// loadBudgets reads the --budgets file, and checks it before anything
// runs. With --update the file is locked first (and stays locked until
// unlock), and a file that does not exist yet is read as an empty one of
// its extension's form, written at the end with every budget the walks
// read: a new project starts its file with one run. The file must take
// the run's numbers (budgets.CheckServer) and every key the walks name
// that it lacks.
func (r *walksRun) loadBudgets(stderr io.Writer, cmd string) error {
	f := r.f
	if f.budgetFile == "" {
		return nil
	}
	if !f.update {
		var err error
		if r.budgets, err = budgets.Load(f.budgetFile); err != nil {
			return err
		}
		return checkBudgetKeys(r.budgets, r.specs, false)
	}
	l, err := budgets.Lock(cli.Context(), f.budgetFile, func() {
		fmt.Fprintf(stderr, "walks: waiting for another run's --update of %s\n", f.budgetFile)
	})
	if err != nil {
		return err
	}
	r.locked, r.budgets = l, l.File()
	fail := func(err error) error {
		r.unlock()
		return err
	}
	if f.existing && !l.Exists() {
		return fail(cli.Usage("%s: --update=existing: %s does not exist: there are no numbers to move (plain --update creates it)", cmd, f.budgetFile))
	}
	if err := checkBudgetKeys(r.budgets, r.specs, !f.existing); err != nil {
		return fail(err)
	}
	flags := "--server or --url"
	if cmd == "merge" {
		flags = "--server" // merge takes the shares' server, or --server
	}
	if err := budgets.CheckServer(r.budgets, r.server, flags); err != nil {
		return fail(cli.Usage("%s: --update: %v", cmd, err))
	}
	if err := r.twinGuard(cmd, l); err != nil {
		return err
	}
	if f.existing {
		return nil // no key is added, so none has to fit
	}
	// Every key the walks name that the file lacks must be one it can
	// take: said now, not after every walk ran.
	values := map[string]int64{}
	for _, s := range r.specs {
		for _, m := range s.AllMeasures() {
			if _, ok := r.budgets.Get(m.Key); !ok {
				values[m.Key] = 0
			}
		}
	}
	if _, err := r.budgets.Insert(values); err != nil {
		var ae *budgets.AddError
		if errors.As(err, &ae) {
			err = fmt.Errorf("%v; %s", err, keyOrigin(r.specs, ae.Name))
		}
		return fail(cli.Usage("%s: --update: %v", cmd, err))
	}
	return nil
}

// twinGuard refuses, unlocking the file, an update of a file not marked
// as the twin's from a run on the embedded twin: the twin reads less than
// the service, so its numbers would lower a service's budgets without a
// word. (A run whose walks send nothing to a base starts no twin: its
// numbers are the servers' its specs start.)
func (r *walksRun) twinGuard(cmd string, l *budgets.Locked) error {
	if cmd == "run" && r.f.url == "" && r.target != localTarget && l.Exists() && r.budgets.Server() != budgets.TwinServer {
		r.unlock()
		return cli.Usage("run: --update: %s is not marked as the twin's, and with no --url the numbers are the embedded twin's; run against the service with --url BASE, or mark the file as the twin's (%s)", r.f.budgetFile, budgets.TwinMark(r.budgets.Format))
	}
	return nil
}

// unlock releases the budget file's lock, if held.
func (r *walksRun) unlock() {
	if r.locked != nil {
		r.locked.Unlock()
	}
}

// keyOrigin says which spec names a budget key, and where.
func keyOrigin(specs []*walk.Spec, key string) string {
	for _, s := range specs {
		for _, m := range s.AllMeasures() {
			if m.Key == key {
				field := "a budgets: key"
				if m.Measure.Kind == gate.Total && m.Line == s.BudgetLine {
					field = "its budget:"
				}
				return fmt.Sprintf("walk %s names it with %s at %s:%d; choose another key there", s.Name, field, s.File, m.Line)
			}
		}
	}
	return "the walk's budget: or budgets: key in its spec chooses it"
}

// checkBudgetKeys refuses, before anything runs, a budget file that
// declares no budgets (unless --update is to fill it), or whose block a
// walk names is not a budget block (its numbers are not plain literals).
func checkBudgetKeys(bf *budgets.File, specs []*walk.Spec, update bool) error {
	for _, s := range specs {
		keys := []string{}
		if s.Budget != "" {
			keys = append(keys, s.Budget)
		}
		for _, m := range s.Measures {
			keys = append(keys, m.Key)
		}
		for _, k := range keys {
			if _, err := bf.Lookup(k); errors.Is(err, budgets.ErrNotBudgetBlock) {
				return fmt.Errorf("%v; walk %s (%s) names it", err, s.Name, s.File)
			}
		}
	}
	if len(bf.Budgets()) == 0 && !update {
		return cli.Usage("%s declares no budgets: want JSON numbers or `export const NAME = { key: 1_234 } as const;` blocks", bf.Path)
	}
	return nil
}

// checkBudgetValues refuses, before anything runs, a walk that reads a
// {{budget.KEY}} the budget file lacks (bf nil: any, for want of
// --budgets), or whose repeat count, read from it, is past its max: each
// mistake one line naming the spec's file and line, exit 2.
func checkBudgetValues(stderr io.Writer, bf *budgets.File, specs []*walk.Spec) error {
	var errs walk.SpecErrors
	for _, s := range specs {
		if bf == nil {
			for _, b := range s.BudgetNames() {
				errs = append(errs, &walk.SpecError{File: b.File, Line: b.Line, Msg: fmt.Sprintf("{{budget.%s}} is read from the budget file: give --budgets FILE", b.Key)})
			}
			continue
		}
		var se walk.SpecErrors
		if err := s.CheckBudgets(budgetValue(bf), bf.Path); errors.As(err, &se) {
			errs = append(errs, se...)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "walks: %s\n", escape.Lines(e.Error()))
	}
	return cli.SilentUsage
}

// budgetValue looks a budget's value up in bf, for {{budget.KEY}}.
func budgetValue(bf *budgets.File) func(string) (int64, bool) {
	return func(key string) (int64, bool) {
		b, ok := bf.Get(key)
		return b.Value, ok
	}
}

func parseVars(vs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vs {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return nil, cli.Usage("--var %q: want name=value", v)
		}
		out[k] = val
	}
	return out, nil
}

// specFiles expands the arguments: a directory gives its walk specs (YAML
// files with a walk key; the others are includes), sorted by name.
func specFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, cli.Usage("%s: no such file or directory", a)
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		for _, pat := range []string{"*.yaml", "*.yml"} {
			m, _ := filepath.Glob(filepath.Join(a, pat))
			found = append(found, m...)
		}
		sort.Strings(found)
		n := 0
		for _, p := range found {
			ok, err := walk.IsWalk(p)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, p)
				n++
			}
		}
		if n == 0 {
			return nil, cli.Usage("%s: no walk specs (YAML files with a walk key)", a)
		}
	}
	return out, nil
}

// loadSpecs loads and checks every spec; every mistake is printed, one a
// line, and the run stops with exit 2.
func loadSpecs(stderr io.Writer, args []string, vars map[string]string, only []string) ([]*walk.Spec, error) {
	files, err := specFiles(args)
	if err != nil {
		return nil, err
	}
	var specs []*walk.Spec
	var errs walk.SpecErrors
	names := map[string]string{}
	for _, p := range files {
		s, err := walk.Load(p)
		if err != nil {
			var se walk.SpecErrors
			if errors.As(err, &se) {
				errs = append(errs, se...)
				continue
			}
			return nil, err
		}
		if prev, dup := names[s.Name]; dup {
			errs = append(errs, &walk.SpecError{File: p, Line: s.Line, Msg: fmt.Sprintf("walk %s is also in %s", s.Name, prev)})
			continue
		}
		names[s.Name] = p
		specs = append(specs, s)
	}
	if len(only) > 0 {
		var picked []*walk.Spec
		for _, name := range only {
			if _, ok := names[name]; !ok && len(errs) == 0 {
				return nil, cli.Usage("--walk %s: no such walk (have: %s)", name, strings.Join(sortedKeys(names), ", "))
			}
		}
		for _, s := range specs {
			for _, name := range only {
				if s.Name == name {
					picked = append(picked, s)
				}
			}
		}
		specs = picked
	}
	for _, s := range specs {
		if err := s.Check(vars, os.LookupEnv); err != nil {
			var se walk.SpecErrors
			if errors.As(err, &se) {
				errs = append(errs, se...)
			}
		}
	}
	if len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(stderr, "walks: %s\n", escape.Lines(e.Error()))
		}
		return nil, cli.SilentUsage
	}
	return specs, nil
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func hasToolList(ts []walk.ToolListReport, part string) bool {
	for _, t := range ts {
		if t.Part == part {
			return true
		}
	}
	return false
}

// updateBudgets rewrites each budget the checks found at what was read,
// adding the ones the file lacks unless existing (--update=existing), into
// the locked file (a file it creates is marked as server's), and returns
// the budgets that moved or were added and the file as written.
func updateBudgets(l *budgets.Locked, server string, checks gate.Checks, existing bool) ([]walk.MoveReport, *budgets.File, error) {
	values, err := checks.Values()
	if err != nil {
		return nil, nil, err
	}
	// A budget the file lacks (its key or its whole block) is added at
	// what was read, so a new project starts its file with one run.
	for _, c := range checks.With(gate.Unbudgeted) {
		if _, dup := values[c.Key]; !dup {
			values[c.Key] = c.Read
		}
	}
	write := l.Write
	if existing {
		write = func(values map[string]int64, _ string) (*budgets.Written, error) { return l.WriteExisting(values) }
	}
	w, err := write(values, server)
	if err != nil {
		return nil, nil, err
	}
	out := []walk.MoveReport{}
	for _, m := range w.Moves {
		if slices.Contains(w.Added, m.Name) {
			out = append(out, walk.MoveReport{Key: m.Name, Old: 0, New: m.New, Where: m.Where(), Added: true})
		} else if m.Old != m.New {
			out = append(out, walk.MoveReport{Key: m.Name, Old: m.Old, New: m.New, Where: m.Where()})
		}
	}
	return out, w.File, nil
}

func writeJSONFile(path string, v any) error {
	data, err := jsonout.Bytes(v)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("--report: %v", err)
	}
	return nil
}

// checkSpecs parses and checks specs without running them.
func checkSpecs(stdout, stderr io.Writer, args []string) error {
	c := cli.NewCommand("walks check", "walks check SPEC...|DIR [--var k=v] [--budgets FILE]")
	c.Doc = `Parses and checks specs; sends nothing. Each mistake is one line naming
its spec file and line. A URL written out whole (http://HOST/..., the host
not a template) to a host walks run would refuse is a mistake: the --url
host and loopback are allowed, and each --allow-host, as for walks run.
With --budgets, every {{budget.KEY}} a spec reads must be in the file (and
a repeat's count read from it within its max).
`
	fs := c.Flags
	vs := fs.StringArray("var", nil, "set a variable, `k=v` (repeatable); wins over a spec's vars")
	base := fs.String("url", "", "the `BASE` URL walks run will be given: its host is allowed")
	hosts := fs.StringArray("allow-host", nil, "a `HOST` walks run will be allowed to reach (repeatable), as walks run --allow-host")
	budgetFile := fs.String("budgets", "", "check every {{budget.KEY}} the specs read against the budget `FILE` (JSON, or TypeScript export const blocks)")
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return c.Usagef("name spec files or a directory of them")
	}
	vars, err := parseVars(*vs)
	if err != nil {
		return err
	}
	specs, err := loadSpecs(stderr, fs.Args(), vars, nil)
	if err != nil {
		return err
	}
	allow, err := newAllowHosts(*hosts, *base)
	if err != nil {
		return cli.Usage("check: %v", err)
	}
	if refused := refusedHosts(specs, allow); len(refused) > 0 {
		for _, e := range refused {
			fmt.Fprintf(stderr, "walks: %s\n", escape.Lines(e.Error()))
		}
		return cli.SilentUsage
	}
	if *budgetFile != "" {
		bf, err := budgets.Load(*budgetFile)
		if err != nil {
			return err
		}
		if err := checkBudgetValues(stderr, bf, specs); err != nil {
			return err
		}
	}
	for _, s := range specs {
		counted := 0
		for _, st := range s.Flat() {
			if st.Counted {
				counted++
			}
		}
		fmt.Fprintf(stdout, "%s: walk %s: %d set-up %s, %d counted %s\n", escape.Term(s.File), escape.Term(s.Name), len(s.Setup), plural(len(s.Setup), "step", "steps"), counted, plural(counted, "step", "steps"))
	}
	return nil
}

// progress returns an OnStep func drawing a bar on stderr when stderr is a
// terminal, and a func that ends the bar.
func progress(stderr io.Writer, total int) (func(), func()) {
	bar := newBar(stderr, total)
	if bar == nil {
		return nil, func() {}
	}
	return bar.add, bar.finish
}
