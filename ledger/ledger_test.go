package ledger

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
)

func TestLedgerCounts(t *testing.T) {
	l := New("start_tasks", FullWidthTimes())
	if n := l.Add("the start", []byte("## Start: tasks\n")); n != 16 {
		t.Errorf("Add = %d, want 16", n)
	}
	// 27 bytes as received, 32 counted.
	if n := l.Add("who you are", []byte(`"2026-10-02T07:57:40.1+00:00"`)); n != 34 {
		t.Errorf("Add with a time = %d, want 34", n)
	}
	// Invalid UTF-8 counts as Node decodes it: one U+FFFD (3 bytes) for 0xff.
	if n := l.Add("odd", []byte{'a', 0xff}); n != 4 {
		t.Errorf("Add invalid UTF-8 = %d, want 4", n)
	}
	l.AddBytes("the tool list", 100)
	if l.Bytes() != 16+34+4+100 || l.Tokens() != (16+34+4+100)/3 {
		t.Errorf("Bytes, Tokens = %d, %d", l.Bytes(), l.Tokens())
	}
	parts := l.Parts()
	want := []Part{{"the start", 16, 5}, {"who you are", 34, 11}, {"odd", 4, 1}, {"the tool list", 100, 33}}
	if len(parts) != len(want) {
		t.Fatalf("parts = %v", parts)
	}
	for i := range want {
		if parts[i] != want[i] {
			t.Errorf("part %d = %v, want %v", i, parts[i], want[i])
		}
	}
}

func TestLedgerNoNormalizer(t *testing.T) {
	l := New("raw")
	if n := l.Add("t", []byte("T07:57:40.1+00:00")); n != 17 {
		t.Errorf("Add = %d, want 17", n)
	}
}

func TestCheck(t *testing.T) {
	l := New("start_tasks")
	l.AddBytes("the start", 2070)
	l.AddBytes("join with the link", 5468)
	b := budgets.Budget{Name: "FIRST_TASK_TOKENS.start_tasks", Value: 2450, File: "specs/budgets.json", Line: 4}
	err := l.Check(b)
	var ob *OverBudget
	if !errors.As(err, &ob) {
		t.Fatalf("Check = %v, want *OverBudget", err)
	}
	want := "walk start_tasks read 2,512 tokens (7,538 bytes), over its budget of 2,450 (FIRST_TASK_TOKENS.start_tasks, specs/budgets.json:4)\n" +
		"  the start: 2070 bytes, 690 tokens\n" +
		"  join with the link: 5468 bytes, 1822 tokens"
	if err.Error() != want {
		t.Errorf("Check text:\n%s\nwant:\n%s", err, want)
	}
	if ob.Walk != "start_tasks" || ob.Tokens != 2512 || ob.Bytes != 7538 || ob.Budget != b || len(ob.Parts) != 2 || ob.Over() != 62 {
		t.Errorf("OverBudget fields = %+v", ob)
	}
	b.Value = 2512 // exactly at the budget holds
	if err := l.Check(b); err != nil {
		t.Errorf("at the budget: %v", err)
	}
}

func TestCheckOtherMeasures(t *testing.T) {
	l := New("proposal")
	l.AddBytes("create", 2700)
	l.AddBytes("entry", 1000)
	b := budgets.Budget{Name: "PROPOSAL_ROUTINE.http.create", Value: 2696, File: "first-task.ts", Line: 9}
	err := l.CheckPart("create", b)
	if err == nil || !strings.HasPrefix(err.Error(), `walk proposal: part "create" read 2,700 bytes, over its budget of 2,696 (PROPOSAL_ROUTINE.http.create, first-task.ts:9)`+"\n") {
		t.Errorf("CheckPart = %v", err)
	}
	if err := l.CheckPart("entry", b); err != nil {
		t.Errorf("CheckPart within: %v", err)
	}
	if err := l.CheckPart("nope", b); err == nil || errors.As(err, new(*OverBudget)) {
		t.Errorf("CheckPart of a missing part = %v", err)
	}
	b = budgets.Budget{Name: "SURVEY_BUDGET.bytes", Value: 3699, File: "f.ts", Line: 2}
	if err := l.CheckBytes(b); err == nil || !strings.HasPrefix(err.Error(), "walk proposal read 3,700 bytes (1,233 tokens), over its budget of 3,699 (SURVEY_BUDGET.bytes, f.ts:2)") {
		t.Errorf("CheckBytes = %v", err)
	}
	b = budgets.Budget{Name: "PROPOSAL_ROUTINE.calls", Value: 4, File: "f.ts", Line: 3}
	if err := l.CheckCalls(5, b); err == nil || !strings.HasPrefix(err.Error(), "walk proposal made 5 calls, over its budget of 4 (PROPOSAL_ROUTINE.calls, f.ts:3)") {
		t.Errorf("CheckCalls = %v", err)
	}
	if err := l.CheckCalls(4, b); err != nil {
		t.Errorf("CheckCalls within: %v", err)
	}
	b = budgets.Budget{Name: "TOOL_LIST_TOKENS.tasks", Value: 7142, File: "f.ts", Line: 12}
	want := "walk proposal: the tool list \"the tool list\" reads 7,143 tokens as a model reads it, over its budget of 7,142 (TOOL_LIST_TOKENS.tasks, f.ts:12)\n" +
		"  the tool list (what a model reads): 21429 bytes, 7143 tokens"
	if err := l.CheckToolList("the tool list", 21429, b); err == nil || err.Error() != want {
		t.Errorf("CheckToolList = %v\nwant %s", err, want)
	}
	if err := l.CheckToolList("the tool list", 21428, b); err != nil {
		t.Errorf("CheckToolList within: %v", err)
	}
	if got := l.Slack(budgets.Budget{Value: 1300}); got != 1300-1233 {
		t.Errorf("Slack = %d", got)
	}
}

func TestJSON(t *testing.T) {
	l := New("http")
	l.AddBytes("the primer", 13136)
	l.AddBytes("the primer", 1)
	data, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"walk":"http","bytes":13137,"tokens":4379,"parts":[{"name":"the primer","bytes":13136,"tokens":4378},{"name":"the primer","bytes":1,"tokens":0}]}`
	if string(data) != want {
		t.Errorf("JSON = %s\nwant   %s", data, want)
	}
	var back Ledger
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Walk() != "http" || back.Bytes() != 13137 || len(back.Parts()) != 2 {
		t.Errorf("round trip = %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"walk":"x","bytes":5,"tokens":1,"parts":[{"name":"a","bytes":4,"tokens":1}]}`), &back); err == nil {
		t.Error("a report whose totals disagree was read")
	}
	empty, _ := json.Marshal(New("none"))
	if string(empty) != `{"walk":"none","bytes":0,"tokens":0,"parts":[]}` {
		t.Errorf("empty = %s", empty)
	}
}
