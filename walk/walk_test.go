package walk_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/walktest"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

// padTimes is the full-width rule written again for the tests, apart from
// package ledger: a database time's fraction padded to six digits.
var timeRe = regexp.MustCompile(`T(\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?([+-]\d\d:\d\d)`)

func padTimes(b []byte) []byte {
	return timeRe.ReplaceAllFunc(b, func(m []byte) []byte {
		g := timeRe.FindSubmatch(m)
		frac := string(g[2]) + strings.Repeat("0", 6-len(g[2]))
		return []byte("T" + string(g[1]) + "." + frac + string(g[3]))
	})
}

// gunzip returns a body as text: gzip undone when the server wrote gzip.
func gunzip(t *testing.T, b []byte) []byte {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func load(t *testing.T, path string) *walk.Spec {
	t.Helper()
	s, err := walk.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(nil, os.LookupEnv); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRunHTTPCountsEveryAnswer(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	s := load(t, "testdata/start.yaml")
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	// The answers the server wrote after the set-up's two, each padded.
	log := srv.Log()
	if len(log) != 9 || log[0].Path != "/v1/keys/challenge" || log[1].Path != "/v1/keys/verify" {
		t.Fatalf("server log: %d answers, first %+v", len(log), log[0])
	}
	names := []string{"the primer", "join with the link", "who you are", "your mailbox", "take the next task", "post the result", "the skill"}
	var want []ledger.Part
	var total int64
	for i, a := range log[2:] {
		n := int64(len(padTimes(gunzip(t, a.Body))))
		want = append(want, ledger.Part{Name: names[i], Bytes: n, Tokens: n / 3})
		total += n
	}
	if diff := cmp.Diff(want, res.Ledger.Parts()); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if res.Ledger.Bytes() != total || res.Ledger.Tokens() != total/3 {
		t.Errorf("total %d bytes %d tokens, want %d, %d", res.Ledger.Bytes(), res.Ledger.Tokens(), total, total/3)
	}
	// The primer's time was padded: 2 more bytes than written.
	if got := res.Ledger.Parts()[0].Bytes; got != int64(len(walktest.Primer))+5 {
		t.Errorf("the primer counted %d bytes, want %d (its time padded)", got, len(walktest.Primer)+5)
	}
	for _, tc := range []struct {
		m           gate.Measure
		want, bytes int64
	}{
		{gate.Measure{Kind: gate.Total}, total / 3, total},
		{gate.Measure{Kind: gate.TotalBytes}, total, total},
		{gate.Measure{Kind: gate.CallCount}, 6, 6},
		{gate.Measure{Kind: gate.Step, Part: "post the result"}, want[5].Bytes, want[5].Bytes},
	} {
		got, n, err := res.Read(tc.m)
		if err != nil || got != tc.want || n != tc.bytes {
			t.Errorf("Read(%s) = %d, %d, %v; want %d, %d", tc.m, got, n, err, tc.want, tc.bytes)
		}
	}
	if _, _, err := res.Read(gate.Measure{Kind: gate.Step, Part: "nope"}); err == nil {
		t.Error("Read of a part the walk lacks: no error")
	}
	// The spec holds its total to FIRST_TASK_TOKENS.start_tasks: one under
	// is over, the total itself holds.
	for _, tc := range []struct {
		budget int64
		want   gate.Status
	}{{total/3 - 1, gate.Over}, {total / 3, gate.OK}} {
		bs := gate.Given{{Name: "FIRST_TASK_TOKENS.start_tasks", Value: tc.budget, File: "b.json", Line: 3}}
		checks, err := res.Checks(bs)
		if err != nil || len(checks) == 0 || checks[0].Status != tc.want || checks[0].Read != total/3 || checks[0].Bytes != total {
			t.Errorf("Checks with a budget of %d = %+v, %v; want the total %s", tc.budget, checks, err, tc.want)
		}
	}
}

func TestRunMCPCountsRawAnswersAndToolList(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	s := load(t, "testdata/connector.yaml")
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	log := srv.Log()
	if len(log) != 5 {
		t.Fatalf("%d answers, want 5", len(log))
	}
	if len(log[1].Body) != 0 {
		t.Fatalf("initialized answered %q", log[1].Body)
	}
	if !bytes.HasPrefix(log[0].Body, []byte("event: message\n")) {
		t.Fatalf("not an event stream: %q", log[0].Body)
	}
	var want []ledger.Part
	// The notification's empty answer is a part of 0 bytes, as the
	// service's ledger lists it.
	names := []string{"the discovery answer", "initialized", "the tool list", "take the next task", "refused"}
	for i, a := range log {
		want = append(want, ledger.Part{Name: names[i], Bytes: int64(len(a.Body)), Tokens: int64(len(a.Body)) / 3})
	}
	if diff := cmp.Diff(want, res.Ledger.Parts()); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if res.Calls != 5 {
		t.Errorf("calls %d, want 5", res.Calls)
	}
	// What a model reads of the list, counted here with encoding/json (the
	// tools hold no character it escapes differently from Node).
	data := log[2].Body[bytes.Index(log[2].Body, []byte("data: "))+6:]
	var modelRead int64
	gjson.GetBytes(data, "result.tools").ForEach(func(_, tool gjson.Result) bool {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}{tool.Get("name").String(), tool.Get("description").String(), json.RawMessage(tool.Get("inputSchema").Raw)})
		modelRead += int64(b.Len() - 1)
		return true
	})
	if modelRead == 0 || res.ToolLists["the tool list"] != modelRead {
		t.Errorf("tool list: %d model-read bytes, want %d", res.ToolLists["the tool list"], modelRead)
	}
	got, n, _ := res.Read(gate.Measure{Kind: gate.ToolList, Part: "the tool list"})
	if got != modelRead/3 || n != modelRead {
		t.Errorf("tool_list measure %d, want %d", got, modelRead/3)
	}
}

