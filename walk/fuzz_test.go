package walk_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/readmeter/readmeter/walk"
)

// FuzzSpec feeds the spec reader any bytes, as a spec beside the test
// specs (so `use: shared/key.yaml` finds an include). It must never panic;
// it refuses with SpecErrors that each name the file; and what it accepts
// holds at most MaxSpecBytes with every alias expanded (counted here on
// its own, node by node), within a bounded allocation, so no spec can make
// a run write gigabytes. Check runs on what it accepts.
func FuzzSpec(f *testing.F) {
	for _, dir := range []string{"testdata", "../specs/schellingaf", "../specs/schellingaf/shared"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	for _, s := range []string{
		laughs(2000, 4), // 20 MB expanded from 2 kB
		"walk: w\nsteps:\n  - part: a\n    http: POST /\n    json:\n      a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n      b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n      c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n      d: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n",
		"walk: w\nsteps:\n  - part: a\n    http: POST /\n    json: &a\n      x: [1, *a]\n",
		"walk: w\nsteps:\n  - &s {part: a, http: GET /}\n  - *s\n  - {<<: *s, part: b}\n",
		"walk: w\nsteps:\n  - use: shared/key.yaml\n  - use: {file: shared/key.yaml, as: k, vars: {n: \"1\"}}\n  - use: fuzz.yaml\n",
		"walk: w\nsteps:\n  - together:\n      - {part: a, http: GET /}\n      - {part: b, mcp: {url: /mcp, call: t, args: &a {x: [*a]}}}\n",
		"walk: w\nsteps: [" + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "]\n",
		"--- !!binary\n\x00\xff",
	} {
		f.Add([]byte(s))
	}
	spec := filepath.Join("testdata", "fuzz.yaml") // never written: the bytes are given
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s, err := walk.Parse(spec, data)
		runtime.ReadMemStats(&after)
		// Parsing YAML takes some hundred bytes a byte; an alias expanded
		// would take more than the cap.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > walk.MaxSpecBytes+uint64(512*len(data)) {
			t.Fatalf("reading %d bytes allocated %d", len(data), alloc)
		}
		if err != nil {
			var se walk.SpecErrors
			if !errors.As(err, &se) || len(se) == 0 {
				t.Fatalf("error %v (%T) is not SpecErrors", err, err)
			}
			for _, e := range se {
				if e.File == "" || e.Msg == "" {
					t.Fatalf("an error names no file or says nothing: %+v", e)
				}
			}
			return
		}
		budget := int64(walk.MaxSpecBytes)
		for _, st := range append(append([]*walk.Step{}, s.Setup...), s.Flat()...) {
			for _, n := range nodesOf(st) {
				if !within(n, &budget) {
					t.Fatalf("%s: the spec holds more than %d bytes with its aliases expanded", st.Where(), walk.MaxSpecBytes)
				}
			}
		}
		_ = s.Check(nil, func(string) (string, bool) { return "v", true })
	})
}

// nodesOf returns the YAML values a step writes or compares when it runs.
func nodesOf(st *walk.Step) []*yaml.Node {
	var out []*yaml.Node
	switch a := st.Action.(type) {
	case *walk.HTTPRequest:
		out = append(out, a.JSON)
	case *walk.MCPRequest:
		out = append(out, a.Args)
	}
	for _, p := range st.Expect.Paths {
		out = append(out, p.Equals)
	}
	return out
}

// within counts n's bytes with its aliases expanded (each value's text and
// one more) against *budget, and reports whether they fit; it stops as
// soon as they do not.
func within(n *yaml.Node, budget *int64) bool {
	if n == nil {
		return true
	}
	if n.Kind == yaml.AliasNode {
		return n.Alias == nil || within(n.Alias, budget)
	}
	if *budget -= 1 + int64(len(n.Value)); *budget < 0 {
		return false
	}
	for _, c := range n.Content {
		if !within(c, budget) {
			return false
		}
	}
	return true
}
