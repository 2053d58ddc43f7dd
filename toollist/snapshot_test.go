package toollist_test

import (
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

func TestSnapshot(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"zeta":1,"_meta":{"b":1,"a":2},"inputSchema":{"type":"object","properties":{"b":{},"a":{"type":"string","description":"x"}}},"name":"n","annotations":{"readOnlyHint":true},"execution":{"taskSupport":"optional"},"alpha":[3,{"y":1,"x":2}],"icons":[{"src":"s","mimeType":"m"}],"title":"T","outputSchema":{"type":"object"},"description":"d"}`,
			`{"name":"n","title":"T","description":"d","inputSchema":{"properties":{"a":{"description":"x","type":"string"},"b":{}},"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"execution":{"taskSupport":"optional"},"icons":[{"mimeType":"m","src":"s"}],"_meta":{"a":2,"b":1},"alpha":[3,{"x":2,"y":1}],"zeta":1}`},
		{`{"b":{"10":1,"9":2,"a":3}}`, `{"b":{"9":2,"10":1,"a":3}}`},
		{`[1]`, `[1]`},
	}
	for _, c := range cases {
		v, err := jsonjs.Parse([]byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(jsonjs.Stringify(toollist.Snapshot(v))); got != c.want {
			t.Errorf("Snapshot(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
