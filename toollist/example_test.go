package toollist_test

import (
	"bytes"
	"fmt"

	"github.com/readmeter/readmeter/toollist"
)

func Example() {
	// A tools/list answer as received: a JSON-RPC response.
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[
  {"name":"task","description":"Take the next task.","inputSchema":{"type":"object","$schema":"http://json-schema.org/draft-07/schema#"}},
  {"name":"post","description":"Post a result.","inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"What you found."}}}}
]}}`)
	c, err := toollist.OpenReader("tools-mcp.json", bytes.NewReader(answer), toollist.Options{})
	if err != nil {
		panic(err)
	}
	f := c.Figures
	// Each tool reads as JSON.stringify({name, description, input_schema})
	// writes it, in UTF-8 bytes; tokens are floor(bytes/3).
	fmt.Println(c.Form, f.Tools, "tools")
	fmt.Println("wire bytes:", f.WireBytes)
	fmt.Println("what a model reads:", f.ModelReadBytes, "bytes,", f.ModelReadTokens, "tokens")
	for _, t := range f.PerTool {
		fmt.Println(" ", t.Name, t.ModelReadBytes)
	}
	// Output:
	// json-rpc 2 tools
	// wire bytes: 339
	// what a model reads: 287 bytes, 95 tokens
	//   task 136
	//   post 151
}

func ExampleOptions() {
	answer := []byte(`{"tools":[
  {"name":"task","description":"Take the next task.","inputSchema":{"type":"object","$schema":"http://json-schema.org/draft-07/schema#","properties":{"n":{"type":"integer","maximum":9007199254740991}}},"outputSchema":{}},
  {"name":"post","description":"Post a result.","inputSchema":{"type":"object"}}
]}`)
	// Lean drops "$schema" and the safe-integer maximum, as the service's
	// leanSchema() does; with no Write, the result is measured, not written.
	c, err := toollist.OpenReader("tools.json", bytes.NewReader(answer), toollist.Options{
		Transforms: []toollist.Transform{toollist.Lean(), toollist.DropEmptyOutputSchemas()},
	})
	if err != nil {
		panic(err)
	}
	for _, s := range c.Savings {
		fmt.Printf("%s saves %d wire bytes, %d model-read bytes (%d changes in %v)\n", s.Name, s.WireSavingBytes, s.ModelReadSavingBytes, s.Changes, s.Tools)
	}
	// Output:
	// lean saves 79 wire bytes, 79 model-read bytes (2 changes in [task])
	// drop_empty_output_schemas saves 18 wire bytes, 0 model-read bytes (1 changes in [task])
}
