package main

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
)

// budgetBlock is the block of a budgets file that holds tool-list budgets.
const budgetBlock = "TOOL_LIST_TOKENS"

// givenBudget is one --budget flag: its budget, whose File names the flag,
// and whether a capture or toolset used it.
type givenBudget struct {
	budget budgets.Budget
	used   bool
}

func parseBudgetFlags(flags []string) ([]*givenBudget, error) {
	var out []*givenBudget
	for _, f := range flags {
		name, val, ok := strings.Cut(f, "=")
		n, err := strconv.ParseInt(strings.ReplaceAll(val, "_", ""), 10, 64)
		if !ok || name == "" || err != nil || n < 0 {
			return nil, cli.Usage("--budget %s: want KEY=TOKENS, such as mcp=11161", f)
		}
		if !strings.Contains(name, ".") {
			name = budgetBlock + "." + name
		}
		out = append(out, &givenBudget{budget: budgets.Budget{Name: name, Value: n, File: "--budget " + f}})
	}
	return out, nil
}

// budgetKey returns a capture's budget key: its file stem without a
// leading "tools-".
func budgetKey(path string) string {
	base := filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if k := strings.TrimPrefix(stem, "tools-"); k != "" {
		return k
	}
	return stem
}

// checkBudgets holds what a model reads of each capture and toolset to the
// budgets named for its key (each --budget, then the file's), and records
// the checks in the reports. A --budget whose key matches nothing measured
// is a usage error.
func checkBudgets(reports []*report, paths []string, key string, given []*givenBudget, file *budgets.File, filePath string) error {
	if len(given) == 0 && file == nil {
		return nil
	}
	var keys []string
	var missing []string
	measure := gate.Measure{Kind: gate.ToolList}
	check := func(r *report, k, what string, bytes, tokens int64) {
		name := budgetBlock + "." + k
		keys = append(keys, k)
		found := false
		for _, g := range given {
			if g.budget.Name == name {
				g.used = true
				found = true
				r.budgets = append(r.budgets, gate.Hold(what, name, measure, tokens, bytes, gate.Given{g.budget}))
			}
		}
		if file != nil {
			if c := gate.Hold(what, name, measure, tokens, bytes, file); c.Budgeted() {
				found = true
				r.budgets = append(r.budgets, c)
			}
		}
		if !found {
			missing = append(missing, name)
		}
	}
	for i, r := range reports {
		k := key
		if k == "" {
			k = budgetKey(paths[i])
		}
		check(r, k, paths[i], r.figures.ModelReadBytes, r.figures.ModelReadTokens)
		for _, s := range r.sets {
			check(r, s.Name, "toolset "+s.Name+" of "+paths[i], s.ModelReadBytes, s.ModelReadTokens)
		}
	}
	for _, g := range given {
		if !g.used {
			sort.Strings(keys)
			return cli.Usage("%s: no capture or toolset has that key (keys: %s)", g.budget.File, strings.Join(keys, ", "))
		}
	}
	if file != nil && len(missing) > 0 && len(reports) > 0 {
		reports[0].warnings = append(reports[0].warnings, filePath+": no budget for "+strings.Join(missing, ", "))
	}
	return nil
}
