package walk_test

import (
	"strings"
	"testing"

	"github.com/readmeter/readmeter/walk"
)

func TestStarterArgs(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object"}`, `{}`},
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{}`},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`, `{"a": "text"}`},
		{`{"type":"object","required":["m"],"properties":{"m":{"type":"string","enum":["x","y"],"default":"y"}}}`, `{"m": "x"}`},
		{`{"type":"object","required":["n"],"properties":{"n":{"type":"integer","default":10}}}`, `{"n": 10}`},
		{`{"type":"object","required":["n"],"properties":{"n":{"type":"number","minimum":5}}}`, `{"n": 5}`},
		{`{"type":"object","required":["n"],"properties":{"n":{"type":"number","maximum":0}}}`, `{"n": 0}`},
		{`{"type":"object","required":["b","l"],"properties":{"b":{"type":"boolean"},"l":{"type":"array","minItems":2,"items":{"type":"integer"}}}}`, `{"b": false, "l": [1, 1]}`},
		{`{"type":"object","required":["o"],"properties":{"o":{"type":"object","required":["k"],"properties":{"k":{"const":"c"}}}}}`, `{"o": {"k": "c"}}`},
		{`{"type":"object","required":["e"],"properties":{"e":{"type":"string","examples":["an example"]}}}`, `{"e": "an example"}`},
		{`{"type":"object","required":["u","s"],"properties":{"u":{"type":"string","format":"uri"},"s":{"type":["null","string"],"minLength":6}}}`, `{"u": "https://example.com/", "s": "xxxxxx"}`},
		{`{"type":"object","required":["x"],"properties":{"x":{"anyOf":[{"type":"integer"},{"type":"string"}]}}}`, `{"x": 1}`},
		{`{"type":"object","required":["a.b"],"properties":{"a.b":{"type":"integer"}}}`, `{"a.b": 1}`},
	} {
		tools := `{"tools":[{"name":"t","inputSchema":` + tc.schema + `}]}`
		spec, err := walk.StarterSpec(walk.Starter{Walk: "w", Command: []string{"srv"}, Tools: []byte(tools)})
		if err != nil {
			t.Fatal(err)
		}
		want := `mcp: { call: "t", args: ` + tc.want + ` }`
		if !strings.Contains(string(spec), want) {
			t.Errorf("schema %s: want %s in\n%s", tc.schema, want, spec)
		}
	}
}

func TestStarterUnsafe(t *testing.T) {
	for _, tc := range []struct {
		tool string
		off  bool
	}{
		{`{"name":"read_file"}`, false},
		{`{"name":"write_file"}`, true},
		{`{"name":"delete-entity"}`, true},
		{`{"name":"createEntities"}`, true},
		{`{"name":"settings"}`, false},
		{`{"name":"get-resource-links"}`, false},
		{`{"name":"write_file","annotations":{"readOnlyHint":true}}`, false},
		{`{"name":"get","annotations":{"readOnlyHint":false}}`, true},
		{`{"name":"get","annotations":{"readOnlyHint":true,"destructiveHint":true}}`, true},
		// annotations without readOnlyHint: it defaults to false, whatever
		// the name says
		{`{"name":"port_forward","annotations":{"title":"Port forward"}}`, true},
		{`{"name":"get","annotations":{}}`, true},
		{`{"name":"get","annotations":{"destructiveHint":false}}`, true},
		{`{"name":"get","annotations":{"readOnlyHint":true}}`, false},
	} {
		tools := `{"tools":[` + tc.tool + `]}`
		spec, err := walk.StarterSpec(walk.Starter{Walk: "w", URL: "http://127.0.0.1:1/mcp", Tools: []byte(tools)})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(spec), "  #   mcp: { call: "); got != tc.off {
			t.Errorf("%s: commented out %v, want %v:\n%s", tc.tool, got, tc.off, spec)
		}
	}
}
