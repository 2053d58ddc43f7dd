package twin

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// proposalTasks are eleven tasks five levels of after deep, as the
// service's proposal fixture is shaped (test/fixtures/proposal-eleven-tasks.json
// at 04daaa44): keys, tags, and after naming earlier keys.
func proposalTasks() []map[string]any {
	after := map[string][]string{"b": {"a"}, "c": {"a"}, "d": {"b", "c"}, "e": {"d"}, "f": {"e"}, "g": {"a"}, "h": {"g"}, "i": {"b"}, "j": {"i"}, "k": {"j"}}
	var out []map[string]any
	for _, k := range strings.Split("abcdefghijk", "") {
		a := after[k]
		if a == nil {
			a = []string{}
		}
		out = append(out, map[string]any{"key": "part-" + k, "tag": "build", "title": "Part " + k, "body": "Build part " + k + ".",
			"after": prefixed(a)})
	}
	return out
}

func prefixed(keys []string) []string {
	out := []string{}
	for _, k := range keys {
		out = append(out, "part-"+k)
	}
	return out
}

// proposalsIndex makes the public SPACE proposals are listed in, owned by
// a KEY of its own, and answers that KEY's peer id.
func proposalsIndex(t *testing.T, base string) string {
	owner, peer := keyToken(t, base)
	if st := httpJSON(t, base, owner, "POST", "/v1/spaces", map[string]any{"name": "proposals", "title": "Proposals for this service",
		"visibility": "public", "join_policy": "open", "categories": []string{"this-service"}}, nil); st != 201 {
		t.Fatalf("proposals: %d", st)
	}
	return peer
}

// opened checks the proposal SPACE holds the eleven tasks in the order
// sent, each after the tasks its keys name, and the index's owner as admin.
func opened(t *testing.T, base, token, name string, made gjson.Result, indexOwner string) {
	t.Helper()
	want := proposalTasks()
	ids := map[string]string{}
	for i, tk := range made.Get("tasks").Array() {
		if tk.Get("key").String() != want[i]["key"] || tk.Get("number").Int() != int64(i+1) || len(tk.Get("task_id").String()) != 36 {
			t.Errorf("task %d: %s", i+1, tk.Raw)
		}
		ids[tk.Get("key").String()] = tk.Get("task_id").String()
	}
	if len(ids) != 11 {
		t.Fatalf("made: %s", made.Raw)
	}
	var list struct {
		Items []struct {
			Number int      `json:"number"`
			After  []string `json:"after"`
		} `json:"items"`
	}
	httpJSON(t, base, token, "GET", "/v1/spaces/"+name+"/tasks?detail=full&limit=50", nil, &list)
	for _, tk := range list.Items {
		var wantIDs []string
		for _, k := range want[tk.Number-1]["after"].([]string) {
			wantIDs = append(wantIDs, ids[k])
		}
		if strings.Join(tk.After, ",") != strings.Join(wantIDs, ",") {
			t.Errorf("task %d waits for %v, want %v", tk.Number, tk.After, wantIDs)
		}
	}
	var sp struct {
		Owner   string `json:"owner"`
		Members int    `json:"member_count"`
	}
	httpJSON(t, base, token, "GET", "/v1/spaces/"+name, nil, &sp)
	if sp.Owner == indexOwner || sp.Members != 1 {
		t.Errorf("the proposer owns its proposal, and the index's owner is a member: %+v", sp)
	}
}

