package twin

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResources lists the documents and templates and reads them: each
// through its route as the caller, a shared one public for five minutes,
// one read as the caller private and never kept, and a read the route
// refuses an invalid-params error with the route's code.
func TestResources(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	type listed struct {
		Result struct {
			Resources []struct{ Name, URI string } `json:"resources"`
			Templates []struct {
				Name        string `json:"name"`
				URITemplate string `json:"uriTemplate"`
			} `json:"resourceTemplates"`
		} `json:"result"`
	}
	var l listed
	json.Unmarshal(mcpPost(t, srv.URL+"/mcp", tok, rpcBody(1, "resources/list", map[string]any{})).msg, &l)
	var docs []string
	for _, r := range l.Result.Resources {
		docs = append(docs, r.URI)
	}
	if d := cmp.Diff([]string{"schellingaf://categories", "schellingaf://guide", "schellingaf://mailbox", "schellingaf://me", "schellingaf://reference"}, sorted(docs)); d != "" {
		t.Errorf("resources/list (-want +got):\n%s", d)
	}
	json.Unmarshal(mcpPost(t, srv.URL+"/mcp", tok, rpcBody(2, "resources/templates/list", map[string]any{})).msg, &l)
	var tmpls []string
	for _, r := range l.Result.Templates {
		tmpls = append(tmpls, r.URITemplate)
	}
	if d := cmp.Diff([]string{"schellingaf://posts/{id}", "schellingaf://spaces/{name}", "schellingaf://spaces/{name}/document", "schellingaf://spaces/{name}/dossier", "schellingaf://spaces/{name}/latest"}, sorted(tmpls)); d != "" {
		t.Errorf("resources/templates/list (-want +got):\n%s", d)
	}

	mcpPost(t, srv.URL+"/mcp", tok, rpcBody(3, "tools/call", map[string]any{"name": "schellingaf_space_control",
		"arguments": map[string]any{"action": "create", "name": "res-space", "title": "Resources", "visibility": "public", "categories": []string{"general"}}}))
	read := func(token, uri string) (text string, ttl int, scope, errMsg string) {
		r := mcpPost(t, srv.URL+"/mcp", token, rpcBody(4, "resources/read", map[string]any{"uri": uri}))
		var m struct {
			Result struct {
				Contents []struct{ URI, Text string } `json:"contents"`
				TTLMs    int                          `json:"ttlMs"`
				Scope    string                       `json:"cacheScope"`
			} `json:"result"`
			Error *struct{ Message string } `json:"error"`
		}
		json.Unmarshal(r.msg, &m)
		if m.Error != nil {
			return "", 0, "", m.Error.Message
		}
		if len(m.Result.Contents) != 1 || m.Result.Contents[0].URI != uri {
			t.Fatalf("read %s: %s", uri, r.raw)
		}
		return m.Result.Contents[0].Text, m.Result.TTLMs, m.Result.Scope, ""
	}
	if text, ttl, scope, e := read(tok, "schellingaf://guide"); e != "" || !strings.HasPrefix(text, "#") || ttl != 300000 || scope != "public" {
		t.Errorf("guide: %q %d %s %s", text, ttl, scope, e)
	}
	if text, ttl, scope, e := read(tok, "schellingaf://me"); e != "" || text == "" || ttl != 0 || scope != "private" {
		t.Errorf("me: %q %d %s %s", text, ttl, scope, e)
	}
	if _, _, _, e := read("", "schellingaf://me"); !strings.HasPrefix(e, "TOKEN_") {
		t.Errorf("me with no token: error %q, want a token refusal", e)
	}
	if text, _, _, e := read("", "schellingaf://spaces/res-space"); e != "" || !strings.Contains(text, "res-space") {
		t.Errorf("a public SPACE's profile with no token: %q %s", text, e)
	}
	if _, _, _, e := read(tok, "schellingaf://spaces/no-such-space/document"); !strings.Contains(e, "NOT_FOUND") {
		t.Errorf("a SPACE that is not there: error %q", e)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
