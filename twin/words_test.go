package twin

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// jsonLen is a string's length as JSON carries it: its UTF-8 bytes once
// escaped, without the quotes.
func jsonLen(s string) int {
	b, _ := json.Marshal(s)
	// encoding/json escapes <, > and & as \u003c and so on; JSON.stringify
	// does not, and the lengths are JSON.stringify's.
	b = []byte(strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(b)))
	return len(b) - 2
}

// descriptions returns every description string of a schema by its JSON
// pointer.
func descriptions(v any, at string, out map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			if s, ok := c.(string); ok && k == "description" {
				out[at] = s
				continue
			}
			descriptions(c, at+"/"+k, out)
		}
	case []any:
		for i, c := range v {
			descriptions(c, fmt.Sprintf("%s/%d", at, i), out)
		}
	}
}

// TestWordsHaveTheServiceLengths holds every description of the tools the
// service lists at /mcp/connect, its own and search and fetch, to the
// service's length (testdata/service-lengths.json):
// the tool's own and each of its input schema's, no more and no fewer, so
// the tool list differs from the service's by words alone.
func TestWordsHaveTheServiceLengths(t *testing.T) {
	raw, err := os.ReadFile("testdata/service-lengths.json")
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Tools map[string]map[string]int `json:"tools"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	all := append(append([]string{}, mcpTools...), connectTools...)
	if len(want.Tools) != len(all) {
		t.Errorf("testdata/service-lengths.json names %d tools, /mcp/connect lists %d", len(want.Tools), len(all))
	}
	for _, name := range all {
		lengths, ok := want.Tools[name]
		if !ok {
			t.Errorf("%s: no lengths in testdata/service-lengths.json", name)
			continue
		}
		tw := theWords.tools[name]
		if n := jsonLen(tw.description); n != lengths[""] {
			t.Errorf("words/tools/%s.md: %d bytes, the service's is %d", name, n, lengths[""])
		}
		var schema any
		if err := json.Unmarshal(tw.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		descriptions(schema, "", got)
		var at []string
		for p := range got {
			at = append(at, p)
		}
		for p := range lengths {
			if _, ok := got[p]; !ok && p != "" {
				at = append(at, p)
			}
		}
		sort.Strings(at)
		for _, p := range at {
			n, ok := lengths[p]
			switch {
			case !ok:
				t.Errorf("words/tools/%s.json: %s has a description the service's has not", name, p)
			case got[p] == "":
				t.Errorf("words/tools/%s.json: %s has no description; the service's has %d bytes", name, p, n)
			case jsonLen(got[p]) != n:
				t.Errorf("words/tools/%s.json: %s: %d bytes, the service's is %d", name, p, jsonLen(got[p]), n)
			}
		}
	}
}
