package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

const mergeHelp = `usage: walks merge REPORT... [--budgets FILE] [flags]

Merges the JSON reports of the shares of a run (walks run --shard K/N
--report FILE, one per job of a CI matrix) into one, and gates it, writes
its tables and rewrites its budgets once, exactly as one unsharded run
with the same flags would: the same report, table and budget file, byte
for byte. Every share must be there, each once, from the same run: the
same walks from the same spec files (by their SHA-256), the same server
(the embedded twin or the same --url), the same budget file if the shares
were given one, and the same version of walks.

The budgets are held as the shards read them: give merge the --budgets,
--strict and --check-slack an unsharded run would get (the shards need
none).

Exit codes:
  0  every walk within its budgets
  1  a budget exceeded, or repeated runs counted differently
  2  a usage error, a report that is not a shard's, a share missing or
     given twice, shares of different runs, a bad budget file
  3  a walk failed against the server in one of the shares

Flags:
`

func mergeCmd(stdout, stderr io.Writer, args []string) error {
	var f runFlags
	fs := pflag.NewFlagSet("walks merge", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addGateFlags(fs, &f)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, mergeHelp+fs.FlagUsages())
			return nil
		}
		return cli.Usage("merge: %v (see walks merge --help)", err)
	}
	if fs.NArg() == 0 {
		return cli.Usage("merge: name the shards' reports (walks run --shard K/N --report FILE)")
	}
	if err := checkGateFlags("merge", fs, f); err != nil {
		return err
	}
	outcomes, sh, err := mergeReports(fs.Args())
	if err != nil {
		return fmt.Errorf("merge: %v", err)
	}
	r := &walksRun{f: f, specs: make([]*walk.Spec, len(outcomes)), server: sh.Server}
	for i, oc := range outcomes {
		r.specs[i] = oc.Spec
	}
	if f.budgetFile != "" {
		if r.budgets, err = loadBudgets(f); err != nil {
			return err
		}
		if err := checkBudgetKeys(r.budgets, r.specs, f.update); err != nil {
			return err
		}
		if f.update && sh.Server == "twin" {
			if err := budgets.GuardTwin(r.budgets, "merge: --update of shares run without --url"); err != nil {
				return err
			}
		}
	}
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

// specFault is a shard's walk that stopped at its spec's fault: merged, it
// ends the run with exit 2, as it did the shard.
type specFault struct{ msg string }

func (e *specFault) Error() string { return e.msg }