func TestRunMCPJSONAnswers(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	dir := t.TempDir()
	spec := filepath.Join(dir, "w.yaml")
	os.WriteFile(spec, []byte(`walk: json
steps:
  - part: list
    mcp: { url: /mcp-json, list: tools }
  - part: call
    mcp: { url: /mcp-json, call: task, args: { action: done } }
    expect: { json: { structuredContent.task.state: done } }
`), 0o666)
	s := load(t, spec)
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	log := srv.Log()
	if res.Ledger.Bytes() != int64(len(log[0].Body)+len(log[1].Body)) || log[0].Body[0] != '{' {
		t.Errorf("counted %d bytes, the server wrote %d (%q...)", res.Ledger.Bytes(), len(log[0].Body)+len(log[1].Body), log[0].Body[:10])
	}
}

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSpecErrorsNameFileAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, spec, want string
	}{
		{"unknown key", "walk: w\nsteps:\n  - part: a\n    http: GET /\n    headerz: {}\n", "w.yaml:5: steps[0]: unknown key \"headerz\""},
		{"two kinds", "walk: w\nsteps:\n  - part: a\n    http: GET /\n    doc: { file: x }\n", "w.yaml:5: steps[0]: a step has one kind, this one has http and doc"},
		{"no kind", "walk: w\nsteps:\n  - part: a\n", "w.yaml:3: steps[0]: a step needs a kind"},
		{"no part", "walk: w\nsteps:\n  - http: GET /\n", "w.yaml:3: steps[0]: a counted step needs a part"},
		{"bad method", "walk: w\nsteps:\n  - part: a\n    http: /x\n", "w.yaml:4: steps[0].http: want \"METHOD /path\""},
		{"unknown method", "walk: w\nsteps:\n  - part: a\n    http: GTE /x\n", "w.yaml:4: steps[0].http: \"GTE\" is not an HTTP method: use GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE"},
		{"bad regex", "walk: w\nsteps:\n  - part: a\n    http: GET /\n    expect: { body: { matches: \"(\" } }\n", "w.yaml:5: steps[0].expect.body.matches: error parsing regexp"},
		{"unclosed", "walk: w\nsteps:\n  - part: a\n    http: GET /{{x\n", "w.yaml:4: steps[0].http: \"GET /{{x\": {{ is not closed by }}"},
		{"query on doc", "walk: w\nsteps:\n  - part: a\n    doc: { file: x }\n    query: { a: b }\n", "w.yaml:5: steps[0]: query is for http steps, this is a doc step"},
		{"bad measure", "walk: w\nbudgets:\n  - { key: A.b, measure: steps }\nsteps:\n  - part: a\n    http: GET /\n", "w.yaml:3: budgets[0].measure: \"steps\": want total"},
		{"measure part missing", "walk: w\nbudgets:\n  - { key: A.b, measure: \"step:nope\" }\nsteps:\n  - part: a\n    http: GET /\n", "w.yaml:3: budgets: A.b: no counted step has part \"nope\"; name the part as a step under steps names it"},
		{"normaliser", "walk: w\nnormalize: [ wide-times ]\nsteps:\n  - part: a\n    http: GET /\n", "w.yaml:2: normalize[0]: unknown normaliser \"wide-times\""},
		{"yaml", "walk: w\nsteps: [\n", "w.yaml:2: not valid YAML"},
		{"empty", "", "w.yaml: empty file; a spec has walk and steps keys"},
		{"alias bomb", "walk: w\nsteps:\n  - part: a\n    http: POST /\n    json:\n      a: &a [xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx,xxxxxxxxxxxxxxxxxxxx]\n      b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n      c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n      d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n      e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n      f: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n", "w.yaml:11: the alias *e takes the spec past 16 MiB with its aliases expanded, the most a spec may hold (an alias bomb?); write the values out, or use fewer aliases"},
		{"alias cycle", "walk: w\nsteps:\n  - part: a\n    http: POST /\n    json: &a\n      x: [1, *a]\n", "w.yaml:6: the alias *a is inside the value it names: it would expand for ever"},
		{"comments only", "# nothing yet\n", "w.yaml: empty file; a spec has walk and steps keys"},
		{"no walk", "steps:\n  - part: a\n    http: GET /\n", "w.yaml:1: walk spec: no walk key"},
		{"include missing", "walk: w\nsteps:\n  - use: nope.yaml\n", "w.yaml:3: steps[0].use: "},
		{"include cycle", "walk: w\nsteps:\n  - use: w.yaml\n", "w.yaml:3: steps[0].use: w.yaml includes itself"},
		{"two bodies", "walk: w\nsteps:\n  - part: a\n    http: POST /\n    json: {}\n    body: x\n", "w.yaml:4: steps[0]: a request has one body"},
		{"control in part", "walk: w\nsteps:\n  - http: GET /\n    part: \"a\\tb\"\n", "w.yaml:4: steps[0].part: \"a\\tb\" holds the control character U+0009"},
		{"mcp two ops", "walk: w\nsteps:\n  - part: a\n    mcp: { url: /mcp, list: tools, call: x }\n", "w.yaml:4: steps[0].mcp: one message a step, this one has list and call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := write(t, dir, "w.yaml", tc.spec)
			_, err := walk.Load(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestIncludeErrorNamesTheIncludedFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "shared/k.yaml", "steps:\n  - key: a\n  - http: GET /\n    bogus: 1\n")
	p := write(t, dir, "w.yaml", "walk: w\nsetup:\n  - use: shared/k\nsteps:\n  - part: a\n    http: GET /\n")
	_, err := walk.Load(p)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "shared/k.yaml")+":4: steps[1]: unknown key \"bogus\"") {
		t.Errorf("got %v", err)
	}
}

func TestCheckFindsUndefinedNamesBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "w.yaml", `walk: w
vars: { a: "{{env.WALK_TEST_NOPE}}" }
steps:
  - part: one
    http: GET /x/{{later}}
    keep: { later: id }
  - part: two
    http: GET /y/{{later}}
    query: { q: "{{nope}}" }
  - part: three
    mcp: { server: missing, list: tools }
  - part: four
    http: GET /z
    headers: { A: b }
    auth: "{{nope2}}"
`)
	s, err := walk.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Check(nil, func(string) (string, bool) { return "", false })
	want := []string{
		"w.yaml:2: {{env.WALK_TEST_NOPE}}: the environment has no WALK_TEST_NOPE",
		"w.yaml:5: {{later}} is not defined",
		"w.yaml:9: {{nope}} is not defined",
		"w.yaml:10: mcp.server: no server \"missing\"",
		"w.yaml:15: {{nope2}} is not defined",
	}
	var se walk.SpecErrors
	if !errors.As(err, &se) || len(se) != len(want) {
		t.Fatalf("got %v", err)
	}
	for i, w := range want {
		if !strings.Contains(se[i].Error(), w) {
			t.Errorf("error %d: %v, want %q", i, se[i], w)
		}
	}
	// --var defines a name; a var's default is then not filled.
	if err := s.Check(map[string]string{"a": "1", "nope": "x"}, func(string) (string, bool) { return "", false }); err == nil || strings.Contains(err.Error(), "WALK_TEST_NOPE") || strings.Contains(err.Error(), "nope}}") {
		t.Errorf("with --var: %v", err)
	}
}

