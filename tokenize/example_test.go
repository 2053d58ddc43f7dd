package tokenize_test

import (
	"fmt"

	"github.com/readmeter/readmeter/tokenize"
)

func ExampleParse() {
	ts, err := tokenize.Parse("o200k,cl100k")
	if err != nil {
		panic(err)
	}
	for _, t := range ts {
		fmt.Println(t.Name(), t.Count(`{"name":"echo","description":"Echoes the text back."}`))
	}
	// Output:
	// o200k 14
	// cl100k 14
}
