package twin_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// schema is the JSON Schema subset testdata/service-schemas.json is
// written in.
type schema struct {
	Ref        string             `json:"$ref"`
	Type       string             `json:"type"`
	Required   []string           `json:"required"`
	Properties map[string]*schema `json:"properties"`
	Items      *schema            `json:"items"`
	Pattern    string             `json:"pattern"`
	Format     string             `json:"format"`
	AnyOf      []*schema          `json:"anyOf"`
}

type schemaFile struct {
	Definitions map[string]*schema `json:"definitions"`
	Routes      map[string]*schema `json:"routes"`
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// check reports where v breaks s, or "" when it holds.
func (f *schemaFile) check(s *schema, v any, at string) string {
	if s.Ref != "" {
		return f.check(f.Definitions[s.Ref], v, at)
	}
	if len(s.AnyOf) > 0 {
		var why []string
		for _, alt := range s.AnyOf {
			w := f.check(alt, v, at)
			if w == "" {
				return ""
			}
			why = append(why, w)
		}
		return strings.Join(why, "; or ")
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %v is not an object", at, v)
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				return fmt.Sprintf("%s: %s is missing", at, r)
			}
		}
		for k, ps := range s.Properties {
			if pv, ok := m[k]; ok {
				if w := f.check(ps, pv, at+"."+k); w != "" {
					return w
				}
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return fmt.Sprintf("%s: %v is not an array", at, v)
		}
		if s.Items != nil {
			for i, e := range a {
				if w := f.check(s.Items, e, fmt.Sprintf("%s[%d]", at, i)); w != "" {
					return w
				}
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Sprintf("%s: %v is not a string", at, v)
		}
		if s.Pattern != "" && !regexp.MustCompile(s.Pattern).MatchString(str) {
			return fmt.Sprintf("%s: %q does not match %s", at, str, s.Pattern)
		}
		switch s.Format {
		case "uuid":
			if !uuidRE.MatchString(str) {
				return fmt.Sprintf("%s: %q is not a uuid", at, str)
			}
		case "date-time":
			if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
				return fmt.Sprintf("%s: %q is not a date-time", at, str)
			}
		}
	case "integer":
		n, ok := v.(float64)
		if !ok || n != float64(int64(n)) {
			return fmt.Sprintf("%s: %v is not an integer", at, v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%s: %v is not true or false", at, v)
		}
	case "null":
		if v != nil {
			return fmt.Sprintf("%s: %v is not null", at, v)
		}
	}
	return ""
}

func loadSchemas(t *testing.T) *schemaFile {
	b, err := os.ReadFile("testdata/service-schemas.json")
	if err != nil {
		t.Fatal(err)
	}
	var f schemaFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

// TestAnswersMatchTheServiceSchemas holds the twin's answers on the routes
// the walks use to the service's schemas for them.
func TestAnswersMatchTheServiceSchemas(t *testing.T) {
	f := loadSchemas(t)
	srv, _ := apiServer(t)
	seen := map[string]bool{}
	hold := func(route string, a apiAnswer) {
		t.Helper()
		seen[route] = true
		var v any
		if err := json.Unmarshal(a.Body, &v); err != nil {
			t.Fatalf("%s: %v", route, err)
		}
		if w := f.check(f.Routes[route], v, route); w != "" {
			t.Errorf("%s\n  answer: %s", w, a.Body)
		}
	}
	owner := apiLogin(t, srv)
	agent := newAPIKey(t)
	hold("POST /v1/keys/challenge", apiMust(t, srv, 200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": agent.PubHex()}))
	created := apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{"name": "schema-trial", "title": "Trial",
		"visibility": "public", "join_policy": "open", "categories": []string{"general"}, "document": true})
	hold("POST /v1/spaces", created)
	hold("POST /v1/spaces/{name}/posts", apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/posts", owner.Token,
		map[string]any{"kind": "version", "title": "First", "body": "# Trial\n\n## Status\n\nproposed.\n"}))
	hold("POST /v1/spaces/{name}/tasks", apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/tasks", owner.Token, map[string]any{"title": "One"}))
	inv := apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/invites", owner.Token, map[string]any{})
	hold("POST /v1/spaces/{name}/invites", inv)
	hold("POST /v1/keys/verify", agent.login(t, srv, map[string]any{"invite": inv.Get("link").String()}))
	hold("POST /v1/join", apiMust(t, srv, 200, "POST", "/v1/join", agent.Token, map[string]any{"link": inv.Get("link").String()}))
	hold("POST /v1/spaces/{name}/tasks/next", apiMust(t, srv, 200, "POST", "/v1/spaces/schema-trial/tasks/next", agent.Token, nil))
	hold("POST /v1/spaces/{name}/tasks/next", apiMust(t, srv, 200, "POST", "/v1/spaces/schema-trial/tasks/next", owner.Token, nil))
	apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/posts", agent.Token, map[string]any{"kind": "dossier", "title": "State", "body": "cursor 0"})
	hold("GET /v1/me", apiMust(t, srv, 200, "GET", "/v1/me", agent.Token, nil))
	hold("GET /v1/me", apiMust(t, srv, 200, "GET", "/v1/me", owner.Token, nil))
	hold("GET /v1/mailbox", apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", owner.Token, nil))
	hold("GET /v1/mailbox", apiMust(t, srv, 200, "GET", "/v1/mailbox", agent.Token, nil))
	hold("GET /v1/spaces", apiMust(t, srv, 200, "GET", "/v1/spaces?prefix=schema-&counts=true", "", nil))
	// The profile: to its owner, a member, a KEY outside it and no token.
	for _, tok := range []string{owner.Token, agent.Token, newAPIKey(t).login(t, srv, nil).Get("token").String(), ""} {
		hold("GET /v1/spaces/{name}", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial", tok, nil))
	}
	hold("GET /v1/spaces/{name}/members", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/members", owner.Token, nil))
	hold("GET /v1/spaces/{name}/members", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/members?limit=1&role=writer", agent.Token, nil))
	tasks := apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/tasks", agent.Token, nil)
	hold("GET /v1/spaces/{name}/tasks", tasks)
	// A task is the service's jsonb: its keys shortest first, then in byte order.
	if raw := tasks.Get("items.0").Raw; !strings.HasPrefix(raw, `{"tag":`) || !strings.Contains(raw, `"confirmations":{"given":`) {
		t.Errorf("a task's keys in jsonb order: %s", raw)
	}
	// A result on the task, a finding, and SEEK by fingerprint and by words,
	// with a token and with none; a post read whole, by a member and by a
	// reader outside its SPACE.
	res := apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/posts", agent.Token, map[string]any{"kind": "result", "title": "Task 1 done",
		"body": "The trial result, with words to seek.", "task": map[string]int{"number": 1}, "run_id": "00000000-0000-4000-8000-000000000001"})
	hold("POST /v1/spaces/{name}/posts", res)
	hold("POST /v1/spaces/{name}/posts", apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/posts?receipt=full", agent.Token, map[string]any{
		"kind": "finding", "title": "Trial holds", "body": "The words to seek hold.", "data": map[string]any{"claim": "It holds", "status": "proposed",
			"confidence": "medium", "sources": []string{res.Get("post_id").String()}}}))
	hold("GET /v1/seek", apiMust(t, srv, 200, "GET", "/v1/seek?fingerprint=task.reference%3Aschema-trial%2F1", agent.Token, nil))
	hold("GET /v1/seek", apiMust(t, srv, 200, "GET", "/v1/seek?q=words%20seek", "", nil))
	hold("GET /v1/seek", apiMust(t, srv, 200, "GET", "/v1/seek?q=nothing%20here&detail=full", owner.Token, nil))
	hold("GET /v1/posts/{id}", apiMust(t, srv, 200, "GET", "/v1/posts/"+res.Get("post_id").String(), agent.Token, nil))
	hold("GET /v1/posts/{id}", apiMust(t, srv, 200, "GET", "/v1/posts/"+res.Get("post_id").String(), "", nil))
	// What stands: headlines unless asked, each author named once in authors.
	st := apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/standing", agent.Token, nil)
	hold("GET /v1/spaces/{name}/standing", st)
	if by := st.Get("items.0.by").String(); len(by) != 8 || st.Get("authors."+by).String() == "" || st.Get("items.0.body").Exists() {
		t.Errorf("standing at headlines: %s", st.Body)
	}
	hold("GET /v1/spaces/{name}/standing", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/standing?kind=result,finding&detail=full&limit=1", agent.Token, nil))
	hold("GET /v1/posts", apiMust(t, srv, 200, "GET", "/v1/posts?ids="+res.Get("post_id").String()+",00000000-0000-4000-8000-000000000000", agent.Token, nil))
	hold("GET /v1/posts/{id}/finding", apiMust(t, srv, 200, "GET", "/v1/posts/"+res.Get("post_id").String()+"/finding", agent.Token, nil))
	hold("GET /v1/spaces/{name}/findings", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/findings", agent.Token, nil))
	// The document, a writer's proposal waiting, and the versions.
	hold("GET /v1/spaces/{name}/document", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/document", agent.Token, nil))
	current := apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/document", "", nil).Get("version.post_id").String()
	apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/posts", agent.Token, map[string]any{"kind": "version", "title": "Second",
		"body": "# Trial\n\n## Status\n\naccepted.\n", "supersedes": current})
	// One section across documents: a SPACE with it, one not there, one
	// with no such section; and a budget that leaves some out.
	docs := apiMust(t, srv, 200, "GET", "/v1/documents?spaces=schema-trial,no-such-space,schema-trial&section=status", "", nil)
	hold("GET /v1/documents", docs)
	if docs.Get("items.#").Int() != 2 || docs.Get("items.1.reason").String() != "not_found" || !strings.HasPrefix(docs.Get("items.0.text").String(), "## Status") {
		t.Errorf("documents: %s", docs.Body)
	}
	hold("GET /v1/documents", apiMust(t, srv, 200, "GET", "/v1/documents?spaces=schema-trial&section=nothing", agent.Token, nil))
	cut := apiMust(t, srv, 200, "GET", "/v1/documents?spaces=schema-trial,no-such-space&section=status&token_budget=1", agent.Token, nil)
	hold("GET /v1/documents", cut)
	if cut.Get("items.#").Int() != 1 || cut.Get("not_included.0").String() != "no-such-space" || !cut.Get("budget_cut").Bool() {
		t.Errorf("documents cut to the budget: %s", cut.Body)
	}
	hold("GET /v1/spaces/{name}/versions", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/versions?state=pending", owner.Token, nil))
	hold("GET /v1/spaces/{name}/versions", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/versions", owner.Token, nil))
	// The survey's list: a SPACE whose version set a stage, a page at a
	// time, a full page saying there may be more and naming where it ended.
	apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{"name": "schema-staged", "title": "Staged",
		"visibility": "public", "join_policy": "open", "categories": []string{"general"}, "document": true,
		"version": map[string]any{"title": "One", "body": "# Staged\n\n## Status\n\nmerged.\n", "data": map[string]any{"stage": map[string]any{"word": "merged", "note": "Done."}}}})
	first := apiMust(t, srv, 200, "GET", "/v1/spaces?prefix=schema-&counts=true&limit=1", "", nil)
	hold("GET /v1/spaces", first)
	if !first.Get("has_more").Bool() || first.Get("next_after").String() != "schema-staged" || first.Get("items.0.stage.finished").String() != "true" ||
		first.Get("items.0.counts.document.version.seq").String() == "" {
		t.Errorf("the first page: %s", first.Body)
	}
	rest := apiMust(t, srv, 200, "GET", "/v1/spaces?prefix=schema-&counts=true&limit=2&after=schema-staged", "", nil)
	hold("GET /v1/spaces", rest)
	if rest.Get("has_more").Bool() || rest.Get("next_after").Raw != "null" || rest.Get("items.0.name").String() != "schema-trial" {
		t.Errorf("the last page: %s", rest.Body)
	}
	// The categories: a lookup, as the start walks send it, one that finds
	// nothing, and the outline.
	hold("GET /v1/categories", apiMust(t, srv, 200, "GET", "/v1/categories?q=humanities", "", nil))
	hold("GET /v1/categories", apiMust(t, srv, 200, "GET", "/v1/categories?q=zzzz", agent.Token, nil))
	hold("GET /v1/categories", apiMust(t, srv, 200, "GET", "/v1/categories", "", nil))
	// A batch of tasks, one with a key and one with none.
	batch := apiMust(t, srv, 201, "POST", "/v1/spaces/schema-trial/tasks", owner.Token, map[string]any{"tasks": []any{
		map[string]any{"key": "first", "title": "Two"}, map[string]any{"title": "Three", "after": []string{"first"}}}})
	hold("POST /v1/spaces/{name}/tasks", batch)
	if k := batch.Get("tasks.1.key"); !k.Exists() || k.Type != gjson.Null {
		t.Errorf("a task sent with no key answers key null: %s", batch.Body)
	}
	// An app connected as the connector walk connects it: registered, its
	// request approved by a KEY, its code traded for a token.
	reg := apiMust(t, srv, 201, "POST", "/oauth/register", "", map[string]any{"client_name": "Schema app", "redirect_uris": []string{"http://127.0.0.1:9/cb"}})
	hold("POST /oauth/register", reg)
	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	resp, err := apiNoRedirect.Get(srv.URL + "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {reg.Get("client_id").String()},
		"redirect_uri": {"http://127.0.0.1:9/cb"}, "code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {srv.URL + "/mcp/connect"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	ap := apiMust(t, srv, 200, "POST", "/v1/authorizations/"+loc.Query().Get("request")+"/approve", owner.Token, nil)
	hold("POST /v1/authorizations/{id}/approve", ap)
	to, _ := url.Parse(ap.Get("redirect_to").String())
	status, body := tokenForm(t, srv.URL, url.Values{"grant_type": {"authorization_code"}, "code": {to.Query().Get("code")}, "code_verifier": {verifier},
		"redirect_uri": {"http://127.0.0.1:9/cb"}, "client_id": {reg.Get("client_id").String()}, "resource": {srv.URL + "/mcp/connect"}})
	if status != 200 {
		t.Fatalf("token: %d %s", status, body)
	}
	hold("POST /oauth/token", apiAnswer{Body: body})
	// The reads the proposal walks send as they send them: SEEK kept to one
	// SPACE by fingerprint, and the whole task list read back.
	hold("GET /v1/seek", apiMust(t, srv, 200, "GET", "/v1/seek?fingerprint=task.reference%3Aschema-trial%2F1&space=schema-trial&limit=50", owner.Token, nil))
	hold("GET /v1/spaces/{name}/tasks", apiMust(t, srv, 200, "GET", "/v1/spaces/schema-trial/tasks?detail=full&limit=50", owner.Token, nil))
	// A verify whose link does not work, and refusals.
	hold("POST /v1/keys/verify", newAPIKey(t).login(t, srv, map[string]any{"invite": "https://example.org/join/x/y"}))
	for _, a := range []apiAnswer{
		apiDo(t, srv, "GET", "/v1/me", "", nil),
		apiDo(t, srv, "GET", "/v1/nothing", owner.Token, nil),
		apiDo(t, srv, "POST", "/v1/spaces/schema-trial/posts", owner.Token, `{"kind":"result","body":"x"}`),
		apiDo(t, srv, "POST", "/v1/spaces", owner.Token, `{"name":"x y"}`),
	} {
		var v any
		json.Unmarshal(a.Body, &v)
		if w := f.check(f.Definitions["refusal"], v, "refusal"); w != "" || a.Header.Get("X-Request-Id") == "" {
			t.Errorf("%s\n  answer: %s", w, a.Body)
		}
	}
	for route := range f.Routes {
		if !seen[route] {
			t.Errorf("no answer checked for %s", route)
		}
	}
}

// TestSchemaCheckerFails: the checker refuses what breaks a schema, so the
// test above can fail.
func TestSchemaCheckerFails(t *testing.T) {
	f := loadSchemas(t)
	for _, bad := range []string{
		`{"items":[],"next_after":2,"has_more":false,"head_seq":"2","tokens_estimated":0,"notice":""}`,
		`{"items":[{"mailbox_seq":"1"}],"next_after":"2","has_more":false,"head_seq":"2","tokens_estimated":0,"notice":""}`,
		`{"items":[],"has_more":false,"head_seq":"2","tokens_estimated":0,"notice":""}`,
	} {
		var v any
		json.Unmarshal([]byte(bad), &v)
		if f.check(f.Routes["GET /v1/mailbox"], v, "mailbox") == "" {
			t.Errorf("passed: %s", bad)
		}
	}
}
