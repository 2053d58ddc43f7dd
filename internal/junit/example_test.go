package junit_test

import (
	"fmt"

	"github.com/readmeter/readmeter/internal/junit"
)

func ExampleReport() {
	r := junit.Report{Name: "walks"}
	s := r.Suite("walks")
	s.Add(junit.Case{Name: "FIRST_TASK_TOKENS.plugin", Class: "plugin"})
	s.Add(junit.Case{Name: "FIRST_TASK_TOKENS.http", Class: "http",
		Failure: &junit.Problem{Type: "over budget", Message: "walk http read 12 tokens, over its budget of 10", Text: "walk http read 12 tokens, over its budget of 10"}})
	data, _ := r.Marshal()
	fmt.Print(string(data))
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <testsuites name="walks" tests="2" failures="1" errors="0" time="0">
	//   <testsuite name="walks" tests="2" failures="1" errors="0" skipped="0" time="0">
	//     <testcase name="FIRST_TASK_TOKENS.plugin" classname="plugin" time="0"></testcase>
	//     <testcase name="FIRST_TASK_TOKENS.http" classname="http" time="0">
	//       <failure type="over budget" message="walk http read 12 tokens, over its budget of 10">walk http read 12 tokens, over its budget of 10</failure>
	//     </testcase>
	//   </testsuite>
	// </testsuites>
}
