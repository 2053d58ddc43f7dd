package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

// mergeDoc is what walks merge's help says between the usage and the flags.
const mergeDoc = `Merges the JSON reports of the shares of a run (walks run --shard K/N
--report FILE, one per job of a CI matrix) into one, and gates it, writes
its tables and rewrites its budgets once, exactly as one unsharded run
with the same flags would: the same report, table and budget file, byte
for byte. Every share must be there, each once, from the same run: the
same walks from the same spec files (by their SHA-256), the same server
(the embedded twin or the same --url), the same budget file if the shares
were given one, and the same version of walks.

The budgets are held as the shards read them: give merge the --budgets,
--strict and --check-slack an unsharded run would get (the shards need
none). The numbers of shares run without --url are the twin's; of shares
run with one, --server names their server (see walks run --help).
`

func mergeCmd(stdout, stderr io.Writer, args []string) error {
	var f runFlags
	c := cli.NewCommand("walks merge", "walks merge REPORT... [--budgets FILE] [flags]")
	c.Doc = mergeDoc
	c.Exits = []int{cli.ExitOK, cli.ExitFinding, cli.ExitUsage, cli.ExitWalk}
	fs := c.Flags
	addGateFlags(c, &f)
	if help, err := c.Parse(stdout, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return c.Usagef("name the shards' reports (walks run --shard K/N --report FILE)")
	}
	if err := checkGateFlags(c, f); err != nil {
		return err
	}
	outcomes, sh, err := mergeReports(fs.Args())
	if err != nil {
		return fmt.Errorf("merge: %v", err)
	}
	r := &walksRun{f: f, specs: make([]*walk.Spec, len(outcomes)), target: sh.Server, own: sh.Server == "twin" || sh.Server == localTarget}
	for i, oc := range outcomes {
		r.specs[i] = oc.Spec
	}
	r.server = budgets.RunServer(f.server, shardURL(sh), sh.Server == "twin")
	if err := r.loadBudgets(stderr, "merge"); err != nil {
		return err
	}
	defer r.unlock()
	if f.base != "" {
		if r.base, err = walk.ReadReport(f.base); err != nil {
			return err
		}
	}
	return r.finish(stdout, stderr, outcomes)
}

// mergeReports reads the shards' reports and returns the walks as one
// unsharded run would have them, in its order, each walk's outcome rebuilt
// from what its shard read, and the run's record (the first share's).
func mergeReports(paths []string) ([]walk.Outcome, *walk.ShardReport, error) {
	var first *walk.ShardReport
	var firstPath string
	seen := map[int]string{}
	byName := map[string]walk.WalkReport{}
	from := map[string]string{}
	for _, p := range paths {
		rep, err := walk.ReadReport(p)
		if err != nil {
			return nil, nil, err
		}
		sh := rep.Shard
		if sh == nil {
			return nil, nil, fmt.Errorf("%s: not a shard's report: write one with walks run --shard K/N --report FILE", p)
		}
		if first == nil {
			first, firstPath = sh, p
		} else if d := shardDiffers(first, sh); d != "" {
			return nil, nil, fmt.Errorf("%s: shard %d/%d of another run than %s (shard %d/%d): %s", p, sh.Index, sh.Count, firstPath, first.Index, first.Count, d)
		}
		if prev, dup := seen[sh.Index]; dup {
			return nil, nil, fmt.Errorf("%s: shard %d/%d is also %s: give each shard's report once", p, sh.Index, sh.Count, prev)
		}
		seen[sh.Index] = p
		for _, wr := range rep.Walks {
			if prev, dup := from[wr.Walk]; dup {
				return nil, nil, fmt.Errorf("%s: walk %s is also in %s", p, wr.Walk, prev)
			}
			from[wr.Walk] = p
			byName[wr.Walk] = wr
		}
	}
	var missing []string
	for i := 1; i <= first.Count; i++ {
		if _, ok := seen[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.Count))
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("%s %s missing: give every shard's report (a job that failed may have left none; its walks are lost)", plural(len(missing), "shard", "shards"), strings.Join(missing, ", "))
	}
	out := make([]walk.Outcome, 0, len(first.Walks))
	for _, name := range first.Walks {
		wr, ok := byName[name]
		if !ok {
			return nil, nil, fmt.Errorf("walk %s is in no report, though shard %s should hold it", name, shardOf(first, name))
		}
		delete(byName, name)
		oc, err := outcomeOf(wr, slices.Contains(first.Shared, name))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", from[name], err)
		}
		out = append(out, oc)
	}
	for name := range byName {
		return nil, nil, fmt.Errorf("%s: walk %s is not one of the run's walks", from[name], name)
	}
	return out, first, nil
}

