// Package specs_test runs the service's walk specs (specs/schellingaf)
// against the twin, started in-process: every walk's asserts must hold,
// repeated runs and concurrent copies must count the same, and the counts
// must be within the twin's budgets (specs/twin/budgets.json).
package specs_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/twin"
	"github.com/readmeter/readmeter/walk"
)

const (
	specDir     = "schellingaf"
	budgetsFile = "twin/budgets.json"
)

// loadSpecs loads and checks every walk spec in dir, sorted by file name.
func loadSpecs(t *testing.T, dir string) []*walk.Spec {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var specs []*walk.Spec
	for _, f := range files {
		ok, err := walk.IsWalk(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !ok {
			continue
		}
		s, err := walk.Load(f)
		if err != nil {
			t.Fatalf("load:\n%v", err)
		}
		if err := s.Check(nil, os.LookupEnv); err != nil {
			t.Fatalf("check:\n%v", err)
		}
		specs = append(specs, s)
	}
	return specs
}

// twinBudget looks a budget up in the twin's budget file, for the walks'
// {{budget.KEY}} (the survey's SURVEY_BUDGET.spaces), as walks run
// --budgets does.
func twinBudget(t *testing.T) func(string) (int64, bool) {
	t.Helper()
	bf, err := budgets.Load(budgetsFile)
	if err != nil {
		t.Fatal(err)
	}
	return func(key string) (int64, bool) {
		b, ok := bf.Get(key)
		return b.Value, ok
	}
}

// startTwin serves a fresh twin for the test and returns its base URL.
func startTwin(t *testing.T) string {
	t.Helper()
	base, stop, err := twin.Start(twin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return base
}

// runAll runs every spec against a fresh twin, repeat times, jobs at once.
func runAll(t *testing.T, specs []*walk.Spec, jobs, repeat int) []walk.Outcome {
	t.Helper()
	base := startTwin(t)
	return walk.RunAll(context.Background(), specs, walk.Options{BaseURL: base, Budget: twinBudget(t)}, jobs, repeat)
}

// alone is one run of every walk on a fresh twin, shared by the tests
// that need a run to hold to budgets or to compare with.
var alone struct {
	once     sync.Once
	outcomes []walk.Outcome
	err      error
}

// aloneRun returns the shared run, running it on first use.
func aloneRun(t *testing.T, specs []*walk.Spec) []walk.Outcome {
	t.Helper()
	budget := twinBudget(t)
	alone.once.Do(func() {
		base, stop, err := twin.Start(twin.Options{})
		if err != nil {
			alone.err = err
			return
		}
		defer stop()
		alone.outcomes = walk.RunAll(context.Background(), specs, walk.Options{BaseURL: base, Budget: budget}, 4, 1)
	})
	if alone.err != nil {
		t.Fatal(alone.err)
	}
	return alone.outcomes
}

// The walks the service's test runs, and the documents with their own
// ceilings: the spec folder must hold every one, with its budget key.
var wantWalks = map[string][]string{
	"plugin":             {"FIRST_TASK_TOKENS.plugin", "TOOL_LIST_TOKENS.mcp"},
	"connector":          {"FIRST_TASK_TOKENS.connector", "TOOL_LIST_TOKENS.connect"},
	"http":               {"FIRST_TASK_TOKENS.http"},
	"start_tasks":        {"FIRST_TASK_TOKENS.start_tasks"},
	"start_research":     {"FIRST_TASK_TOKENS.start_research"},
	"start_coordinate":   {"FIRST_TASK_TOKENS.start_coordinate"},
	"toolset_tasks":      {"FIRST_TASK_TOKENS.toolset_tasks", "TOOL_LIST_TOKENS.tasks"},
	"toolset_research":   {"FIRST_TASK_TOKENS.toolset_research", "TOOL_LIST_TOKENS.research"},
	"toolset_coordinate": {"FIRST_TASK_TOKENS.toolset_coordinate", "TOOL_LIST_TOKENS.coordinate"},
	"survey":             {"SURVEY_BUDGET.spaces", "SURVEY_BUDGET.calls", "SURVEY_BUDGET.bytes"},
	"proposal_http":      {"PROPOSAL_ROUTINE.calls", "PROPOSAL_ROUTINE.http.create", "PROPOSAL_ROUTINE.http.entry"},
	"proposal_connector": {"PROPOSAL_ROUTINE.calls", "PROPOSAL_ROUTINE.connector.create", "PROPOSAL_ROUTINE.connector.entry"},
	"primer":             {"DOCUMENT_TOKENS.primer"},
	"reference":          {"DOCUMENT_TOKENS.reference"},
}

func TestSpecsNameEveryWalkAndBudget(t *testing.T) {
	specs := loadSpecs(t, specDir)
	got := map[string][]string{}
	for _, s := range specs {
		for _, m := range s.AllMeasures() {
			got[s.Name] = append(got[s.Name], m.Key)
		}
	}
	for name, keys := range wantWalks {
		if strings.Join(got[name], " ") != strings.Join(keys, " ") {
			t.Errorf("walk %s: budgets %v, want %v", name, got[name], keys)
		}
	}
	for name := range got {
		if _, ok := wantWalks[name]; !ok {
			t.Errorf("walk %s: not one the service's test runs; add it to wantWalks on purpose", name)
		}
	}
	bf, err := budgets.Load(budgetsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, keys := range wantWalks {
		for _, k := range keys {
			if _, ok := bf.Get(k); !ok {
				t.Errorf("%s: no budget %s", budgetsFile, k)
			}
		}
	}
	// Every {{budget.KEY}} a walk reads is in both budget files, and a
	// repeat's count read from either is within its max.
	for _, file := range []string{budgetsFile, "service/budgets.json"} {
		bf, err := budgets.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range specs {
			err := s.CheckBudgets(func(key string) (int64, bool) {
				b, ok := bf.Get(key)
				return b.Value, ok
			}, file)
			if err != nil {
				t.Errorf("walk %s:\n%v", s.Name, err)
			}
		}
	}
}

// failures reports each walk that failed, by name, with the failure's
// step, spec line, request and answer; it returns the walks that ran.
func failures(t *testing.T, outcomes []walk.Outcome) map[string]*walk.Result {
	t.Helper()
	ok := map[string]*walk.Result{}
	var failed []string
	for _, oc := range outcomes {
		if oc.Err != nil {
			failed = append(failed, oc.Spec.Name)
			t.Errorf("walk %s failed on the twin:\n%v", oc.Spec.Name, oc.Err)
			continue
		}
		if oc.Differ != "" {
			t.Errorf("walk %s: its %d runs counted differently: %s", oc.Spec.Name, oc.Runs, oc.Differ)
		}
		ok[oc.Spec.Name] = oc.Result
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d walks failed on the twin: %s", len(failed), len(outcomes), strings.Join(failed, ", "))
	}
	return ok
}

// TestWalksOnTwin runs every walk once: its asserts hold (the task is
// done, the toolset lists exactly its set, the join names its start) and
// every budget holds against specs/twin/budgets.json.
func TestWalksOnTwin(t *testing.T) {
	specs := loadSpecs(t, specDir)
	results := failures(t, aloneRun(t, specs))
	bf, err := budgets.Load(budgetsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		res, ok := results[s.Name]
		if !ok {
			continue
		}
		checks, err := res.Checks(bf)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			switch c.Status {
			case gate.Unbudgeted:
				t.Errorf("walk %s: %s is not in %s", s.Name, c.Key, budgetsFile)
			case gate.Over:
				t.Errorf("%s\n(move the budget on purpose: go run ./cmd/walks run specs/schellingaf --budgets %s --update; see docs/budgets.md)", walk.OverText(c, res.Ledger.Parts()), filepath.Join("specs", budgetsFile))
			}
		}
	}
}

// TestWalksCountTheSame runs every walk against two fresh twins and checks
// that both runs count the same, part by part: normalisation leaves
// nothing that varies from run to run (times, ids, names).
func TestWalksCountTheSame(t *testing.T) {
	specs := loadSpecs(t, specDir)
	first := failures(t, aloneRun(t, specs))
	second := failures(t, runAll(t, specs, 4, 1))
	for _, s := range specs {
		a, b := first[s.Name], second[s.Name]
		if a == nil || b == nil {
			continue
		}
		if d := walk.Differ(a, b); d != "" {
			t.Errorf("walk %s: a second run on a fresh twin counted differently: %s", s.Name, d)
		}
	}
}

// TestWalksConcurrentCopies runs 20 copies of every walk at once on one
// twin: none fails (nothing lost, no walk sees another's SPACE) and every
// copy counts the same as a walk run alone.
func TestWalksConcurrentCopies(t *testing.T) {
	if testing.Short() {
		t.Skip("20 concurrent copies of every walk: not in -short")
	}
	const copies = 20
	specs := loadSpecs(t, specDir)
	first := failures(t, aloneRun(t, specs))
	together := failures(t, runAll(t, specs, copies, copies))
	for _, s := range specs {
		a, b := first[s.Name], together[s.Name]
		if a == nil || b == nil {
			continue
		}
		if d := walk.Differ(a, b); d != "" {
			t.Errorf("walk %s: with %d copies at once it counted differently from a walk alone: %s", s.Name, copies, d)
		}
	}
}
