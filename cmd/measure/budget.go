package main

import (
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/toollist"
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
		if !slices.ContainsFunc(unitBlocks, func(ub struct{ block, unit string }) bool { return strings.HasPrefix(name, ub.block+".") }) {
			name = budgetBlock + "." + name
		}
		out = append(out, &givenBudget{budget: budgets.Budget{Name: name, Value: n, File: "--budget " + f}})
	}
	return out, nil
}

// budgetKey returns a capture's budget key: its file name up to the first
// ".", without a leading "tools-" (tools-mcp.json: mcp; x.tools-list.json:
// x). A name that starts with "." keeps its stem.
func budgetKey(path string) string {
	base := filepath.Base(path)
	stem, _, _ := strings.Cut(base, ".")
	if stem == "" {
		stem = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if k := strings.TrimPrefix(stem, "tools-"); k != "" {
		return k
	}
	return stem
}

// keyHint says, after a budget that cannot be added, which flag chooses
// the key.
const keyHint = "a capture's key is its file name up to the first \".\" without \"tools-\" (choose it with --budget-key KEY), a toolset's its name in --toolsets"

// unitBlocks are the blocks of tool-list budgets, one per unit: bytes/3
// tokens (the default), and each real tokenizer's tokens.
var unitBlocks = []struct{ block, unit string }{
	{budgetBlock, ""},
	{"TOOL_LIST_O200K", "o200k"},
	{"TOOL_LIST_CL100K", "cl100k"},
}

// wantedUnits returns the tokenizers that budgets name (a block of the
// file, or a --budget), so that they are counted.
func wantedUnits(file *budgets.File, given []*givenBudget) []string {
	var out []string
	for _, ub := range unitBlocks[1:] {
		want := file != nil && slices.Contains(file.Blocks(), ub.block)
		for _, g := range given {
			want = want || strings.HasPrefix(g.budget.Name, ub.block+".")
		}
		if want {
			out = append(out, ub.unit)
		}
	}
	return out
}

// wantedClients returns the clients that budgets name (KEY.CLIENT under a
// tool-list block of the file, or a --budget), so that they are measured.
func wantedClients(file *budgets.File, given []*givenBudget) []string {
	var names []string
	if file != nil {
		for _, b := range file.Budgets() {
			names = append(names, b.Name)
		}
	}
	for _, g := range given {
		names = append(names, g.budget.Name)
	}
	var out []string
	for _, n := range names {
		block, rest, _ := strings.Cut(n, ".")
		if !slices.ContainsFunc(unitBlocks, func(ub struct{ block, unit string }) bool { return ub.block == block }) {
			continue
		}
		if i := strings.LastIndexByte(rest, '.'); i >= 0 {
			if _, ok := toollist.ClientProfile(rest[i+1:]); ok && !slices.Contains(out, rest[i+1:]) {
				out = append(out, rest[i+1:])
			}
		}
	}
	return out
}

// unitName is how a budget key's unit is printed: "tokens", "o200k tokens".
func unitName(key string) string {
	for _, ub := range unitBlocks[1:] {
		if strings.HasPrefix(key, ub.block+".") {
			return ub.unit + " tokens"
		}
	}
	return "tokens"
}

// checkBudgets holds what a model reads of each capture and toolset to the
// budgets named for its key (each --budget, then the file's), in every
// unit a budget names, and records the checks in the reports. A --budget
// whose key matches nothing measured is a usage error. It returns what was
// read under every key of the default block and of the blocks the budgets
// use: the values --update writes. A budget of the file's tool-list blocks
// that nothing read is a warning on the first report (stale). Each call
// makes the checks and their warnings anew.
func checkBudgets(reports []*report, paths []string, key string, given []*givenBudget, file *budgets.File, filePath string) (map[string]int64, error) {
	readings := map[string]int64{}
	for _, r := range reports {
		r.budgets, r.stale, r.budgetNotes, r.missing = nil, nil, nil, nil
	}
	if len(given) == 0 && file == nil && filePath == "" {
		return readings, nil
	}
	var keys []string
	var missing []string
	measure := gate.Measure{Kind: gate.ToolList}
	units := append([]string{""}, wantedUnits(file, given)...)
	check := func(r *report, k, what string, bytes int64, tokens map[string]int64, client bool) {
		keys = append(keys, k)
		for _, ub := range unitBlocks {
			if !slices.Contains(units, ub.unit) {
				continue
			}
			name := ub.block + "." + k
			read, counted := tokens[ub.unit]
			if client && (!counted || file == nil || !hasBudget(file, name)) && !slices.ContainsFunc(given, func(g *givenBudget) bool { return g.budget.Name == name }) {
				// a client's reading is held and updated only where a
				// budget names it
				continue
			}
			readings[name] = read
			found := false
			for _, g := range given {
				if g.budget.Name == name {
					g.used = true
					found = true
					r.budgets = append(r.budgets, gate.Hold(what, name, measure, read, bytes, gate.Given{g.budget}))
				}
			}
			if file != nil {
				if c := gate.Hold(what, name, measure, read, bytes, file); c.Budgeted() {
					found = true
					r.budgets = append(r.budgets, c)
				}
			}
			if !found && ub.unit == "" && !client && !(file != nil && hasBudgetUnder(file, name)) {
				missing = append(missing, name)
			}
		}
	}
	for i, r := range reports {
		k := key
		if k == "" {
			k = budgetKey(paths[i])
		}
		check(r, k, paths[i], r.figures.ModelReadBytes, unitTokens(r.figures.ModelReadTokens, r.figures.Tokenizers), false)
		for _, cf := range r.clients {
			check(r, k+"."+cf.Profile.Name, paths[i]+" in "+strings.TrimPrefix(cf.Profile.Title, "the "), cf.Bytes, unitTokens(cf.Tokens, cf.Tokenizers), true)
		}
		for _, s := range r.sets {
			tk := map[string]int64{"": s.ModelReadTokens}
			for _, t := range r.figures.PerTool {
				if slices.Contains(s.Tools, t.Name) {
					for _, tc := range r.figures.ToolTokens(t.Index) {
						tk[tc.Name] += tc.Tokens
					}
				}
			}
			check(r, s.Name, "toolset "+s.Name+" of "+paths[i], s.ModelReadBytes, tk, false)
		}
	}
	for _, g := range given {
		if !g.used {
			sort.Strings(keys)
			return nil, cli.Usage("%s: no capture or toolset has that key (keys: %s)", g.budget.File, strings.Join(keys, ", "))
		}
	}
	if file != nil && len(missing) > 0 && len(reports) > 0 {
		reports[0].missing, reports[0].missingFile = missing, filePath
		f := finding{kind: missingBudget, file: filePath, missing: missing}
		reports[0].budgetNotes = append(reports[0].budgetNotes, f.note())
	}
	if file != nil && len(reports) > 0 {
		for _, b := range file.Budgets() {
			block, _, _ := strings.Cut(b.Name, ".")
			if !slices.ContainsFunc(unitBlocks, func(ub struct{ block, unit string }) bool { return ub.block == block }) {
				continue
			}
			if _, read := readings[b.Name]; !read {
				reports[0].stale = append(reports[0].stale, b)
				f := finding{kind: staleBudget, stale: b}
				reports[0].budgetNotes = append(reports[0].budgetNotes, f.note())
			}
		}
	}
	return readings, nil
}

// hasBudget reports whether the file declares the budget name.
func hasBudget(file *budgets.File, name string) bool {
	_, ok := file.Get(name)
	return ok
}

// hasBudgetUnder reports whether the file declares a budget under name
// (name.CLIENT), so that name itself is no missing budget.
func hasBudgetUnder(file *budgets.File, name string) bool {
	return slices.ContainsFunc(file.Budgets(), func(b budgets.Budget) bool { return strings.HasPrefix(b.Name, name+".") })
}

// unitTokens maps each unit ("" for bytes/3) to a count.
func unitTokens(tokens int64, tks []toollist.TokenizerCount) map[string]int64 {
	m := map[string]int64{"": tokens}
	for _, tc := range tks {
		m[tc.Name] = tc.Tokens
	}
	return m
}

// caution adds warnings that are no lint and no budget's: printed with
// the others, findings with --strict.
func (r *report) caution(ws ...string) {
	r.warnings = append(r.warnings, ws...)
	r.cautions = append(r.cautions, ws...)
}

// allWarnings returns the report's warnings, then those of its budget
// checks.
func (r *report) allWarnings() []string {
	return append(append([]string{}, r.warnings...), r.budgetNotes...)
}