// shardOf names the share a walk belongs to, as pickShard deals them.
func shardOf(sh *walk.ShardReport, name string) string {
	for k := 1; k <= sh.Count; k++ {
		specs := make([]*walk.Spec, len(sh.Walks))
		for i, w := range sh.Walks {
			specs[i] = &walk.Spec{Name: w}
			if slices.Contains(sh.Shared, w) {
				specs[i].Isolation = walk.IsolationShared
			}
		}
		picked, _ := pickShard(specs, k, sh.Count)
		for _, s := range picked {
			if s.Name == name {
				return fmt.Sprintf("%d/%d", k, sh.Count)
			}
		}
	}
	return "?"
}

// outcomeOf rebuilds a walk's outcome from its report: the spec as far as
// the gate reads it (name, file, isolation, measures, tool-list parts) and
// the result (the ledger's parts, the calls, the tool lists).
func outcomeOf(wr walk.WalkReport, shared bool) (walk.Outcome, error) {
	s := &walk.Spec{Name: wr.Walk, File: wr.Spec, Isolation: walk.IsolationOwn}
	if shared {
		s.Isolation = walk.IsolationShared
	}
	res := &walk.Result{
		Spec:       s,
		Ledger:     ledger.FromParts(wr.Walk, wr.Parts),
		Calls:      wr.Calls,
		ToolLists:  map[string]int64{},
		Items:      map[string]int64{},
		Held:       wr.AnswerLimits,
		HeldErrors: wr.ErrorAnswers,
	}
	for _, tl := range wr.ToolLists {
		s.Steps = append(s.Steps, &walk.Step{Part: tl.Part})
		res.ToolLists[tl.Part] = tl.Bytes
	}
	for _, b := range wr.Budgets {
		gm, ok := gate.ParseMeasure(b.Measure)
		m := walk.Measure{Key: b.Key, Measure: gm, File: wr.Spec}
		if !ok || m.Unit() != b.Unit {
			return walk.Outcome{}, fmt.Errorf("walk %s: budget %s: measure %q in %s is not one walks run writes", wr.Walk, b.Key, b.Measure, b.Unit)
		}
		s.Measures = append(s.Measures, m)
		if gm.Kind == gate.ItemCount {
			res.Items[gm.Part] = b.Read
		}
	}
	oc := walk.Outcome{Spec: s, Result: res, Runs: wr.Runs, Differ: wr.Differ}
	switch {
	case wr.SpecFault:
		oc.Err = &specFault{wr.Error}
	case wr.Error != "":
		oc.Err = errors.New(wr.Error)
	}
	return oc, nil
}

// specFault is a shard's walk that stopped at its spec's fault: merged, it
// ends the run with exit 2, as it did the shard.
type specFault struct{ msg string }

func (e *specFault) Error() string { return e.msg }

// shardURL is the --url the shares ran against, or "" on the twin (or
// with no server at a base URL).
func shardURL(sh *walk.ShardReport) string {
	if sh.Server == "twin" || sh.Server == localTarget {
		return ""
	}
	return sh.Server
}
