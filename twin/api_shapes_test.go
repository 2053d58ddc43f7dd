package twin_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestServiceShapes sends the requests in the shapes the service's own
// first-task test sends them (specs/schellingaf follows it): a space with
// document true, an open join policy and categories; the document's
// versions as posts of kind version; a proposal decided by reply_to;
// {scheme, value} fingerprints, data and idempotency keys on posts.
func TestServiceShapes(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	sp := apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{
		"name": "trial-shapes", "title": "First task trial", "description": "A trial.", "visibility": "public",
		"join_policy": "open", "categories": []string{"humanities"}, "document": true})
	if !sp.Get("document").Bool() || sp.Get("join_policy").String() != "open" || sp.Get("categories.0").String() != "humanities" ||
		len(sp.Get("space_id").String()) != 36 || sp.Get("revision").String() != "1" {
		t.Errorf("space: %s", sp.Body)
	}
	base := "/v1/spaces/trial-shapes"
	apiMust(t, srv, 409, "GET", base+"/document", owner.Token, nil)
	v1 := apiMust(t, srv, 201, "POST", base+"/posts", owner.Token, map[string]any{
		"kind": "version", "body": "# First task trial\n\n## How to work here\n", "idempotency_key": "doc-1"})
	if v1.Get("post_id").String() == "" || v1.Get("id").Exists() || v1.Get("oracle").Raw != `{"state":"current"}` {
		t.Errorf("first version: %s", v1.Body)
	}
	// A repeat answers 200 with the same post, replayed, as the service does.
	again := apiMust(t, srv, 200, "POST", base+"/posts", owner.Token, map[string]any{
		"kind": "version", "body": "something else", "idempotency_key": "doc-1"})
	if string(again.Body) != strings.Replace(string(v1.Body), `"replayed":false`, `"replayed":true`, 1) {
		t.Errorf("a repeat with the same idempotency_key: %s, want %s", again.Body, v1.Body)
	}
	doc := apiMust(t, srv, 200, "GET", base+"/document", owner.Token, nil)
	if doc.Get("version.seq").String() != "1" || doc.Get("version.post_id").String() != v1.Get("post_id").String() ||
		doc.Get("sections.1.id").String() != "how-to-work-here" || !doc.Get("deciders.you").Bool() {
		t.Errorf("document: %s", doc.Body)
	}
	apiMust(t, srv, 201, "POST", base+"/tasks", owner.Token, map[string]any{"title": "Check rows 1 to 5", "body": "Read them.", "tag": "transcribe"})

	// Another KEY writes to the open space without joining first, with the
	// service's fingerprints and data.
	agent := apiLogin(t, srv)
	apiMust(t, srv, 200, "POST", base+"/tasks/next", agent.Token, map[string]any{})
	res := apiMust(t, srv, 201, "POST", base+"/posts?receipt=full", agent.Token, map[string]any{
		"kind": "result", "title": "Rows checked", "body": "Rows 1 to 5 read as written.",
		"data":         map[string]any{"sources": []string{v1.Get("post_id").String()}},
		"fingerprints": []map[string]string{{"scheme": "task.reference", "value": "trial-shapes/1"}},
		"run_id":       "00000000-0000-4000-8000-000000000001", "idempotency_key": "result-1", "task": map[string]int{"number": 1}})
	if res.Get("task.state").String() != "done" {
		t.Errorf("result: %s", res.Body)
	}
	canon, err := base64.RawURLEncoding.DecodeString(res.Get("receipt.canonical").String())
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	json.Unmarshal(canon, &c)
	if fps, _ := json.Marshal(c["fingerprints"]); string(fps) != `["task.reference:trial-shapes/1"]` {
		t.Errorf("fingerprints kept as %s, want the task's once, as scheme:value", fps)
	}
	if d, _ := json.Marshal(c["data"]); !strings.Contains(string(d), v1.Get("post_id").String()) {
		t.Errorf("data in the canonical JSON: %s", d)
	}
	hits := apiMust(t, srv, 200, "GET", "/v1/seek?fingerprint="+q("task.reference:trial-shapes/1"), agent.Token, nil)
	if hits.Get("items.#").Int() != 1 || hits.Get("items.0.post_id").String() != res.Get("post_id").String() {
		t.Errorf("seek: %s", hits.Body)
	}
	apiMust(t, srv, 400, "POST", base+"/posts", agent.Token, map[string]any{"kind": "obs", "body": "x", "fingerprints": []any{map[string]any{"scheme": "s"}}})
	apiMust(t, srv, 400, "POST", base+"/posts", agent.Token, map[string]any{"kind": "obs", "body": "x", "data": []int{1}})

	// A writer proposes a version superseding the current one; the owner
	// sees it pending, by its post id, and decides it by reply_to.
	prop := apiMust(t, srv, 201, "POST", base+"/posts", agent.Token, map[string]any{
		"kind": "version", "body": "# First task trial\n\nv2\n", "supersedes": v1.Get("post_id").String()})
	if prop.Get("oracle").Raw != `{"state":"pending","waits_for":{"decision":["owner","admin","coordinator"]}}` {
		t.Errorf("proposal: %s", prop.Body)
	}
	pending := apiMust(t, srv, 200, "GET", base+"/versions?state=pending", owner.Token, nil)
	if pending.Get("items.#").Int() != 1 || pending.Get("items.0.post_id").String() != prop.Get("post_id").String() {
		t.Errorf("pending: %s", pending.Body)
	}
	apiMust(t, srv, 409, "POST", base+"/posts", agent.Token, map[string]any{"kind": "version", "body": "v3", "supersedes": prop.Get("post_id").String()})
	apiMust(t, srv, 422, "POST", base+"/posts", owner.Token, map[string]any{"kind": "go", "reply_to": res.Get("post_id").String()})
	goPost := apiMust(t, srv, 201, "POST", base+"/posts", owner.Token, map[string]any{"kind": "go", "reply_to": prop.Get("post_id").String(), "body": "Clearer."})
	if goPost.Get("oracle.decided").String() != "approved" || goPost.Get("oracle.version").String() != prop.Get("post_id").String() {
		t.Errorf("go: %s", goPost.Body)
	}
	if d := apiMust(t, srv, 200, "GET", base+"/document", agent.Token, nil); d.Get("version.post_id").String() != prop.Get("post_id").String() ||
		d.Get("version.decided_by.post_id").String() != goPost.Get("post_id").String() {
		t.Errorf("document after go: %s", d.Body)
	}

	// An invite-only public space still refuses a stranger's post.
	apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{"name": "closed-shapes", "visibility": "public"})
	apiMust(t, srv, 403, "POST", "/v1/spaces/closed-shapes/posts", agent.Token, map[string]any{"kind": "obs", "body": "x"})
	apiMust(t, srv, 400, "POST", "/v1/spaces", owner.Token, map[string]any{"visibility": "private", "join_policy": "open"})
	apiMust(t, srv, 400, "POST", "/v1/spaces", owner.Token, map[string]any{"categories": []string{"no-such"}})
}

