package walk_test

import (
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

func TestOverText(t *testing.T) {
	parts := []ledger.Part{{Name: "entry", Bytes: 1000, Tokens: 333}, {Name: "create", Bytes: 2700, Tokens: 900}}
	lines := "\n  entry: 1,000 bytes, 333 tokens (bytes/3)\n  create: 2,700 bytes, 900 tokens (bytes/3)"
	over := func(key string, m gate.Measure, read, bytes, budget int64, file string, line int) gate.Check {
		return gate.Hold("proposal", key, m, read, bytes, gate.Given{{Name: key, Value: budget, File: file, Line: line}})
	}
	for _, tc := range []struct {
		name  string
		check gate.Check
		parts []ledger.Part
		want  string
	}{
		{"the walk's tokens", over("FIRST_TASK_TOKENS.proposal", gate.Measure{Kind: gate.Total}, 1233, 3700, 1200, "specs/budgets.json", 4), parts,
			"walk proposal read 1,233 tokens (bytes/3) of 3,700 bytes, over its budget of 1,200 (FIRST_TASK_TOKENS.proposal, specs/budgets.json:4)" + lines},
		{"the walk's bytes", over("SURVEY_BUDGET.bytes", gate.Measure{Kind: gate.TotalBytes}, 3700, 3700, 3699, "f.ts", 2), parts,
			"walk proposal read 3,700 bytes, 1,233 tokens (bytes/3), over its budget of 3,699 (SURVEY_BUDGET.bytes, f.ts:2)" + lines},
		{"one part's bytes", over("PROPOSAL_ROUTINE.http.create", gate.Measure{Kind: gate.Step, Part: "create"}, 2700, 2700, 2696, "first-task.ts", 9), parts,
			`walk proposal: part "create" read 2,700 bytes, over its budget of 2,696 (PROPOSAL_ROUTINE.http.create, first-task.ts:9)` + lines},
		{"calls", over("PROPOSAL_ROUTINE.calls", gate.Measure{Kind: gate.CallCount}, 5, 5, 4, "f.ts", 3), parts,
			"walk proposal made 5 calls, over its budget of 4 (PROPOSAL_ROUTINE.calls, f.ts:3)" + lines},
		{"a tool list", over("TOOL_LIST_TOKENS.tasks", gate.Measure{Kind: gate.ToolList, Part: "the tool list"}, 7143, 21429, 7142, "f.ts", 12), nil,
			`walk proposal: what a model reads of the tool list "the tool list" is 7,143 tokens (bytes/3) of 21,429 bytes, over its budget of 7,142 (TOOL_LIST_TOKENS.tasks, f.ts:12)`},
	} {
		if tc.check.Status != gate.Over {
			t.Fatalf("%s: %s, want over", tc.name, tc.check.Status)
		}
		if got := walk.OverText(tc.check, tc.parts); got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
}

func TestBudgetOf(t *testing.T) {
	b := budgets.Budget{Name: "A.b", Value: 10, File: "b.json", Line: 3}
	c := gate.Hold("w", "A.b", gate.Measure{Kind: gate.Step, Part: "p"}, 12, 12, gate.Given{b})
	br := walk.BudgetOf(c)
	if br.Key != "A.b" || br.Measure != "step:p" || br.Unit != gate.Bytes || br.Read != 12 || *br.Budget != 10 || *br.Slack != -2 || br.Where != "b.json:3" || br.Status != gate.Over {
		t.Errorf("BudgetOf = %+v", br)
	}
	un := walk.BudgetOf(gate.Hold("w", "A.b", gate.Measure{Kind: gate.Total}, 12, 36, nil))
	if un.Budget != nil || un.Slack != nil || un.Where != "" || un.Status != gate.Unchecked {
		t.Errorf("BudgetOf unchecked = %+v", un)
	}
}
