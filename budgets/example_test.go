package budgets_test

import (
	"fmt"
	"os"

	"github.com/readmeter/readmeter/budgets"
)

func ExampleFile_Update() {
	src := []byte(`export const FIRST_TASK_TOKENS = {
  /** Over HTTP, the start first. */
  start_tasks: 2_846, // measured
  start_research: 2_885,
} as const;
`)
	f, err := budgets.Parse("first-task.ts", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, moves, err := f.Update(map[string]int64{"FIRST_TASK_TOKENS.start_tasks": 2450})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range moves {
		fmt.Printf("%s (%s): %d -> %d (%+d)\n", m.Name, m.Where(), m.Old, m.New, m.Delta())
	}
	os.Stdout.Write(data)
	// Output:
	// FIRST_TASK_TOKENS.start_tasks (first-task.ts:3): 2846 -> 2450 (-396)
	// export const FIRST_TASK_TOKENS = {
	//   /** Over HTTP, the start first. */
	//   start_tasks: 2_450, // measured
	//   start_research: 2_885,
	// } as const;
}

func ExampleFile_Insert() {
	src := []byte(`export const PROPOSAL_ROUTINE = {
  calls: 4,
  http: { create: 2696 },
} as const;
`)
	f, err := budgets.Parse("first-task.ts", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := f.Insert(map[string]int64{
		"PROPOSAL_ROUTINE.http.entry":      1129,
		"PROPOSAL_ROUTINE.connector.entry": 2042,
		"SURVEY_BUDGET.bytes":              30291,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	os.Stdout.Write(data)
	// Output:
	// export const PROPOSAL_ROUTINE = {
	//   calls: 4,
	//   http: { create: 2696, entry: 1129 },
	//   connector: { entry: 2042 },
	// } as const;
	//
	// export const SURVEY_BUDGET = {
	//   bytes: 30291,
	// } as const;
}

func ExampleRenderFile() {
	f, err := budgets.Parse("budgets.json", []byte(`{"TOOL_LIST_TOKENS": {"mcp": 11161, "tasks": 7142}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := budgets.RenderFile("README.tmpl", []byte("{{TOOL_LIST_TOKENS.mcp}} tokens at `/mcp`, {{ TOOL_LIST_TOKENS.tasks }} for the set tasks ({{TOOL_LIST_TOKENS.tasks | raw}}).\n"), f)
	if err != nil {
		fmt.Println(err)
		return
	}
	os.Stdout.Write(out)
	// Output:
	// 11,161 tokens at `/mcp`, 7,142 for the set tasks (7142).
}