// TestProposeChangeThroughThePrompt: prompts/list names propose_change;
// prompts/get drafts four tool calls, which open the proposal.
func TestProposeChangeThroughThePrompt(t *testing.T) {
	srv := startTwin(t, Options{})
	indexOwner := proposalsIndex(t, srv.URL)
	tok, _ := keyToken(t, srv.URL)
	list := mcpPost(t, srv.URL+"/mcp", tok, rpcBody(1, "prompts/list", map[string]any{}))
	if gjson.GetBytes(list.msg, `result.prompts.#(name=="propose_change").arguments.#`).Int() != 4 {
		t.Fatalf("prompts/list: %s", list.raw)
	}
	got := mcpPost(t, srv.URL+"/mcp", tok, rpcBody(2, "prompts/get", map[string]any{"name": "propose_change",
		"arguments": map[string]string{"problem": "<problem>", "evidence": "<evidence>", "change": "<change>", "slug": "many-spaces-mcp"}}))
	text := gjson.GetBytes(got.msg, "result.messages.0.content.text").String()
	var calls []struct {
		name string
		args map[string]any
	}
	for _, m := range regexp.MustCompile(`(?m)^(\d+)\. (schellingaf_[a-z_]+) (\{.*\})$`).FindAllStringSubmatch(text, -1) {
		var args map[string]any
		if err := json.Unmarshal([]byte(m[3]), &args); err != nil {
			t.Fatalf("call %s: %v", m[1], err)
		}
		calls = append(calls, struct {
			name string
			args map[string]any
		}{m[2], args})
	}
	var names []string
	for _, c := range calls {
		names = append(names, c.name)
	}
	if strings.Join(names, " ") != "schellingaf_seek schellingaf_spaces schellingaf_space_control schellingaf_post" {
		t.Fatalf("drafted: %v\n%s", names, text)
	}
	// Each call's arguments in the order the service drafts them
	// (src/mcp/prompts.ts at c3445f01): a client sends them as drafted.
	wantKeys := []string{
		"fingerprint space limit token_budget",
		"action name",
		"action name title description visibility join_policy categories document members version tasks",
		"space kind title body fingerprints",
	}
	for i, m := range regexp.MustCompile(`(?m)^\d+\. schellingaf_[a-z_]+ (\{.*\})$`).FindAllStringSubmatch(text, -1) {
		if got := strings.Join(topKeys(t, m[1]), " "); i < len(wantKeys) && got != wantKeys[i] {
			t.Errorf("call %d: keys %s, want %s", i+1, got, wantKeys[i])
		}
	}
	if !strings.Contains(text, `"version":{"title":"Version 1: <title>","body":"# <title>\n\n## Problem\n<problem>\n`) {
		t.Errorf("call 3's version is not the document drafted: %s", text)
	}
	if r := callTool(t, srv.URL+"/mcp", tok, calls[0].name, calls[0].args); r.IsError {
		t.Fatalf("seek: %s", r.text())
	}
	profile := callTool(t, srv.URL+"/mcp", tok, calls[1].name, calls[1].args)
	owner := gjson.GetBytes(profile.StructuredContent, "owner").String()
	if owner != indexOwner {
		t.Fatalf("profile owner %q, want %q: %s", owner, indexOwner, profile.StructuredContent)
	}
	create := calls[2].args
	create["members"].([]any)[0].(map[string]any)["peer_id"] = owner
	create["title"], create["description"] = "Many spaces at once", "One read for many spaces."
	create["version"].(map[string]any)["body"] = "# Many spaces at once\n\n## Status\n\nproposed on 2 October 2026.\n"
	create["tasks"] = proposalTasks()
	made := callTool(t, srv.URL+"/mcp", tok, calls[2].name, create)
	if made.IsError {
		t.Fatalf("create: %s", made.text())
	}
	entry := calls[3].args
	entry["title"], entry["body"] = "Proposal: Many spaces at once", "A proposal space: [[proposal-many-spaces-mcp]]."
	if r := callTool(t, srv.URL+"/mcp", tok, calls[3].name, entry); r.IsError {
		t.Fatalf("entry: %s", r.text())
	}
	opened(t, srv.URL, tok, "proposal-many-spaces-mcp", gjson.ParseBytes(made.StructuredContent), indexOwner)
	// A bad slug is refused as invalid params.
	bad := mcpPost(t, srv.URL+"/mcp", tok, rpcBody(3, "prompts/get", map[string]any{"name": "propose_change",
		"arguments": map[string]string{"problem": "p", "evidence": "e", "change": "c", "slug": "Not A Slug"}}))
	if gjson.GetBytes(bad.msg, "error.code").Int() != -32602 {
		t.Errorf("bad slug: %s", bad.raw)
	}
}

