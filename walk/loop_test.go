package walk_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/walktest"
	"github.com/readmeter/readmeter/walk"
)

// writeSpec writes a walk and its include into a new directory and
// returns the walk's path.
func writeSpec(t *testing.T, walkYAML, include string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "one.yaml"), []byte(include), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(p, []byte(walkYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const oneInclude = `steps:
  - http: POST /echo
    json: { n: "{{n}}", name: "{{name}}", stage: "{{stage}}" }
    keep: { got: body }
`

// TestLoopRounds runs a use step with a repeat whose count is a budget's
// value: the include runs once a round, in order, with the round's
// number, its padded form, the cycled value and the include's vars set
// anew each round; the budget, written alone in a JSON body, is a number.
func TestLoopRounds(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	p := writeSpec(t, `walk: w
setup:
  - use: { file: one.yaml, as: s, vars: { n: "{{i}}", name: "x-{{i.pad}}", stage: "{{stage}}" } }
    repeat: { count: "{{budget.B.spaces}}", max: 20, index: i, pad: 2, cycle: { stage: [accepted, in-progress, merged, proposed] } }
steps:
  - part: the last
    http: POST /echo
    json: { spaces: "{{budget.B.spaces}}", last: "{{s.name}}" }
`, oneInclude)
	s, err := walk.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(nil, os.LookupEnv); err != nil {
		t.Fatal(err)
	}
	budget := func(key string) (int64, bool) { return 5, key == "B.spaces" }
	if err := s.CheckBudgets(budget, "b.json"); err != nil {
		t.Fatal(err)
	}
	if _, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL, Budget: budget}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range srv.Log() {
		got = append(got, gjson.GetBytes(a.Body, "body").String())
	}
	want := []string{
		`{"n":"1","name":"x-01","stage":"accepted"}`,
		`{"n":"2","name":"x-02","stage":"in-progress"}`,
		`{"n":"3","name":"x-03","stage":"merged"}`,
		`{"n":"4","name":"x-04","stage":"proposed"}`,
		`{"n":"5","name":"x-05","stage":"accepted"}`,
		`{"spaces":5,"last":"x-05"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoopCountPastMax: a count past the repeat's max fails at the
// count's line, before a round runs: from the budget file in
// CheckBudgets, from a var when the walk runs; a key the file lacks fails
// at each line that reads it.
func TestLoopCountPastMax(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	p := writeSpec(t, `walk: w
vars: { rounds: "3" }
setup:
  - use: { file: one.yaml, as: s, vars: { n: "{{i}}", name: "x", stage: "{{rounds}}" } }
    repeat: { count: "{{rounds}}", max: 2, index: i }
  - use: { file: one.yaml, as: t, vars: { n: "{{j}}", name: "y", stage: "z" } }
    repeat:
      max: 4
      count: "{{budget.B.spaces}}"
      index: j
steps:
  - part: the end
    http: GET /
`, oneInclude)
	s, err := walk.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(nil, os.LookupEnv); err != nil {
		t.Fatal(err)
	}
	err = s.CheckBudgets(func(string) (int64, bool) { return 9, true }, "b.json")
	if err == nil || err.Error() != p+":9: repeat.count: 9 rounds, past the step's max of 4; raise max if the walk is to make that many ({{budget.B.spaces}} in b.json)" {
		t.Errorf("CheckBudgets: %v", err)
	}
	err = s.CheckBudgets(func(string) (int64, bool) { return 0, false }, "b.json")
	if err == nil || err.Error() != p+":9: {{budget.B.spaces}}: b.json has no budget B.spaces; add it, or read a key it has" {
		t.Errorf("CheckBudgets, no key: %v", err)
	}
	_, err = walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	var se *walk.SpecError
	if !errors.As(err, &se) || se.Error() != p+":5: repeat.count: 3 rounds, past the step's max of 2; raise max if the walk is to make that many" {
		t.Errorf("run: %v", err)
	}
	if n := len(srv.Log()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	// With no budget file, the name is undefined where it is read.
	_, err = walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL, Vars: map[string]string{"rounds": "1"}})
	if err == nil || !strings.HasSuffix(err.Error(), ":9: {{budget.B.spaces}}: the run has no budget file that holds B.spaces") {
		t.Errorf("run with no budget file: %v", err)
	}
}

// TestLoopSpecErrors: a repeated use's mistakes, each at its line.
func TestLoopSpecErrors(t *testing.T) {
	for name, tc := range map[string]struct{ repeat, want string }{
		"a literal count past max": {`{ count: 5, max: 4 }`, `:4: setup[0].repeat.count: 5 rounds, past the step's max of 4`},
		"no count":                 {`{ max: 4 }`, `:4: setup[0].repeat: want count`},
		"no max":                   {`{ count: 2 }`, `:4: setup[0].repeat: want max`},
		"pad with no index":        {`{ count: 2, max: 4, pad: 2 }`, `:4: setup[0].repeat: pad is for index`},
		"a while":                  {`{ count: 2, max: 4, while: "{{x}}" }`, `:4: setup[0].repeat: unknown key "while"`},
		"a cycled template":        {`{ count: 2, max: 4, cycle: { c: [a, "{{x}}"] } }`, `:4: setup[0].repeat.cycle.c[1]: a cycled value is fixed`},
		"a count not a number":     {`{ count: two, max: 4 }`, `:4: setup[0].repeat.count: "two" is not a whole number of rounds`},
	} {
		t.Run(name, func(t *testing.T) {
			p := writeSpec(t, "walk: w\nsetup:\n  - use: one.yaml\n    repeat: "+tc.repeat+"\nsteps:\n  - part: p\n    http: GET /\n", oneInclude)
			_, err := walk.Load(p)
			if err == nil || !strings.Contains(err.Error(), p+tc.want) {
				t.Errorf("got %v, want %s%s", err, p, tc.want)
			}
		})
	}
}
