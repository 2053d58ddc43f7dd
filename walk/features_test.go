package walk_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/walktest"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

// TestRepeatTogetherPrompt runs a walk that pages while the answer says
// there is more, sends three requests at once, and reads an MCP prompt:
// every page is its own part under the step's name, the requests sent
// together meet on the server (one sent after the other would not), each
// is counted under its own part in the order written, MCP ids follow that
// order, and the prompt is prompts/get with the arguments as written.
func TestRepeatTogetherPrompt(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	s := load(t, "testdata/features.yaml")
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	log := srv.Log()
	var names []string
	for _, p := range res.Ledger.Parts() {
		names = append(names, p.Name)
	}
	want := "a page,a page,a page,one,the next task,two,the prompt"
	if got := strings.Join(names, ","); got != want {
		t.Fatalf("parts %s, want %s", got, want)
	}
	if res.Calls != 7 {
		t.Errorf("%d calls, want 7", res.Calls)
	}
	var pages []string
	for _, a := range log {
		if a.Path == "/pages" {
			pages = append(pages, gjson.GetBytes(a.Body, "next_after").String())
		}
	}
	if strings.Join(pages, ",") != "2,4,6" {
		t.Errorf("pages ended at %v, want 2,4,6", pages)
	}
	// Each part is the bytes of its own answer, whatever order they came in.
	parts := res.Ledger.Parts()
	for _, a := range log {
		if a.Path != "/meet" {
			continue
		}
		who := gjson.GetBytes(a.Body, "who").String()
		for _, p := range parts {
			if p.Name == who && p.Bytes != int64(len(a.Body)) {
				t.Errorf("part %s: %d bytes, its answer %d", who, p.Bytes, len(a.Body))
			}
		}
	}
	// The call sent together took id 1, the prompt after it id 2.
	var ids []string
	for _, a := range log {
		if a.Path == "/mcp" {
			body := string(a.Body)
			if i := strings.Index(body, "data: "); i >= 0 {
				body = body[i+6:]
			}
			ids = append(ids, gjson.Get(body, "id").Raw)
		}
	}
	if strings.Join(ids, ",") != "1,2" {
		t.Errorf("MCP ids %v, want 1,2", ids)
	}
}

// TestRepeatStopsAtMax fails a walk whose condition still holds after its
// max runs, naming the repeat's line.
func TestRepeatStopsAtMax(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	s := load(t, "testdata/features.yaml")
	s.Steps[0].Repeat.Max = 2
	s.Steps = s.Steps[:1]
	_, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err == nil || !strings.Contains(err.Error(), `features.yaml:11: step "a page": repeat: "true" still says there is more after 2 runs, its max`) {
		t.Fatalf("err = %v", err)
	}
}

// TestIncludeAsPrefixesTogetherSteps loads an include used with as whose
// together step keeps a value: the value lives under the include's name,
// like every other value it keeps, for the walk's later steps.
func TestIncludeAsPrefixesTogetherSteps(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "shared/pair.yaml", `steps:
  - together:
      - part: one
        http: GET /one
        keep: { id: id }
      - part: two
        http: GET /two
  - part: three
    http: GET /three/{{id}}
`)
	p := write(t, dir, "w.yaml", `walk: w
steps:
  - use: { file: shared/pair, as: first }
  - part: four
    http: GET /four/{{first.id}}
`)
	s, err := walk.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(nil, func(string) (string, bool) { return "", false }); err != nil {
		t.Fatal(err)
	}
	three := s.Steps[1].Action.(*walk.HTTPRequest)
	if three.URL != "/three/{{first.id}}" {
		t.Errorf("the include's own use of its value: %s, want /three/{{first.id}}", three.URL)
	}
}

// TestTitleOfAStepWithNoAction names a step rebuilt from a report (walks
// merge gives it a part at most) without reaching for its kind.
func TestTitleOfAStepWithNoAction(t *testing.T) {
	for _, c := range []struct {
		st   *walk.Step
		want string
	}{{&walk.Step{Part: "the tool list"}, "the tool list"}, {&walk.Step{}, "step"}} {
		if got := c.st.Title(); got != c.want {
			t.Errorf("Title() = %q, want %q", got, c.want)
		}
	}
}

// TestItemsAndShared holds two measures of a paged read: items:<part>
// counts the entries of every page's items (three pages of two), and a
// part declared shared is counted but not compared between runs.
func TestItemsAndShared(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	s := load(t, "testdata/features.yaml")
	s.Steps = s.Steps[:1]
	m, ok := gate.ParseMeasure("items:a page")
	if !ok {
		t.Fatal("items:a page is not a measure")
	}
	s.Measures = append(s.Measures, walk.Measure{Key: "SURVEY.spaces", Measure: m})
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if n, _, err := res.Read(m); err != nil || n != 6 {
		t.Errorf("items:a page read %d (%v), want 6", n, err)
	}
	if m.Unit() != gate.Items {
		t.Errorf("unit %s, want items", m.Unit())
	}
	other := *res
	other.Items = map[string]int64{"a page": 5}
	if d := walk.Differ(res, &other); !strings.Contains(d, "5 items, first run 6") {
		t.Errorf("a run with another item count: Differ says %q", d)
	}
	if _, ok := gate.ParseMeasure("items:"); ok {
		t.Error("items with no part is a measure")
	}

	shared := *s
	shared.Steps = []*walk.Step{}
	for _, st := range s.Steps {
		c := *st
		c.Shared = true
		shared.Steps = append(shared.Steps, &c)
	}
	a, err := walk.Run(context.Background(), &shared, walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	parts := a.Ledger.Parts()
	if len(parts) != 3 || !parts[0].Shared {
		t.Fatalf("parts %+v, want three shared", parts)
	}
	b := ledger.New("features")
	for _, p := range parts {
		b.AddShared(p.Name, []byte(strings.Repeat("x", int(p.Bytes)+1)))
	}
	if d := walk.Differ(a, &walk.Result{Spec: a.Spec, Ledger: b, Calls: a.Calls, Items: a.Items}); d != "" {
		t.Errorf("shared parts of other sizes: Differ says %q, want nothing", d)
	}
	if d := walk.Differ(res, &walk.Result{Spec: res.Spec, Ledger: b, Calls: res.Calls, Items: res.Items}); d != "" {
		t.Errorf("a part shared in one run: Differ says %q, want nothing", d)
	}
}

// TestSharedIsForCountedRequests refuses shared on a set-up step and on a
// step that is no request.
func TestSharedIsForCountedRequests(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"walk: w\nsetup:\n  - http: GET /x\n    shared: true\nsteps:\n  - part: p\n    http: GET /y\n", "shared is for a counted step"},
		{"walk: w\nsteps:\n  - part: p\n    doc: { file: x.md }\n    shared: true\n", "shared is for http and mcp steps"},
	} {
		path := filepath.Join(t.TempDir(), "w.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := walk.Load(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.yaml, err, tc.want)
		}
	}
}
