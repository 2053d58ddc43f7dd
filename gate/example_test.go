package gate_test

import (
	"fmt"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
)

func Example() {
	file, err := budgets.Parse("first-task.ts", []byte(`export const FIRST_TASK_TOKENS = {
  start_tasks: 150,
  connector: 900,
} as const;
`))
	if err != nil {
		panic(err)
	}
	checks := gate.Checks{
		gate.Hold("start_tasks", "FIRST_TASK_TOKENS.start_tasks", gate.Measure{Kind: gate.Total}, 167, 503, file),
		gate.Hold("connector", "FIRST_TASK_TOKENS.connector", gate.Measure{Kind: gate.Total}, 450, 1351, file),
		gate.Hold("research", "FIRST_TASK_TOKENS.research", gate.Measure{Kind: gate.Total}, 90, 270, file),
	}
	for _, c := range checks {
		fmt.Printf("%s %s: read %d %s, %s, slack %d\n", c.Subject, c.Key, c.Read, c.Unit(), c.Status, c.Slack())
	}
	fmt.Println(checks.Err())
	for _, c := range checks.With(gate.Over) {
		fmt.Println(c.Key, "declared at", c.Budget.Where())
	}
	// Output:
	// start_tasks FIRST_TASK_TOKENS.start_tasks: read 167 tokens, over, slack -17
	// connector FIRST_TASK_TOKENS.connector: read 450 tokens, ok, slack 450
	// research FIRST_TASK_TOKENS.research: read 90 tokens, unbudgeted, slack 0
	// 1 budget exceeded
	// FIRST_TASK_TOKENS.start_tasks declared at first-task.ts:2
}
