package main

import (
	"errors"
	"fmt"
	"io"
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
for byte. Every share must be there, each once, from the same run.

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
	outcomes, err := mergeReports(fs.Args())
	if err != nil {
		return fmt.Errorf("merge: %v", err)
	}
	r := &walksRun{f: f, specs: make([]*walk.Spec, len(outcomes))}
	for i, oc := range outcomes {
		r.specs[i] = oc.Spec
	}
	r.server = budgets.RunServer(f.server, "", ranOnTwin(fs.Args()))
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
// from what its shard read.
func mergeReports(paths []string) ([]walk.Outcome, error) {
	var first *walk.ShardReport
	var firstPath string
	seen := map[int]string{}
	byName := map[string]walk.WalkReport{}
	from := map[string]string{}
	for _, p := range paths {
		rep, err := walk.ReadReport(p)
		if err != nil {
			return nil, err
		}
		sh := rep.Shard
		if sh == nil {
			return nil, fmt.Errorf("%s: not a shard's report: write one with walks run --shard K/N --report FILE", p)
		}
		if first == nil {
			first, firstPath = sh, p
		} else if sh.Count != first.Count || strings.Join(sh.Walks, "\x00") != strings.Join(first.Walks, "\x00") {
			return nil, fmt.Errorf("%s: shard %d/%d of another run than %s (shard %d/%d): its walks or its count differ", p, sh.Index, sh.Count, firstPath, first.Index, first.Count)
		}
		if prev, dup := seen[sh.Index]; dup {
			return nil, fmt.Errorf("%s: shard %d/%d is also %s: give each shard's report once", p, sh.Index, sh.Count, prev)
		}
		seen[sh.Index] = p
		for _, wr := range rep.Walks {
			if prev, dup := from[wr.Walk]; dup {
				return nil, fmt.Errorf("%s: walk %s is also in %s", p, wr.Walk, prev)
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
		return nil, fmt.Errorf("%s %s missing: give every shard's report (a job that failed may have left none; its walks are lost)", plural(len(missing), "shard", "shards"), strings.Join(missing, ", "))
	}
	out := make([]walk.Outcome, 0, len(first.Walks))
	for _, name := range first.Walks {
		wr, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("walk %s is in no report, though shard %s should hold it", name, shardOf(first, name))
		}
		delete(byName, name)
		oc, err := outcomeOf(wr)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", from[name], err)
		}
		out = append(out, oc)
	}
	for name := range byName {
		return nil, fmt.Errorf("%s: walk %s is not one of the run's walks", from[name], name)
	}
	return out, nil
}

// shardOf names the share a walk belongs to, as pickShard deals them.
func shardOf(sh *walk.ShardReport, name string) string {
	for k := 1; k <= sh.Count; k++ {
		specs := make([]*walk.Spec, len(sh.Walks))
		for i, w := range sh.Walks {
			specs[i] = &walk.Spec{Name: w}
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
// the gate reads it (name, file, measures, tool-list parts) and the result
// (the ledger's parts, the calls, the tool lists).
func outcomeOf(wr walk.WalkReport) (walk.Outcome, error) {
	s := &walk.Spec{Name: wr.Walk, File: wr.Spec}
	res := &walk.Result{
		Spec:      s,
		Ledger:    ledger.FromParts(wr.Walk, wr.Parts),
		Calls:     wr.Calls,
		ToolLists: map[string]int64{},
		Items:     map[string]int64{},
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

// ranOnTwin reports whether a share's report says it ran on the embedded
// twin (the reports are read and checked by mergeReports first).
func ranOnTwin(paths []string) bool {
	for _, p := range paths {
		if rep, err := walk.ReadReport(p); err == nil && rep.Shard != nil && rep.Shard.Twin {
			return true
		}
	}
	return false
}

// specFault is a shard's walk that stopped at its spec's fault: merged, it
// ends the run with exit 2, as it did the shard.
type specFault struct{ msg string }

func (e *specFault) Error() string { return e.msg }
