package ghactions_test

import (
	"fmt"

	"github.com/readmeter/readmeter/internal/ghactions"
)

func ExampleAnnotation() {
	fmt.Println(ghactions.Annotation{
		Level:   ghactions.Error,
		File:    "src/surface/first-task.ts",
		Line:    12,
		Title:   "FIRST_TASK_TOKENS.plugin",
		Message: "over budget by 208 tokens\nwalk plugin read 13,740 tokens",
	})
	// Output:
	// ::error file=src/surface/first-task.ts,line=12,title=FIRST_TASK_TOKENS.plugin::over budget by 208 tokens%0Awalk plugin read 13,740 tokens
}
