package jsonjs_test

import (
	"fmt"

	"github.com/readmeter/readmeter/jsonjs"
)

func Example() {
	// Integer-like keys first, a repeated key in its first place with its
	// last value, numbers as doubles, "<" and non-ASCII text left as they are:
	// what JSON.stringify(JSON.parse(text)) writes in Node.
	text := []byte(`{"b": 1, "10": true, "a": "<tag>\u00e9", "b": 2.50, "2": 1e21}`)
	v, err := jsonjs.Parse(text)
	if err != nil {
		panic(err)
	}
	out := jsonjs.Stringify(v)
	fmt.Printf("%s\n", out)
	fmt.Println(len(out), "bytes")

	_, err = jsonjs.Parse([]byte("{\"a\": 1,\n \"b\": }"))
	fmt.Println(err)
	// Output:
	// {"2":1e+21,"10":true,"b":2.5,"a":"<tag>é"}
	// 43 bytes
	// line 2, column 7: unexpected character '}'
}
