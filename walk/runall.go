package walk

import (
	"context"
	"fmt"
	"sync"
)

// Outcome is what the runs of one walk gave.
type Outcome struct {
	// Spec is the walk.
	Spec *Spec
	// Result is the first run's result (nil when it failed before any step).
	Result *Result
	// Err is the first run's error that failed, if any (a *Failure or a
	// *SpecError).
	Err error
	// Runs is how many times the walk ran.
	Runs int
	// Differ, when not empty, says how a repeated run counted differently
	// from the first.
	Differ string
}

// MaxRuns is the most times RunAll runs each walk.
const MaxRuns = 100

// RunAll runs every walk repeat times (at least once, at most MaxRuns), at
// most jobs runs at a time (at least one), and returns one Outcome per
// spec, in the specs' order, whatever order the runs end in.
func RunAll(ctx context.Context, specs []*Spec, o Options, jobs, repeat int) []Outcome {
	if jobs < 1 {
		jobs = 1
	}
	repeat = min(max(repeat, 1), MaxRuns)
	type job struct{ walk, run int }
	results := make([][]*Result, len(specs))
	errs := make([][]error, len(specs))
	for i := range specs {
		results[i] = make([]*Result, repeat)
		errs[i] = make([]error, repeat)
	}
	ch := make(chan job)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				results[j.walk][j.run], errs[j.walk][j.run] = Run(ctx, specs[j.walk], o)
			}
		}()
	}
	for run := range repeat {
		for w := range specs {
			ch <- job{w, run}
		}
	}
	close(ch)
	wg.Wait()
	out := make([]Outcome, len(specs))
	for w, s := range specs {
		oc := Outcome{Spec: s, Result: results[w][0], Runs: repeat}
		for run := range repeat {
			if errs[w][run] != nil {
				oc.Err = errs[w][run]
				if run == 0 || oc.Result == nil {
					oc.Result = results[w][run]
				}
				break
			}
		}
		if oc.Err == nil {
			for run := 1; run < repeat; run++ {
				if d := Differ(results[w][0], results[w][run]); d != "" {
					oc.Differ = fmt.Sprintf("run %d of %d: %s", run+1, repeat, d)
					break
				}
			}
		}
		out[w] = oc
	}
	return out
}

// Differ says how b counted differently from a: a part's name or bytes,
// the number of parts or calls, a tool list's bytes. It returns "" when
// both counted the same.
func Differ(a, b *Result) string {
	pa, pb := a.Ledger.Parts(), b.Ledger.Parts()
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if pa[i].Name != pb[i].Name {
			return fmt.Sprintf("part %d is %q, first run %q", i+1, pb[i].Name, pa[i].Name)
		}
		if pa[i].Bytes != pb[i].Bytes && !pa[i].Shared && !pb[i].Shared {
			return fmt.Sprintf("part %q read %d bytes, first run %d", pa[i].Name, pb[i].Bytes, pa[i].Bytes)
		}
	}
	if len(pa) != len(pb) {
		return fmt.Sprintf("%d parts, first run %d", len(pb), len(pa))
	}
	if a.Calls != b.Calls {
		return fmt.Sprintf("%d calls, first run %d", b.Calls, a.Calls)
	}
	for k, v := range a.Items {
		if b.Items[k] != v {
			return fmt.Sprintf("part %q: %d items, first run %d", k, b.Items[k], v)
		}
	}
	for k, v := range a.ToolLists {
		if b.ToolLists[k] != v {
			return fmt.Sprintf("tool list %q: %d bytes a model reads, first run %d", k, b.ToolLists[k], v)
		}
	}
	return ""
}
