package jsonjs_test

import (
	"bytes"
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
)

// TestParserReuses holds a Parser's values, text after text, to Parse's,
// and the strings of a value read before to what they were.
func TestParserReuses(t *testing.T) {
	texts := []string{
		`{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string","enum":["p","q"]}}}}`,
		`[1,[2,[3,[]]],{},{"":""},"s"]`,
		`{"b":1,"a":2,"1":3,"b":4,"arr":[[[[[["deep"]]]]]],"s":"a,b:c[d"}`,
		`"just a string"`,
		`{"k":[` + string(bytes.Repeat([]byte(`{"a":[1,2,3],"b":{"c":"d"}},`), 200)) + `null]}`,
		`[]`,
		`{"name":"z","x":"\u00e9\ud800"}`,
		`{"bad":`,
	}
	var ps jsonjs.Parser
	var names []string
	for _, txt := range texts {
		want, werr := jsonjs.Parse([]byte(txt))
		got, gerr := ps.Parse([]byte(txt))
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("%s: error %v, Parse's %v", txt, gerr, werr)
		}
		if w, g := jsonjs.Stringify(want), jsonjs.Stringify(got); !bytes.Equal(w, g) {
			t.Errorf("%s:\ngot  %s\nwant %s", txt, g, w)
		}
		if n, ok := got.Get("name"); ok {
			names = append(names, n.Str())
		}
	}
	if want := []string{"a", "z"}; len(names) != 2 || names[0] != want[0] || names[1] != want[1] {
		t.Errorf("names read along the way: %q, want %q", names, want)
	}
}