// TestProposeChangeOverHTTP runs the routine the reference's
// proposing-a-change section writes, as the service's test reads it: every
// call of steps 1 to 5 that every run makes, its body's … filled.
func TestProposeChangeOverHTTP(t *testing.T) {
	srv := startTwin(t, Options{})
	indexOwner := proposalsIndex(t, srv.URL)
	tok, _ := keyToken(t, srv.URL)
	served, ok := Reference("proposing-a-change")
	if !ok {
		t.Fatal("no proposing-a-change section")
	}
	steps := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(\d)\. (.*)$`).FindAllStringSubmatch(served, -1) {
		steps[m[1]] = m[2]
	}
	callRE := regexp.MustCompile("`(GET|POST) ([^`\\s]+)`(?: with `(\\{[^`]*\\})`)?")
	type call struct{ method, path, json string }
	callsIn := func(n string) []call {
		var kept []string
		for _, s := range regexp.MustCompile(`\. `).Split(steps[n], -1) {
			if !strings.HasPrefix(s, "If ") {
				kept = append(kept, s)
			}
		}
		var out []call
		for _, m := range callRE.FindAllStringSubmatch(strings.Join(kept, ". "), -1) {
			out = append(out, call{m[1], strings.ReplaceAll(m[2], "<slug>", "many-spaces-at-once"), m[3]})
		}
		return out
	}
	var routine []call
	for _, n := range []string{"1", "2", "3", "4", "5"} {
		routine = append(routine, callsIn(n)...)
	}
	if len(routine) != 4 {
		t.Fatalf("the routine takes %d calls: %v", len(routine), routine)
	}
	owner := ""
	body := func(tmpl string, given map[string]any) map[string]any {
		tmpl = strings.NewReplacer("…", "null", "<slug>", "many-spaces-at-once", "<owner>", owner, "<title>", "Many spaces at once").Replace(tmpl)
		var parsed map[string]any
		if err := json.Unmarshal([]byte(tmpl), &parsed); err != nil {
			t.Fatalf("%s: %v", tmpl, err)
		}
		for k, v := range parsed {
			if _, ok := given[k]; v == nil && !ok {
				t.Errorf("the reference leaves %s to fill", k)
			}
		}
		for k, v := range given {
			parsed[k] = v
		}
		return parsed
	}
	if st := httpJSON(t, srv.URL, tok, routine[0].method, routine[0].path, nil, nil); st != 200 {
		t.Fatalf("seek: %d", st)
	}
	var profile map[string]any
	httpJSON(t, srv.URL, tok, routine[1].method, routine[1].path, nil, &profile)
	owner, _ = profile["owner"].(string)
	if owner != indexOwner {
		t.Fatalf("profile: %v", profile)
	}
	version := body(regexp.MustCompile("`(\\{\"title\":\"Version 1[^`]*\\})`").FindStringSubmatch(steps["3"])[1],
		map[string]any{"body": "# Many spaces at once\n\n## Status\n\nproposed.\n"})
	var made json.RawMessage
	if st := httpJSON(t, srv.URL, tok, routine[2].method, routine[2].path, body(routine[2].json, map[string]any{
		"title": "Many spaces at once", "description": "One read for many spaces.", "version": version, "tasks": proposalTasks()}), &made); st != 201 {
		t.Fatalf("create: %d %s", st, made)
	}
	var entry json.RawMessage
	if st := httpJSON(t, srv.URL, tok, routine[3].method, routine[3].path, body(routine[3].json, map[string]any{"body": "A proposal space."}), &entry); st != 201 {
		t.Fatalf("entry: %d %s", st, entry)
	}
	opened(t, srv.URL, tok, "proposal-many-spaces-at-once", gjson.ParseBytes(made), indexOwner)
}

// TestPromptsRefuseJunk: an unknown prompt, missing or odd arguments are
// JSON-RPC errors, never a failed answer.
func TestPromptsRefuseJunk(t *testing.T) {
	srv := startTwin(t, Options{})
	tok, _ := keyToken(t, srv.URL)
	for i, params := range []any{
		map[string]any{"name": "nothing"},
		map[string]any{"name": "propose_change"},
		map[string]any{"name": "propose_change", "arguments": map[string]any{"slug": "../x"}},
		map[string]any{"name": "propose_change", "arguments": map[string]any{"slug": strings.Repeat("a", 200)}},
		map[string]any{"name": nil},
		"x",
	} {
		r := mcpPost(t, srv.URL+"/mcp", tok, rpcBody(10+i, "prompts/get", params))
		if r.status >= 500 || !gjson.GetBytes(r.msg, "error.code").Exists() {
			t.Errorf("%v: %d %s", params, r.status, r.raw)
		}
	}
}

// topKeys returns the keys of the JSON object raw, in order.
func topKeys(t *testing.T, raw string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
