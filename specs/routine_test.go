package specs_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
)

// runRoutine runs hooks/routine.mjs with args in the spec folder and
// returns its output, its standard error and its exit code.
func runRoutine(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command("node", append([]string{"hooks/routine.mjs"}, args...)...)
	cmd.Dir = specDir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// TestRoutineFollowsTheServedRoutine serves the twin's proposing-a-change
// section, then changed copies of it, to the script proposal_http.yaml
// reads its calls with: a changed template changes the body the walk
// sends, and a routine the walk's steps cannot follow fails with one line
// naming the step.
func TestRoutineFollowsTheServedRoutine(t *testing.T) {
	res, err := http.Get(startTwin(t) + "/reference?section=proposing-a-change")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	section := string(raw)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the twin's proposing-a-change section: %d %s", res.StatusCode, section)
	}
	serve := func(text string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/reference" || r.URL.Query().Get("section") != "proposing-a-change" || r.Header.Get("Accept") != "" {
				http.Error(w, "not this", http.StatusNotFound)
				return
			}
			w.Write([]byte(text))
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	const methods = "GET,GET,POST,POST"

	out, stderr, code := runRoutine(t, "read", serve(section), methods)
	var r struct {
		Calls   int
		Create  struct{ Method, Path, JSON string }
		Entry   struct{ Method, Path, JSON string }
		Version string
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Calls != 4 || r.Create.Path != "/v1/spaces" || r.Entry.Path != "/v1/spaces/proposals/posts" {
		t.Fatalf("the twin's routine: exit %d %s %s", code, out, stderr)
	}

	// The entry's template changed: the body the walk sends changes with it.
	changed := strings.Replace(section, `{"kind":"obs","title":"Proposal: <title>"`, `{"kind":"note","title":"Proposal: <title>"`, 1)
	out, stderr, code = runRoutine(t, "read", serve(changed), methods)
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("a changed entry: exit %d %s %s", code, out, stderr)
	}
	body, stderr, code := runRoutine(t, "entry", r.Entry.JSON, "a-slug", "shared/proposal-eleven-tasks.json")
	if code != 0 || !strings.HasPrefix(body, `{"kind":"note","title":"Proposal: `) || !strings.Contains(body, `{"scheme":"subject","value":"a-slug"}`) {
		t.Errorf("the entry from a changed template: exit %d %s %s", code, body, stderr)
	}

	for _, tc := range []struct{ name, text, want string }{
		{"no create body", strings.Replace(section, "`POST /v1/spaces` with `", "`POST /v1/spaces` and `", 1), "step 2"},
		{"a fifth call", strings.Replace(section, "4. Each task is", "4. Read it back with `GET /v1/spaces/proposal-<slug>`. Each task is", 1), "5 calls"},
		{"another method", strings.Replace(section, "`POST /v1/spaces/proposals/posts`", "`PUT /v1/spaces/proposals/posts`", 1), "GET,GET,POST,PUT"},
		{"no step 5", section[:strings.Index(section, "5. List it")], "step 5"},
	} {
		if tc.text == section {
			t.Fatalf("%s: the change left the section as it was", tc.name)
		}
		_, stderr, code := runRoutine(t, "read", serve(tc.text), methods)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q, want 1 and one line naming %q", tc.name, code, stderr, tc.want)
		}
	}
	// The connector's routine: the calls a drafted text names, filled.
	draft := strings.Join([]string{
		"Words before the calls.",
		`1. schellingaf_seek {"fingerprint":["subject:proposal"],"space":"proposals"}`,
		`2. schellingaf_spaces {"action":"get","name":"proposals"}`,
		"   A note under a call.",
		`3. schellingaf_space_control {"action":"create","name":"proposal-a-slug","title":"<title>","members":[{"peer_id":"<owner>","role":"admin"}],"version":{"title":"Version 1: <title>","body":"<text>"},"tasks":[]}`,
		`4. schellingaf_post {"space":"proposals","kind":"note","title":"Proposal: <title>","body":"<text>"}`,
	}, "\n")
	out, stderr, code = runRoutine(t, "draft", draft)
	var d struct {
		Create, Entry struct {
			Name string
			Args json.RawMessage
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || d.Create.Name != "schellingaf_space_control" {
		t.Fatalf("a draft of four calls: exit %d %s %s", code, out, stderr)
	}
	body, stderr, code = runRoutine(t, "draft-create", string(d.Create.Args), "ab12", "shared/proposal-eleven-tasks.json")
	if code != 0 || !strings.HasPrefix(body, `{"action":"create","name":"proposal-a-slug","title":"`) || !strings.Contains(body, `"members":[{"peer_id":"ab12","role":"admin"}]`) {
		t.Errorf("call 3 filled: exit %d %s %s", code, body, stderr)
	}
	body, stderr, code = runRoutine(t, "draft-entry", string(d.Entry.Args), "shared/proposal-eleven-tasks.json")
	if code != 0 || !strings.HasPrefix(body, `{"space":"proposals","kind":"note","title":"Proposal: `) {
		t.Errorf("call 4 filled, as drafted: exit %d %s %s", code, body, stderr)
	}
	three := strings.Replace(draft, "2. schellingaf_spaces", "   schellingaf_spaces", 1)
	if _, stderr, code := runRoutine(t, "draft", three); code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "drafts 3 calls") {
		t.Errorf("a draft of three calls: exit %d %q", code, stderr)
	}

	// A template that leaves a field to fill that nothing fills.
	_, stderr, code = runRoutine(t, "entry", `{"kind":"obs","title":…,"body":…}`, "a-slug", "shared/proposal-eleven-tasks.json")
	if code != 1 || !strings.Contains(stderr, "leaves title to fill") {
		t.Errorf("an unfilled field: exit %d %q", code, stderr)
	}
}
