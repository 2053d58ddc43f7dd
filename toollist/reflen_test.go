package toollist_test

import (
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// TestRefLen holds the length of a hoisted definition's $ref, added up
// from its names, to the $ref written, whatever the names escape to.
func TestRefLen(t *testing.T) {
	for _, container := range []string{"$defs", "definitions"} {
		for _, name := range []string{"a", "schema_2", "é", `a"b`, `a\b`, "\x01\x1f", "\u2028<>&", "\xed\xa0\x80", "😀", ""} {
			if added, written := toollist.RefLenBothWays(container, name); added != written {
				t.Errorf("%s %q: added up %d bytes, written %d", container, name, added, written)
			}
		}
	}
}

// TestToolLens holds the lengths toolLens adds up a member at a time to
// the tool and what a model reads of it, written whole, on every tool of
// the test captures and on tools of every kind.
func TestToolLens(t *testing.T) {
	var tools []jsonjs.Value
	paths, _ := filepath.Glob("testdata/*.json")
	more, _ := filepath.Glob("testdata/adversarial/*.json")
	for _, path := range append(paths, more...) {
		c, err := toollist.Open(path, toollist.Options{})
		if err != nil {
			continue
		}
		for i := range c.Tools {
			if v, err := c.Tool(i); err == nil {
				tools = append(tools, v)
			}
		}
		c.Close()
	}
	for _, s := range []string{`"a string"`, `null`, `[1,{"name":"x"}]`, `{}`, `{"x":1}`, `{"inputSchema":{},"name":"é\u2028","description":null,"x":[]}`} {
		v, err := jsonjs.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, v)
	}
	if len(tools) < 20 {
		t.Fatalf("only %d tools read", len(tools))
	}
	for _, tool := range tools {
		wire, model := toollist.ToolLens(tool)
		if w, m := jsonjs.StringifyLen(tool), toollist.ModelReadBytes(tool); wire != w || int64(model) != m {
			t.Errorf("%s: toolLens %d and %d, written whole %d and %d", jsonjs.Stringify(tool), wire, model, w, m)
		}
	}
}
