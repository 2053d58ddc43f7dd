package jsonout_test

import (
	"os"

	"github.com/readmeter/readmeter/internal/jsonout"
)

func Example() {
	type budget struct {
		Key    string `json:"key"`
		Tokens int64  `json:"tokens"`
	}
	report := struct {
		Walk     string   `json:"walk"`
		Budgets  []budget `json:"budgets"`
		Warnings []string `json:"warnings"`
	}{Walk: "start <tasks> & more", Budgets: []budget{{"FIRST_TASK_TOKENS.start", 2512}}, Warnings: []string{}}
	jsonout.Encode(os.Stdout, report)
	// Output:
	// {
	//   "walk": "start <tasks> & more",
	//   "budgets": [
	//     {
	//       "key": "FIRST_TASK_TOKENS.start",
	//       "tokens": 2512
	//     }
	//   ],
	//   "warnings": []
	// }
}