// TestPendingVersionWaitsFor holds the answer to a version that waits to
// the service's shape since its document decisions: the state and what it
// waits for, the deciders' roles always, and the confirmations (none given
// yet, and how many are required) where the SPACE asks writers to confirm
// and the version sets no stage. The versions list says the same.
func TestPendingVersionWaitsFor(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	writer := apiLogin(t, srv)
	for _, tc := range []struct {
		name          string
		confirmations int
		data          any
		want          string
	}{
		{"waits-deciders", 0, nil, `{"state":"pending","waits_for":{"decision":["owner","admin","coordinator"]}}`},
		{"waits-two", 2, nil, `{"state":"pending","waits_for":{"decision":["owner","admin","coordinator"],"confirmations":{"given":[],"required":2}}}`},
		{"waits-stage", 2, map[string]any{"stage": map[string]any{"word": "accepted"}}, `{"state":"pending","waits_for":{"decision":["owner","admin","coordinator"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := "/v1/spaces/" + tc.name
			apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{
				"name": tc.name, "visibility": "public", "join_policy": "open", "document": true, "document_confirmations": tc.confirmations})
			v1 := apiMust(t, srv, 201, "POST", base+"/posts", owner.Token, map[string]any{"kind": "version", "body": "# One\n"})
			body := map[string]any{"kind": "version", "body": "# One\n\nTwo.\n", "supersedes": v1.Get("post_id").String()}
			if tc.data != nil {
				body["data"] = tc.data
			}
			prop := apiMust(t, srv, 201, "POST", base+"/posts", writer.Token, body)
			if got := prop.Get("oracle").Raw; got != tc.want {
				t.Errorf("oracle = %s, want %s", got, tc.want)
			}
			listed := apiMust(t, srv, 200, "GET", base+"/versions?state=pending", owner.Token, nil)
			if got, want := listed.Get("items.0.waits_for").Raw, gjson.Get(tc.want, "waits_for").Raw; got != want {
				t.Errorf("versions list waits_for = %s, want %s", got, want)
			}
		})
	}
	for _, bad := range []map[string]any{
		{"name": "waits-six", "document": true, "document_confirmations": 6},
		{"name": "waits-minus", "document": true, "document_confirmations": -1},
		{"name": "waits-nodoc", "document_confirmations": 1},
	} {
		apiMust(t, srv, 400, "POST", "/v1/spaces", owner.Token, bad)
	}
}
