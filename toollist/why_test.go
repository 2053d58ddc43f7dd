package toollist

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestWhy(t *testing.T) {
	old, err := parseCapture("old.json", []byte(`{"tools":[
		{"name":"a","description":"short","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"the query"}},"required":["q"]}},
		{"name":"b","description":"gone soon"},
		{"name":"c","description":"same"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	nw, err := parseCapture("new.json", []byte(`{"tools":[
		{"name":"a","description":"rather longer","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"q"},"limit":{"type":"integer"}},"required":["q","limit"]}},
		{"name":"c","description":"same"},
		{"name":"d"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Why(old, nw)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, fmt.Sprintf("%s %s %s %+d", c.Tool, c.Path, c.Status, c.Delta()))
	}
	want := []string{
		"a input_schema.properties.limit added +27",
		"d  added +12",
		"a description changed +8",
		"a input_schema.required changed +8",
		"a input_schema.properties.q.description changed -8",
		"b  removed -38",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Why:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestWhyAddsUp: on every pair of the test captures, the changes add up to
// the change of the model-read bytes.
func TestWhyAddsUp(t *testing.T) {
	paths := []string{"testdata/demo.json", "testdata/demo-v2.json", "testdata/demo.sse"}
	twin, _ := filepath.Glob("../captures/twin/tools-*.json")
	for _, p := range twin {
		if !strings.Contains(p, ".init.") {
			paths = append(paths, p)
		}
	}
	figs := map[string]*Figures{}
	caps := map[string]*Capture{}
	for _, p := range paths {
		c, err := readCapture(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := measure(c, nil)
		if err != nil {
			t.Fatal(err)
		}
		caps[p], figs[p] = c, f
	}
	for _, a := range paths {
		for _, b := range paths {
			cs, err := Why(caps[a], caps[b])
			if err != nil {
				t.Fatal(err)
			}
			var sum int64
			for i, c := range cs {
				sum += c.Delta()
				if c.Delta() == 0 {
					t.Errorf("%s -> %s: a change of 0 at %s %s", a, b, c.Tool, c.Path)
				}
				if i > 0 && c.Delta() > cs[i-1].Delta() {
					t.Errorf("%s -> %s: not largest first at %d", a, b, i)
				}
			}
			if want := figs[b].ModelReadBytes - figs[a].ModelReadBytes; sum != want {
				t.Errorf("%s -> %s: changes add up to %+d, model-read bytes moved %+d", a, b, sum, want)
			}
		}
	}
}
