package ledger_test

import (
	"fmt"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/ledger"
)

func Example() {
	l := ledger.New("start_tasks", ledger.FullWidthTimes())
	l.Add("the start", []byte("## Start: tasks\n"))
	l.Add("who you are", []byte(`{"peer_id":"k_1","since":"2026-10-02T07:57:40.1+00:00"}`))
	fmt.Println(l.Bytes(), l.Tokens())
	b := budgets.Budget{Name: "FIRST_TASK_TOKENS.start_tasks", Value: 20, File: "specs/budgets.json", Line: 4}
	fmt.Println(l.Check(b))
	// Output:
	// 76 25
	// walk start_tasks read 25 tokens (76 bytes), over its budget of 20 (FIRST_TASK_TOKENS.start_tasks, specs/budgets.json:4)
	//   the start: 16 bytes, 5 tokens
	//   who you are: 60 bytes, 20 tokens
}