func TestFailureShowsRequestAndAnswerWithTokensRedacted(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "shared"), os.DirFS("testdata/shared")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, steps string
		want        []string
	}{
		{"status", `
  - part: the status
    http: POST /v1/spaces/demo/tasks/next
    auth: "{{token}}"
    json: { token: "{{token}}" }
    expect: { status: 201 }`, []string{"w.yaml:9: step \"the status\": status 200, want 201", "request: POST " + srv.URL + "/v1/spaces/demo/tasks/next", `request body: {"token":"[redacted]"}`, "answer: 200 OK", `answer body: {"task":`}},
		{"keep", `
  - part: the keep
    http: GET /v1/me
    auth: "{{token}}"
    keep: { x: no.such.path }`, []string{"w.yaml:8: step \"the keep\": keep x: no.such.path matches nothing in the answer", `answer body: {"peer_id":`}},
		{"assert", `
  - part: the assert
    http: POST /v1/join
    auth: "{{token}}"
    json: { link: "https://x" }
    expect: { json: { start: start-research } }`, []string{"w.yaml:9: step \"the assert\": start is \"start-tasks\", want \"start-research\""}},
		{"token in answer", `
  - part: again
    http: POST /v1/keys/verify
    json: { public_key: "{{agent.public_key}}" }`, []string{"status 401, want a 2xx status"}},
		{"transport", `
  - part: nowhere
    http: GET http://127.0.0.1:1/x`, []string{"step \"nowhere\": no answer: ", "request: GET http://127.0.0.1:1/x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(t, dir, "w.yaml", "walk: w\nsetup:\n  - use: shared/key.yaml\nsteps:"+tc.steps+"\n")
			s := load(t, p)
			_, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
			var f *walk.Failure
			if !errors.As(err, &f) {
				t.Fatalf("got %v, want a *Failure", err)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("failure:\n%s\nwant it to contain %q", msg, w)
				}
			}
			if strings.Contains(msg, "tok-") {
				t.Errorf("a token is printed:\n%s", msg)
			}
		})
	}
}

func TestRunAllKeepsOrderAndComparesRepeats(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	specs := []*walk.Spec{load(t, "testdata/start.yaml"), load(t, "testdata/connector.yaml")}
	out := walk.RunAll(context.Background(), specs, walk.Options{BaseURL: srv.URL}, 4, 5)
	if len(out) != 2 || out[0].Spec.Name != "start_tasks" || out[1].Spec.Name != "connector" {
		t.Fatalf("outcomes out of order: %+v", out)
	}
	for _, oc := range out {
		if oc.Err != nil || oc.Differ != "" || oc.Runs != 5 {
			t.Errorf("%s: err %v, differ %q, runs %d", oc.Spec.Name, oc.Err, oc.Differ, oc.Runs)
		}
	}
	a, _ := walk.Run(context.Background(), specs[0], walk.Options{BaseURL: srv.URL})
	b, _ := walk.Run(context.Background(), specs[0], walk.Options{BaseURL: srv.URL, Vars: map[string]string{"link": "https://example.test/i/abcdef"}})
	if d := walk.Differ(a, a); d != "" {
		t.Errorf("a run differs from itself: %s", d)
	}
	_ = b // the link is not echoed: the counts stay the same
}

