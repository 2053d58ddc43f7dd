package compat_test

import (
	"fmt"

	"github.com/readmeter/readmeter/compat"
	"github.com/readmeter/readmeter/jsonjs"
)

func ExampleCompare() {
	old, _ := jsonjs.Parse([]byte(`[{"name":"read_file","annotations":{"readOnlyHint":true},
		"inputSchema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]`))
	new, _ := jsonjs.Parse([]byte(`[{"name":"read_file","annotations":{"readOnlyHint":false},
		"inputSchema":{"type":"object","properties":{"path":{"type":"string"},"head":{"type":"integer"},"encoding":{"enum":["utf-8"]}},"required":["path","encoding"]}}]`))
	changes := compat.Compare(old.Elems(), new.Elems())
	for _, c := range changes {
		fmt.Println(c.Level, c.Rule, c.Path)
	}
	worst, _ := compat.Worst(changes)
	fmt.Println("worst:", worst)
	// Output:
	// breaking required-param-added inputSchema.properties.encoding
	// warning read-only-hint-dropped annotations.readOnlyHint
	// compatible optional-param-added inputSchema.properties.head
	// worst: breaking
}