func TestMCPPagesErrorsAndRawMessages(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	dir := t.TempDir()
	p := write(t, dir, "w.yaml", `walk: paged
budgets:
  - { key: TOOL_LIST_TOKENS.paged, measure: "tool_list:list" }
servers:
  paged: { url: /mcp-paged }
steps:
  - part: list
    mcp: list
    expect: { json: { result.tools.#.name: [refuse, task] } }
  - part: no such tool
    mcp: { call: nope }
    expect: { json: { error.code: { exists: true } } }
  - part: ping
    mcp: { method: ping, params: {} }
  - part: raw
    mcp: { raw: '{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"task","arguments":{"action":"next"}}}' }
    expect: { json: { id: r1, structuredContent.task.number: 7 } }
`)
	s := load(t, p)
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	log := srv.Log()
	if len(log) != 5 {
		t.Fatalf("%d answers, want 5 (two pages, three calls)", len(log))
	}
	want := []int64{int64(len(log[0].Body) + len(log[1].Body)), int64(len(log[2].Body)), int64(len(log[3].Body)), int64(len(log[4].Body))}
	for i, part := range res.Ledger.Parts() {
		if part.Bytes != want[i] {
			t.Errorf("%s: %d bytes, want %d", part.Name, part.Bytes, want[i])
		}
	}
	// Both pages are measured: the list read whole is more than either page.
	one := walktest.Start()
	defer one.Close()
	p2 := write(t, dir, "one.yaml", "walk: one\nsteps:\n  - part: list\n    mcp: { url: /mcp-json, list: tools }\n")
	whole, err := walk.Run(context.Background(), load(t, p2), walk.Options{BaseURL: one.URL})
	if err != nil {
		t.Fatal(err)
	}
	if res.ToolLists["list"] != whole.ToolLists["list"] || whole.ToolLists["list"] == 0 {
		t.Errorf("two pages read %d bytes a model reads, one page of both tools %d", res.ToolLists["list"], whole.ToolLists["list"])
	}

	// A JSON-RPC error nobody expected fails the step.
	p3 := write(t, dir, "err.yaml", "walk: err\nsteps:\n  - part: no such tool\n    mcp: { url: /mcp, call: nope }\n")
	_, err = walk.Run(context.Background(), load(t, p3), walk.Options{BaseURL: srv.URL})
	var f *walk.Failure
	if !errors.As(err, &f) || !strings.Contains(f.What, "JSON-RPC error") {
		t.Errorf("got %v", err)
	}
}

func TestGzipAnswersAreCountedAsText(t *testing.T) {
	srv := walktest.Start()
	defer srv.Close()
	dir := t.TempDir()
	p := write(t, dir, "w.yaml", `walk: gz
steps:
  - part: asked by the transport
    http: GET /skills/SKILL.md
  - part: asked by the spec
    http: GET /skills/SKILL.md
    headers: { Accept-Encoding: gzip }
    expect: { body: { prefix: "## Skill" } }
`)
	res, err := walk.Run(context.Background(), load(t, p), walk.Options{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range res.Ledger.Parts() {
		if part.Bytes != int64(len(walktest.Skill)) {
			t.Errorf("%s: %d bytes, want %d", part.Name, part.Bytes, len(walktest.Skill))
		}
	}
	if log := srv.Log(); len(log) != 2 || bytes.Equal(log[1].Body, []byte(walktest.Skill)) {
		t.Errorf("the server did not answer gzip")
	}
}

// A server that hangs, before its headers or in the middle of its body:
// the step fails with the time limit named, and the walk does not wait on.
func TestHangingServerFailsAtTheStepTimeLimit(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall" {
			w.Write([]byte(`{"a":`))
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	dir := t.TempDir()
	for _, tc := range []struct{ path, want string }{
		{"/hang", `step "hang": no answer: the time limit of a step (50ms) ran out`},
		{"/stall", `step "hang": the answer was cut: the time limit of a step (50ms) ran out`},
	} {
		p := write(t, dir, "w.yaml", "walk: w\nsteps:\n  - part: hang\n    http: GET "+tc.path+"\n")
		_, err := walk.Run(context.Background(), load(t, p), walk.Options{BaseURL: srv.URL, Timeout: 50 * time.Millisecond})
		var f *walk.Failure
		if !errors.As(err, &f) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("GET %s: got %v, want a *Failure with %q", tc.path, err, tc.want)
		}
	}
}
