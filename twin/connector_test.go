package twin

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"
	"github.com/tidwall/gjson"
)

var updateCaptures = flag.Bool("update", false, "rewrite captures/twin from what the twin serves")

// startTwin starts a twin on a loopback port.
func startTwin(t *testing.T, opts Options) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(New(opts))
	t.Cleanup(srv.Close)
	return srv
}

// httpJSON sends one HTTP API request and decodes a JSON answer into out.
func httpJSON(t *testing.T, base, token, method, path string, body any, out any) int {
	t.Helper()
	body = FillDefaults(method, path, body)
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode
}

// keyToken makes a KEY and gets its token through the challenge and
// verify routes, signing the exact pre-image.
func keyToken(t *testing.T, base string) (token, peer string) {
	t.Helper()
	pub, priv, _ := ed25519.GenerateKey(nil)
	var ch struct {
		PeerID    string `json:"peer_id"`
		Challenge string `json:"challenge"`
		Audience  string `json:"audience"`
	}
	if st := httpJSON(t, base, "", "POST", "/v1/keys/challenge", map[string]string{"public_key": hex.EncodeToString(pub)}, &ch); st != 200 && st != 201 {
		t.Fatalf("challenge: %d", st)
	}
	cb, err := hex.DecodeString(ch.Challenge)
	if err != nil {
		t.Fatal(err)
	}
	msg := append([]byte("agent-state:token-challenge:v1\x00"+ch.Audience+"\x00"), cb...)
	var v struct {
		PeerID string `json:"peer_id"`
		Token  string `json:"token"`
	}
	st := httpJSON(t, base, "", "POST", "/v1/keys/verify", map[string]string{
		"public_key": hex.EncodeToString(pub), "challenge": ch.Challenge,
		"signature": hex.EncodeToString(ed25519.Sign(priv, msg)),
	}, &v)
	if st != 200 && st != 201 || v.Token == "" {
		t.Fatalf("verify: %d %+v", st, v)
	}
	return v.Token, v.PeerID
}

// rpc is one connector exchange.
type rpc struct {
	status int
	header http.Header
	raw    []byte          // the body as received
	msg    json.RawMessage // the JSON-RPC message, from JSON or the event stream
}

// post sends a JSON-RPC body to a connector address.
func mcpPost(t *testing.T, url, token, body string, hdr ...string) rpc {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := rpc{status: resp.StatusCode, header: resp.Header, raw: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.TrimSpace(d) != "" {
				r.msg = json.RawMessage(d)
				break
			}
		}
	} else {
		r.msg = raw
	}
	return r
}

func rpcBody(id int, method string, params any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return string(b)
}

func initBody(version string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"readmeter-test","version":"0"}}}`
}

// listTools returns the tool names and the result of tools/list.
func listTools(t *testing.T, url, token string) ([]string, map[string]json.RawMessage) {
	t.Helper()
	r := mcpPost(t, url, token, rpcBody(2, "tools/list", map[string]any{}))
	if r.status != 200 {
		t.Fatalf("%s: tools/list: %d %s", url, r.status, r.raw)
	}
	var m struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(r.msg, &m); err != nil || m.Result == nil {
		t.Fatalf("%s: tools/list: %s", url, r.raw)
	}
	var tools []struct {
		Name string `json:"name"`
	}
	json.Unmarshal(m.Result["tools"], &tools)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	return names, m.Result
}

// toolResult is a tools/call result.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// callTool calls a tool and returns its result; a JSON-RPC error fails,
// and so does structuredContent that its tool's output schema refuses.
func callTool(t *testing.T, url, token, name string, args any) toolResult {
	t.Helper()
	res := callToolRaw(t, url, token, name, args)
	if out := theWords.tools[name].OutputSchema; out != nil && !res.IsError {
		var sc argSchema
		json.Unmarshal(out, &sc)
		dec := json.NewDecoder(bytes.NewReader(res.StructuredContent))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: structuredContent: %v", name, err)
		}
		if _, d := checkValue(&sc, v, "structuredContent"); d != "" {
			t.Errorf("%s: the output schema refuses the answer: %s", name, d)
		}
	}
	return res
}

func callToolRaw(t *testing.T, url, token, name string, args any) toolResult {
	t.Helper()
	r := mcpPost(t, url, token, rpcBody(3, "tools/call", map[string]any{"name": name, "arguments": args}))
	var m struct {
		Result *toolResult      `json:"result"`
		Error  *json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(r.msg, &m); err != nil || m.Result == nil {
		t.Fatalf("%s %s: %d %s", url, name, r.status, r.raw)
	}
	return *m.Result
}

func setNames(name string) []string {
	s, _ := toolset(name)
	return s.Tools
}

func TestToolsetMembership(t *testing.T) {
	want := map[string][]string{
		"tasks": {"schellingaf_guide", "schellingaf_whoami", "schellingaf_seek", "schellingaf_read_space", "schellingaf_get",
			"schellingaf_mailbox", "schellingaf_post", "schellingaf_oracle", "schellingaf_task", "schellingaf_join"},
		"research": {"schellingaf_guide", "schellingaf_whoami", "schellingaf_seek", "schellingaf_read_space", "schellingaf_get",
			"schellingaf_mailbox", "schellingaf_spaces", "schellingaf_post", "schellingaf_oracle", "schellingaf_join"},
		"coordinate": {"schellingaf_guide", "schellingaf_whoami", "schellingaf_seek", "schellingaf_read_space", "schellingaf_get",
			"schellingaf_mailbox", "schellingaf_spaces", "schellingaf_post", "schellingaf_space_control", "schellingaf_oracle",
			"schellingaf_task", "schellingaf_join"},
	}
	got := map[string][]string{}
	for _, s := range Toolsets() {
		got[s.Name] = s.Tools
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("toolsets (-want +got):\n%s", d)
	}
	// The instructions name what each set leaves out, from Toolsets.
	for _, s := range Toolsets() {
		var out []string
		for _, n := range mcpTools {
			if !slices.Contains(s.Tools, n) {
				out = append(out, n)
			}
		}
		if sentence := s.Name + " leaves out " + andList(out); !strings.Contains(Instructions(), sentence) {
			t.Errorf("instructions lack %q", sentence)
		}
	}
}

func TestToolListsAtEachAddress(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	for _, tc := range []struct {
		query string
		want  []string
		scope string
		ttl   int
	}{
		{"", mcpTools, "public", 3600000},
		{"?tools=", mcpTools, "public", 3600000},
		{"?tools=tasks", setNames("tasks"), "private", 0},
		{"?tools=research", setNames("research"), "private", 0},
		{"?tools=coordinate", setNames("coordinate"), "private", 0},
	} {
		names, res := listTools(t, srv.URL+"/mcp"+tc.query, tok)
		if d := cmp.Diff(tc.want, names); d != "" {
			t.Errorf("/mcp%s (-want +got):\n%s", tc.query, d)
		}
		var scope string
		var ttl int
		json.Unmarshal(res["cacheScope"], &scope)
		json.Unmarshal(res["ttlMs"], &ttl)
		if scope != tc.scope || ttl != tc.ttl {
			t.Errorf("/mcp%s: cacheScope %q ttlMs %d, want %q %d", tc.query, scope, ttl, tc.scope, tc.ttl)
		}
	}
}

func TestToolsParamRefused(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	for _, q := range []string{"tools=task", "tools=tasks&tools=research", "tools=tasks,research", "tools=TASKS"} {
		r := mcpPost(t, srv.URL+"/mcp?"+q, tok, rpcBody(7, "tools/list", map[string]any{}))
		if r.status != 400 {
			t.Errorf("%s: status %d, want 400", q, r.status)
		}
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(r.raw, &m); err != nil {
			t.Fatalf("%s: %s", q, r.raw)
		}
		if m.JSONRPC != "2.0" || string(m.ID) != "7" || m.Error.Code != -32600 ||
			!strings.HasPrefix(m.Error.Message, "INVALID_REQUEST.") ||
			!strings.Contains(m.Error.Message, "(tools is tasks, research or coordinate, or absent for every tool)") {
			t.Errorf("%s: %s", q, r.raw)
		}
	}
	// Without an id to read, the id is null.
	r := mcpPost(t, srv.URL+"/mcp?tools=nope", tok, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if r.status != 400 || !bytes.HasPrefix(r.raw, []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`)) {
		t.Errorf("notification at an unknown set: %d %s", r.status, r.raw)
	}
	// A batch is refused before anything else is read.
	r = mcpPost(t, srv.URL+"/mcp", tok, "["+rpcBody(1, "tools/list", map[string]any{})+"]")
	if r.status != 400 || !bytes.HasPrefix(r.raw, []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`)) {
		t.Errorf("batch: %d %s", r.status, r.raw)
	}
}

// TestConnectorRefusalsAreJSON: what the SDK would refuse in plain text
// (a wrong method, a wrong Accept, an unknown JSON-RPC method) is a
// JSON-RPC error body with the same status; a malformed body at an
// unknown set is the set's refusal.
func TestConnectorRefusalsAreJSON(t *testing.T) {
	for _, sse := range []bool{false, true} {
		srv := startTwin(t, Options{JSONAnswers: !sse})
		tok, _ := keyToken(t, srv.URL)
		cases := []struct {
			name, method, accept, body string
			status, code               int
			id                         string
		}{
			{"GET", "GET", "text/event-stream", "", 405, -32000, "null"},
			{"DELETE", "DELETE", "application/json, text/event-stream", "", 405, -32000, "null"},
			{"PUT", "PUT", "application/json, text/event-stream", rpcBody(3, "tools/list", map[string]any{}), 405, -32000, "null"},
			{"unknown method", "POST", "application/json, text/event-stream", rpcBody(4, "nope/nothing", map[string]any{}), 400, -32601, "4"},
			{"no event-stream in Accept", "POST", "text/html", rpcBody(5, "tools/list", map[string]any{}), 400, -32600, "5"},
		}
		for _, c := range cases {
			var rd io.Reader
			if c.body != "" {
				rd = strings.NewReader(c.body)
			}
			req, _ := http.NewRequest(c.method, srv.URL+"/mcp", rd)
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Accept", c.accept)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var m struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(raw, &m) != nil ||
				m.JSONRPC != "2.0" || string(m.ID) != c.id || m.Error.Code != c.code || m.Error.Message == "" {
				t.Errorf("sse=%v %s: %d %q %s", sse, c.name, resp.StatusCode, resp.Header.Get("Content-Type"), raw)
			}
		}
		r := mcpPost(t, srv.URL+"/mcp?tools=nope", tok, `{"jsonrpc":"2.0","id":`)
		if r.status != 400 || !bytes.HasPrefix(r.raw, []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`)) {
			t.Errorf("malformed body at an unknown set: %d %s", r.status, r.raw)
		}
		// An answer that is no refusal still streams as before.
		r = mcpPost(t, srv.URL+"/mcp", tok, rpcBody(6, "tools/list", map[string]any{}))
		if r.status != 200 || !gjson.GetBytes(r.msg, "result.tools.0.name").Exists() {
			t.Errorf("sse=%v tools/list: %d %s", sse, r.status, r.raw)
		}
	}
}

func TestNotInToolset(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	for _, tc := range []struct{ set, tool, detail string }{
		{"tasks", "schellingaf_space_control", "(schellingaf_space_control is in coordinate)"},
		{"tasks", "schellingaf_spaces", "(schellingaf_spaces is in research and coordinate)"},
		{"research", "schellingaf_task", "(schellingaf_task is in tasks and coordinate)"},
		{"coordinate", "schellingaf_message", "(schellingaf_message is in no set)"},
		{"tasks", "schellingaf_messages", "(schellingaf_messages is in no set)"},
	} {
		res := callTool(t, srv.URL+"/mcp?tools="+tc.set, tok, tc.tool, map[string]any{"action": "create", "to": "x", "body": "x"})
		if !res.IsError || !strings.HasPrefix(res.text(), "NOT_IN_TOOLSET.") || !strings.Contains(res.text(), tc.detail) || res.StructuredContent != nil {
			t.Errorf("%s at %s: %+v", tc.tool, tc.set, res)
		}
	}
	// A tool the set holds is called as usual.
	if res := callTool(t, srv.URL+"/mcp?tools=tasks", tok, "schellingaf_whoami", map[string]any{}); res.IsError {
		t.Errorf("whoami at tasks: %s", res.text())
	}
}

func TestConnectAddress(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	// /mcp/connect answers 401 in OAuth's words to no token (unauthorized)
	// and to a KEY's or an unknown one (invalid_token), with the challenge
	// that names where the sign-in rules are.
	for _, tc := range []struct{ token, code, challenge string }{{tok, "invalid_token", `error="invalid_token"`}, {"nonsense", "invalid_token", `error="invalid_token"`}, {"", "unauthorized", "resource_metadata="}} {
		r := mcpPost(t, srv.URL+"/mcp/connect", tc.token, rpcBody(1, "tools/list", map[string]any{}))
		if r.status != 401 || !strings.Contains(r.header.Get("WWW-Authenticate"), tc.challenge) ||
			gjson.GetBytes(r.raw, "error").String() != tc.code || gjson.GetBytes(r.raw, "error_description").String() == "" {
			t.Errorf("/mcp/connect with %q: %d %s %v", tc.token, r.status, r.raw, r.header)
		}
		if r.header.Get("X-Request-Id") == "" || r.header.Get("Vary") != "Accept, Authorization" || r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("/mcp/connect: refusal headers %v", r.header)
		}
	}
	app := appToken(t, srv.URL)
	want := append(append([]string{}, mcpTools...), "search", "fetch")
	for _, q := range []string{"", "?tools=tasks", "?tools=nonsense"} {
		names, res := listTools(t, srv.URL+"/mcp/connect"+q, app)
		if d := cmp.Diff(want, names); d != "" {
			t.Errorf("/mcp/connect%s (-want +got):\n%s", q, d)
		}
		if string(res["cacheScope"]) != `"public"` || string(res["ttlMs"]) != "3600000" {
			t.Errorf("/mcp/connect%s: cache hints %s %s", q, res["cacheScope"], res["ttlMs"])
		}
	}
	// search and fetch answer their own shapes, over what the person may read.
	app2, person := appTokenFor(t, srv.URL)
	var sp struct {
		Name string `json:"name"`
	}
	httpJSON(t, srv.URL, person, "POST", "/v1/spaces", map[string]any{"kind": "general", "title": "Notes"}, &sp)
	var note struct {
		ID string `json:"post_id"`
	}
	httpJSON(t, srv.URL, person, "POST", "/v1/spaces/"+sp.Name+"/posts", map[string]any{"kind": "obs", "title": "Parser notes", "body": "The parser keeps CR bytes."}, &note)
	found := callTool(t, srv.URL+"/mcp/connect", app2, "search", map[string]any{"query": "parser CR"})
	if found.IsError || gjson.GetBytes(found.StructuredContent, "results.0.id").String() != note.ID ||
		gjson.GetBytes(found.StructuredContent, "results.0.url").String() != srv.URL+"/v1/posts/"+note.ID {
		t.Errorf("search: %+v %s", found, found.StructuredContent)
	}
	// One fingerprint as the query is sought as that fingerprint, which
	// the post's words do not hold.
	var printed struct {
		ID string `json:"post_id"`
	}
	httpJSON(t, srv.URL, person, "POST", "/v1/spaces/"+sp.Name+"/posts", map[string]any{"kind": "result", "title": "Built", "body": "It builds.",
		"fingerprints": []map[string]string{{"scheme": "git.commit", "value": "4d1e0f9a7bc"}}}, &printed)
	byPrint := callTool(t, srv.URL+"/mcp/connect", app2, "search", map[string]any{"query": " git.commit:4d1e0f9a7bc "})
	if byPrint.IsError || gjson.GetBytes(byPrint.StructuredContent, "results.#").Int() != 1 ||
		gjson.GetBytes(byPrint.StructuredContent, "results.0.id").String() != printed.ID {
		t.Errorf("search by fingerprint: %+v %s", byPrint, byPrint.StructuredContent)
	}
	if empty := callTool(t, srv.URL+"/mcp/connect", app2, "search", map[string]any{"query": ""}); !empty.IsError ||
		!strings.HasPrefix(empty.text(), "INVALID_REQUEST.") || !strings.Contains(empty.text(), "query is shorter than 1 characters") {
		t.Errorf("search with an empty query: %+v", empty)
	}
	fetched := callTool(t, srv.URL+"/mcp/connect", app2, "fetch", map[string]any{"id": note.ID})
	if fetched.IsError || gjson.GetBytes(fetched.StructuredContent, "text").String() != "The parser keeps CR bytes." ||
		gjson.GetBytes(fetched.StructuredContent, "title").String() != "Parser notes" {
		t.Errorf("fetch: %+v %s", fetched, fetched.StructuredContent)
	}
	if missing := callTool(t, srv.URL+"/mcp/connect", app2, "fetch", map[string]any{"id": "p_0000000000000000"}); !missing.IsError || !strings.HasPrefix(missing.text(), "POST_NOT_FOUND.") {
		t.Errorf("fetch of no post: %+v", missing)
	}
	// An app token is for /mcp/connect alone: at /mcp it is TOKEN_INVALID,
	// said by the tools, never with a status.
	if r := mcpPost(t, srv.URL+"/mcp", app, rpcBody(1, "tools/list", map[string]any{})); r.status != 200 {
		t.Errorf("/mcp with an app token: %d", r.status)
	}
	if res := callTool(t, srv.URL+"/mcp", app, "schellingaf_whoami", map[string]any{}); !res.IsError || !strings.HasPrefix(res.text(), "TOKEN_INVALID.") {
		t.Errorf("whoami at /mcp with an app token: %+v", res)
	}
}

// TestMCPWithoutAToken: /mcp never answers a token problem with a status,
// as the service's does not. With no token, or one that is no good, it
// lists its tools at every address; a tool that needs a KEY answers the
// problem as its result (TOKEN_MISSING, TOKEN_INVALID), and one that reads
// what anyone may read runs with no token, and says the problem of a token
// that was sent and is no good.
func TestMCPWithoutAToken(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	var sp struct {
		Name string `json:"name"`
	}
	httpJSON(t, srv.URL, tok, "POST", "/v1/spaces", map[string]any{"title": "Open notes", "visibility": "public", "categories": []string{"general"}}, &sp)
	httpJSON(t, srv.URL, tok, "POST", "/v1/spaces/"+sp.Name+"/posts", map[string]any{"kind": "obs", "title": "Anonymous reading", "body": "Readable by anyone."}, nil)
	for _, addr := range []string{"/mcp", "/mcp?tools=research"} {
		for _, token := range []string{"", "kt_nonsense"} {
			if r := mcpPost(t, srv.URL+addr, token, initBody("2025-11-25")); r.status != 200 || !bytes.Contains(r.raw, []byte(`"serverInfo"`)) {
				t.Errorf("initialize at %s with %q: %d %s", addr, token, r.status, r.raw)
			}
			if names, _ := listTools(t, srv.URL+addr, token); len(names) < 10 {
				t.Errorf("tools/list at %s with %q: %v", addr, token, names)
			}
		}
		code := map[string]string{"": "TOKEN_MISSING.", "kt_nonsense": "TOKEN_INVALID."}
		for token, want := range code {
			if res := callTool(t, srv.URL+addr, token, "schellingaf_whoami", map[string]any{}); !res.IsError || !strings.HasPrefix(res.text(), want) || res.StructuredContent != nil {
				t.Errorf("whoami at %s with %q: %+v", addr, token, res)
			}
			if res := callTool(t, srv.URL+addr, token, "schellingaf_mailbox", map[string]any{"after": "0"}); !res.IsError || !strings.HasPrefix(res.text(), want) {
				t.Errorf("mailbox at %s with %q: %+v", addr, token, res)
			}
		}
		// Reads of public SPACEs need no token; a bad token is still its problem.
		if res := callTool(t, srv.URL+addr, "", "schellingaf_seek", map[string]any{"q": "anonymous reading"}); res.IsError ||
			gjson.GetBytes(res.StructuredContent, "items.#").Int() != 1 {
			t.Errorf("seek at %s with no token: %+v %s", addr, res, res.StructuredContent)
		}
		if res := callTool(t, srv.URL+addr, "", "schellingaf_read_space", map[string]any{"space": sp.Name, "standing": true}); res.IsError {
			t.Errorf("read_space at %s with no token: %s", addr, res.text())
		}
		if res := callTool(t, srv.URL+addr, "kt_nonsense", "schellingaf_seek", map[string]any{"q": "anonymous"}); !res.IsError || !strings.HasPrefix(res.text(), "TOKEN_INVALID.") {
			t.Errorf("seek at %s with a bad token: %+v", addr, res)
		}
	}
}

func TestLeanListsAndCeilings(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	app := appToken(t, srv.URL)
	for _, a := range []struct{ url, tok string }{{"/mcp", tok}, {"/mcp/connect", app}} {
		r := mcpPost(t, srv.URL+a.url, a.tok, rpcBody(2, "tools/list", map[string]any{}))
		if bytes.Contains(r.raw, []byte(`"$schema"`)) {
			t.Errorf("%s: $schema in the list", a.url)
		}
		if bytes.Contains(r.raw, []byte("9007199254740991")) {
			t.Errorf("%s: 2^53-1 in the list", a.url)
		}
		var m struct {
			Result struct {
				Tools []struct {
					Name         string          `json:"name"`
					Description  string          `json:"description"`
					OutputSchema json.RawMessage `json:"outputSchema"`
				} `json:"tools"`
			} `json:"result"`
		}
		json.Unmarshal(r.msg, &m)
		var withOutput []string
		for _, tl := range m.Result.Tools {
			if n := len(utf16.Encode([]rune(tl.Description))); n >= 2000 || n == 0 {
				t.Errorf("%s: %s description is %d characters", a.url, tl.Name, n)
			}
			if tl.OutputSchema != nil {
				withOutput = append(withOutput, tl.Name)
			}
		}
		want := []string{"schellingaf_whoami", "schellingaf_seek", "schellingaf_read_space", "schellingaf_mailbox", "schellingaf_post"}
		if a.url == "/mcp/connect" {
			want = append(want, "search", "fetch")
		}
		if d := cmp.Diff(want, withOutput); d != "" {
			t.Errorf("%s: tools with an output schema (-want +got):\n%s", a.url, d)
		}
	}
	if n := len(utf16.Encode([]rune(Instructions()))); n >= 2000 {
		t.Errorf("instructions are %d characters", n)
	}
	if strings.Contains(Instructions(), "{{") {
		t.Errorf("instructions keep a slot: %s", Instructions())
	}
}

func TestLeanCheckRefuses(t *testing.T) {
	for _, tc := range []struct {
		schema string
		ok     bool
	}{
		{`{"type":"object","properties":{"n":{"type":"integer","maximum":50}}}`, true},
		{`{"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema"}`, false},
		{`{"type":"object","properties":{"a":{"items":{"$schema":"x"}}}}`, false},
		{`{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740991}}}`, false},
		{`{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740991.0}}}`, false},
		{`{"type":"object","properties":{"maximum":{"type":"integer","maximum":9007199254740990}}}`, true},
	} {
		if err := leanCheck([]byte(tc.schema)); (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.schema, err)
		}
	}
}

func TestAnswerFormatsAndHeaders(t *testing.T) {
	for _, jsonAnswers := range []bool{false, true} {
		srv := startTwin(t, Options{JSONAnswers: jsonAnswers})
		tok, _ := keyToken(t, srv.URL)
		for _, v := range []string{"2025-06-18", "2025-11-25"} {
			r := mcpPost(t, srv.URL+"/mcp", tok, initBody(v))
			ct := r.header.Get("Content-Type")
			if jsonAnswers != strings.HasPrefix(ct, "application/json") || !jsonAnswers && !strings.HasPrefix(ct, "text/event-stream") {
				t.Errorf("json=%v: Content-Type %q", jsonAnswers, ct)
			}
			if !jsonAnswers && !bytes.HasPrefix(r.raw, []byte("event: message\n")) && !bytes.Contains(r.raw, []byte("\ndata: ")) {
				t.Errorf("event stream: %q", r.raw)
			}
			if r.header.Get("Cache-Control") != "no-cache, no-transform" || r.header.Get("Vary") != "Accept, Authorization" || r.header.Get("X-Request-Id") == "" {
				t.Errorf("headers: %v", r.header)
			}
			if r.header.Get("Mcp-Session-Id") != "" {
				t.Errorf("a session id in a stateless answer: %q", r.header.Get("Mcp-Session-Id"))
			}
			var m struct {
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
					ServerInfo      struct {
						Name, Version string
					} `json:"serverInfo"`
					Instructions string `json:"instructions"`
				} `json:"result"`
			}
			json.Unmarshal(r.msg, &m)
			if m.Result.ProtocolVersion != v || m.Result.ServerInfo.Name != "schellingaf" || m.Result.ServerInfo.Version != "0.1.0" || m.Result.Instructions != Instructions() {
				t.Errorf("initialize %s: %s", v, r.msg)
			}
		}
		// tools/call works without initialize, and answers structuredContent.
		res := callTool(t, srv.URL+"/mcp", tok, "schellingaf_whoami", map[string]any{})
		if res.IsError || len(res.StructuredContent) == 0 || res.text() == "" {
			t.Errorf("whoami without initialize: %+v", res)
		}
	}
}

func TestDiscover(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	body := `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"readmeter-test","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	r := mcpPost(t, srv.URL+"/mcp?tools=tasks", tok, body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "server/discover")
	var m struct {
		Result struct {
			SupportedVersions []string        `json:"supportedVersions"`
			Capabilities      json.RawMessage `json:"capabilities"`
			Instructions      string          `json:"instructions"`
			TTLMs             int             `json:"ttlMs"`
			CacheScope        string          `json:"cacheScope"`
			Meta              map[string]struct {
				Name, Version string
			} `json:"_meta"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.msg, &m); err != nil || r.status != 200 {
		t.Fatalf("discover: %d %s", r.status, r.raw)
	}
	res := m.Result
	if !slices.Contains(res.SupportedVersions, "2026-07-28") || !slices.Contains(res.SupportedVersions, "2025-11-25") ||
		res.Instructions != Instructions() || res.TTLMs != 3600000 || res.CacheScope != "public" ||
		res.Meta["io.modelcontextprotocol/serverInfo"].Name != "schellingaf" || !bytes.Contains(res.Capabilities, []byte(`"tools"`)) {
		t.Errorf("discover: %s", r.msg)
	}
	// A 2026-07-28 tools/call, with its headers, needs no handshake.
	body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"schellingaf_whoami","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	r = mcpPost(t, srv.URL+"/mcp", tok, body, "MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "schellingaf_whoami")
	if r.status != 200 || !bytes.Contains(r.msg, []byte(`"structuredContent"`)) {
		t.Errorf("2026-07-28 tools/call: %d %s", r.status, r.raw)
	}
}

func TestArgumentsRefused(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	for _, tc := range []struct {
		tool   string
		args   any
		detail string
	}{
		{"schellingaf_task", map[string]any{"action": "take", "space": "x"}, "(action is one of list, get, add, change, retire, delete, next, done, progress, release, confirm, reject)"},
		{"schellingaf_task", map[string]any{"action": "verify", "space": "x"}, "(action is one of list, get, add, change, retire, delete, next, done, progress, release, confirm, reject)"},
		{"schellingaf_task", map[string]any{"action": "next"}, "(space is required)"},
		{"schellingaf_mailbox", map[string]any{"after": "ten"}, "Correct after in the query"},
		{"schellingaf_mailbox", map[string]any{"after": -1}, "(after must be a string)"},
		{"schellingaf_whoami", map[string]any{"extra": 1}, "(extra is not a field of this tool)"},
		{"schellingaf_get", map[string]any{"post_ids": []any{}}, "(give post_id or post_ids, one of the two)"},
		{"schellingaf_get", map[string]any{"post_ids": make([]any, 21)}, "(post_ids takes at most 20 items)"},
		{"schellingaf_task", map[string]any{"action": "add", "space": "x", "tag": 3}, "(tag must be a string)"},
		{"schellingaf_seek", map[string]any{"q": "x", "limit": 51}, "(limit must be at most 50)"},
		{"schellingaf_get", map[string]any{}, "(give post_id or post_ids, one of the two)"},
		{"schellingaf_mailbox", map[string]any{"after": "1x"}, "Correct after in the query"},
		{"schellingaf_task", map[string]any{"action": "done", "space": "x", "number": "two"}, "(number must be an integer)"},
		{"schellingaf_seek", map[string]any{}, "(give fingerprint or q)"},
		{"schellingaf_post", map[string]any{"title": "A test post", "space": "x", "kind": "result", "body": "b", "fingerprints": []any{"git.commit:1"}}, "(fingerprints[0] must be an object)"},
	} {
		res := callTool(t, srv.URL+"/mcp", tok, tc.tool, tc.args)
		if !res.IsError || !strings.HasPrefix(res.text(), "INVALID_REQUEST.") || !strings.Contains(res.text(), tc.detail) {
			t.Errorf("%s %v: %q", tc.tool, tc.args, res.text())
		}
	}
	// An API refusal comes back as the API's code, message and fix.
	res := callTool(t, srv.URL+"/mcp", tok, "schellingaf_read_space", map[string]any{"space": "no-such-space"})
	if !res.IsError || res.StructuredContent != nil || !strings.Contains(res.text(), "NOT_FOUND") {
		t.Errorf("read_space of no space: %+v", res)
	}
}

// captureStems are the captured addresses: file stem and query.
var captureStems = []struct{ stem, path string }{
	{"tools-mcp", "/mcp"},
	{"tools-connect", "/mcp/connect"},
	{"tools-tasks", "/mcp?tools=tasks"},
	{"tools-research", "/mcp?tools=research"},
	{"tools-coordinate", "/mcp?tools=coordinate"},
}

// TestCaptures holds captures/twin to what the twin serves in JSON-answer
// mode: each address's tools/list answer and its initialize answer beside
// it, byte for byte plus one final newline, and toolsets.json. With
// -update it rewrites them.
func TestCaptures(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	app := appToken(t, srv.URL)
	dir := filepath.Join("..", "captures", "twin")
	files := map[string][]byte{}
	for _, c := range captureStems {
		token := tok
		if strings.HasPrefix(c.path, "/mcp/connect") {
			token = app
		}
		init := mcpPost(t, srv.URL+c.path, token, initBody("2025-11-25"))
		list := mcpPost(t, srv.URL+c.path, token, rpcBody(2, "tools/list", map[string]any{}))
		if init.status != 200 || list.status != 200 {
			t.Fatalf("%s: %d %d", c.path, init.status, list.status)
		}
		files[c.stem+".json"] = append(list.raw, '\n')
		files[c.stem+".init.json"] = append(init.raw, '\n')
	}
	var sets bytes.Buffer
	sets.WriteString("{\n")
	for i, s := range Toolsets() {
		names, _ := json.Marshal(s.Tools)
		fmt.Fprintf(&sets, "  %q: %s", s.Name, names)
		if i < len(Toolsets())-1 {
			sets.WriteString(",")
		}
		sets.WriteString("\n")
	}
	sets.WriteString("}\n")
	files["toolsets.json"] = sets.Bytes()

	for name, want := range files {
		path := filepath.Join(dir, name)
		if *updateCaptures {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (run go test ./twin -run TestCaptures -update)", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what the twin serves; if the words changed on purpose, run go test ./twin -run TestCaptures -update", path)
		}
	}
}

// appToken gets an app token for /mcp/connect through OAuth 2.1 with
// PKCE: register a client, authorize, approve as a KEY's holder, then
// trade the code and the verifier for a token.
func appToken(t *testing.T, base string) string {
	t.Helper()
	app, _ := appTokenFor(t, base)
	return app
}

// appTokenFor is appToken that also answers the token of the KEY that
// approved, the person the app token speaks for.
func appTokenFor(t *testing.T, base string) (app, person string) {
	t.Helper()
	person, _ = keyToken(t, base)
	redirect := "http://127.0.0.1:9/callback"
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if st := httpJSON(t, base, "", "POST", "/oauth/register", map[string]any{
		"client_name": "readmeter-test", "redirect_uris": []string{redirect},
		"grant_types": []string{"authorization_code"}, "response_types": []string{"code"},
		"token_endpoint_auth_method": "none",
	}, &reg); st != 201 && st != 200 || reg.ClientID == "" {
		t.Fatalf("oauth register: %d %+v", st, reg)
	}
	verifier := strings.Repeat("v", 43) + hex.EncodeToString([]byte(t.Name()))[:8]
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	q := url.Values{
		"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st"},
		"resource": {base + "/mcp/connect"}, "scope": {"mcp"},
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(base + "/oauth/authorize?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode/100 != 3 || loc.Query().Get("request") == "" {
		t.Fatalf("oauth authorize: %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var appr struct {
		RedirectTo string `json:"redirect_to"`
	}
	if st := httpJSON(t, base, person, "POST", "/v1/authorizations/"+url.PathEscape(loc.Query().Get("request"))+"/approve", map[string]any{}, &appr); st != 200 {
		t.Fatalf("approve: %d %+v", st, appr)
	}
	back, err := url.Parse(appr.RedirectTo)
	if err != nil || back.Query().Get("code") == "" {
		t.Fatalf("approve: redirect_to %q", appr.RedirectTo)
	}
	form := url.Values{
		"grant_type": {"authorization_code"}, "code": {back.Query().Get("code")}, "redirect_uri": {redirect},
		"client_id": {reg.ClientID}, "code_verifier": {verifier}, "resource": {base + "/mcp/connect"},
	}
	tr, err := http.PostForm(base+"/oauth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Body.Close()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	raw, _ := io.ReadAll(tr.Body)
	if json.Unmarshal(raw, &tok); tr.StatusCode != 200 || tok.AccessToken == "" {
		t.Fatalf("oauth token: %d %s", tr.StatusCode, raw)
	}
	return tok.AccessToken, person
}

// TestConnectorWalk walks a first task through the connector's tools, as
// the connector walk does: join with the link, who you are, your own
// newest dossier, your mailbox, the document, the next task, SEEK, the
// result that marks the task done, and the mailbox again.
func TestConnectorWalk(t *testing.T) {
	connectorWalk(t, startTwin(t, Options{})) // event-stream answers, the default
}

// TestConnectorWalkersAtOnce runs 10 connector walks at once on one twin,
// each on its own spaces: nothing is lost and no walk sees another's.
func TestConnectorWalkersAtOnce(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	for i := range 10 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			connectorWalk(t, srv)
		})
	}
}

func connectorWalk(t *testing.T, srv *httptest.Server) {
	owner, _ := keyToken(t, srv.URL)
	var sp struct {
		Name string `json:"name"`
	}
	if st := httpJSON(t, srv.URL, owner, "POST", "/v1/spaces", map[string]any{
		"kind": "work", "title": "Parser fixes", "document": "# How to work here\nTake a task, fix it, post the result.",
	}, &sp); st != 201 {
		t.Fatalf("create space: %d", st)
	}
	if st := httpJSON(t, srv.URL, owner, "POST", "/v1/spaces/"+sp.Name+"/tasks", map[string]any{"title": "Handle CRLF line ends", "body": "The parser drops a CR."}, nil); st != 201 {
		t.Fatalf("create task: %d", st)
	}
	var inv struct {
		Link string `json:"link"`
	}
	if st := httpJSON(t, srv.URL, owner, "POST", "/v1/spaces/"+sp.Name+"/invites", map[string]any{"role": "writer"}, &inv); st != 201 || inv.Link == "" {
		t.Fatalf("invite: %d %+v", st, inv)
	}
	agent, peer := keyToken(t, srv.URL)
	var own struct {
		Name string `json:"name"`
	}
	httpJSON(t, srv.URL, agent, "POST", "/v1/spaces", map[string]any{"kind": "general", "title": "My notes"}, &own)
	if st := httpJSON(t, srv.URL, agent, "POST", "/v1/spaces/"+own.Name+"/posts", map[string]any{"kind": "dossier", "title": "Dossier", "body": "mailbox cursor: 0"}, nil); st != 201 {
		t.Fatalf("dossier: %d", st)
	}

	mcpURL := srv.URL + "/mcp"
	if r := mcpPost(t, mcpURL, agent, initBody("2025-11-25")); r.status != 200 || !bytes.Contains(r.msg, []byte(`"instructions"`)) {
		t.Fatalf("initialize: %d %s", r.status, r.raw)
	}
	if r := mcpPost(t, mcpURL, agent, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != 202 {
		t.Errorf("initialized: %d %s", r.status, r.raw)
	}
	if names, _ := listTools(t, mcpURL, agent); len(names) != 14 {
		t.Fatalf("tools/list: %v", names)
	}
	sc := func(name string, args any) gjson.Result {
		t.Helper()
		res := callTool(t, mcpURL, agent, name, args)
		if res.IsError {
			t.Fatalf("%s: %s", name, res.text())
		}
		if len(res.StructuredContent) == 0 || res.text() == "" {
			t.Fatalf("%s: no structuredContent or no text: %+v", name, res)
		}
		return gjson.ParseBytes(res.StructuredContent)
	}
	joined := sc("schellingaf_join", map[string]any{"action": "join", "link": inv.Link})
	if joined.Get("name").String() != sp.Name || joined.Get("role").String() != "writer" || joined.Get("start").String() != "start-tasks" {
		t.Errorf("join: %s", joined.Raw)
	}
	me := sc("schellingaf_whoami", map[string]any{})
	if me.Get("peer_id").String() != peer || !strings.Contains(me.Get("memberships.#.space").Raw, sp.Name) {
		t.Errorf("whoami: %s", me.Raw)
	}
	dossier := sc("schellingaf_read_space", map[string]any{"space": own.Name, "standing": true, "kind": []string{"dossier"}, "author": peer, "limit": 1, "detail": "full"})
	if dossier.Get("items.#").Int() != 1 || dossier.Get("items.0.body").String() != "mailbox cursor: 0" {
		t.Errorf("dossier: %s", dossier.Raw)
	}
	mail := sc("schellingaf_mailbox", map[string]any{"after": "0"})
	if !mail.Get("next_after").Exists() || !mail.Get("items").IsArray() {
		t.Errorf("mailbox: %s", mail.Raw)
	}
	doc := sc("schellingaf_oracle", map[string]any{"action": "read", "space": sp.Name})
	if !strings.Contains(doc.Raw, "How to work here") {
		t.Errorf("oracle read: %s", doc.Raw)
	}
	next := sc("schellingaf_task", map[string]any{"action": "next", "space": sp.Name})
	number := next.Get("task.number").Int()
	if number != 1 || next.Get("task.state").String() != "claimed" {
		t.Fatalf("task next: %s", next.Raw)
	}
	fp := fmt.Sprintf("task.reference:%s/%d", sp.Name, number)
	if hits := sc("schellingaf_seek", map[string]any{"fingerprint": []string{fp}}); !hits.Get("items").IsArray() || hits.Get("items.#").Int() != 0 {
		t.Errorf("seek before the work: %s", hits.Raw)
	}
	posted := sc("schellingaf_post", map[string]any{"space": sp.Name, "kind": "result", "title": "Task 1 done: CR kept",
		"body": "The parser keeps a CR before LF. Tested on 3 files.", "task": map[string]any{"number": fmt.Sprint(number)}, "run_id": "2026-12-02-1",
		"fingerprints": []any{map[string]any{"scheme": "git.commit", "value": "9f2c1e7"}}, "idempotency_key": "result-1",
		"data": map[string]any{"sources": []string{"version-1"}}}) // a result's sources cite; they are not what it rests on
	if posted.Get("task.state").String() != "done" || posted.Get("post_id").String() == "" {
		t.Errorf("post result: %s", posted.Raw)
	}
	if done := callTool(t, mcpURL, agent, "schellingaf_task", map[string]any{"action": "done", "space": sp.Name, "number": number}); done.IsError {
		t.Errorf("task done after the result: %s", done.text())
	}
	if hits := sc("schellingaf_seek", map[string]any{"fingerprint": []string{"git.commit:9f2c1e7", fp}}); hits.Get("items.#").Int() != 1 || hits.Get("items.0.post_id").String() != posted.Get("post_id").String() {
		t.Errorf("seek after the result: %s", hits.Raw)
	}
	again := sc("schellingaf_mailbox", map[string]any{"after": mail.Get("next_after").String()})
	if !again.Get("items").IsArray() || again.Get("next_after").Int() < mail.Get("next_after").Int() {
		t.Errorf("mailbox again: %s", again.Raw)
	}
	// The owner hears of the result.
	var ownerMail struct {
		Items []struct {
			Post struct {
				ID string `json:"post_id"`
			} `json:"post"`
		} `json:"items"`
	}
	httpJSON(t, srv.URL, owner, "GET", "/v1/mailbox?after=0", nil, &ownerMail)
	found := false
	for _, it := range ownerMail.Items {
		found = found || it.Post.ID == posted.Get("post_id").String()
	}
	if !found {
		t.Errorf("the owner's mailbox lacks the result: %+v", ownerMail)
	}
	// guide is text alone.
	if g := callTool(t, mcpURL, agent, "schellingaf_guide", map[string]any{}); g.IsError || g.StructuredContent != nil || g.text() == "" {
		t.Errorf("guide: %+v", g)
	}
}

// TestCoordinateAndResearchThroughTools runs the coordinate and research
// starts' steps through the sets' tools.
func TestCoordinateAndResearchThroughTools(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	lead, _ := keyToken(t, srv.URL)
	coord := srv.URL + "/mcp?tools=coordinate"
	ok := func(url, tok, name string, args any) gjson.Result {
		t.Helper()
		res := callTool(t, url, tok, name, args)
		if res.IsError {
			t.Fatalf("%s: %s", name, res.text())
		}
		return gjson.ParseBytes(res.StructuredContent)
	}
	cats := ok(coord, lead, "schellingaf_spaces", map[string]any{"action": "categories", "q": "testing"})
	cat := cats.Get("matches.0.id").String()
	if cat == "" {
		t.Fatalf("categories: %s", cats.Raw)
	}
	created := ok(coord, lead, "schellingaf_space_control", map[string]any{"action": "create", "name": "survey-sources", "document": true, "visibility": "public",
		"categories": []string{cat}, "title": "Survey", "description": "Sources for one survey."})
	sp := created.Get("name").String()
	if !created.Get("document").Bool() || created.Get("categories.0").String() != cat || created.Get("name").String() != "survey-sources" {
		t.Errorf("create: %s", created.Raw)
	}
	first := ok(coord, lead, "schellingaf_oracle", map[string]any{"action": "propose", "space": sp, "text": "# How to work here\nOne claim per post.", "summary": "First version."})
	if first.Get("oracle.state").String() != "current" || first.Get("post_id").String() == "" {
		t.Errorf("the owner's first version: %s", first.Raw)
	}
	for _, title := range []string{"Find the sources", "Check the numbers"} {
		ok(coord, lead, "schellingaf_task", map[string]any{"action": "add", "space": sp, "title": title, "tag": "survey"})
	}
	link := ok(coord, lead, "schellingaf_space_control", map[string]any{"action": "invite", "name": sp, "role": "writer", "max_uses": "5"}).Get("link").String()
	// A second KEY joins and proposes a version: a post of kind version
	// that supersedes the current one, pending until the owner decides.
	helper, _ := keyToken(t, srv.URL)
	tasks := srv.URL + "/mcp?tools=tasks"
	ok(tasks, helper, "schellingaf_join", map[string]any{"action": "join", "link": link})
	var prop struct {
		PostID string `json:"post_id"`
		Oracle struct {
			State string `json:"state"`
		} `json:"oracle"`
	}
	httpJSON(t, srv.URL, helper, "POST", "/v1/spaces/"+sp+"/posts", map[string]any{"kind": "version", "title": "Add a rule",
		"body": "# How to work here\nOne claim per post. Cite a source.", "supersedes": first.Get("post_id").String()}, &prop)
	if prop.Oracle.State != "pending" || prop.PostID == "" {
		t.Fatalf("proposal: %+v", prop)
	}
	waiting := ok(coord, lead, "schellingaf_oracle", map[string]any{"action": "history", "space": sp, "state": "pending"})
	if waiting.Get("items.#").Int() != 1 || waiting.Get("items.0.post_id").String() != prop.PostID {
		t.Errorf("versions: %s", waiting.Raw)
	}
	decided := ok(coord, lead, "schellingaf_oracle", map[string]any{"action": "approve", "space": sp, "proposal": prop.PostID, "reason": "Sources make claims checkable."})
	if decided.Get("oracle.decided").String() != "approved" {
		t.Errorf("decide: %s", decided.Raw)
	}
	if doc := ok(tasks, helper, "schellingaf_oracle", map[string]any{"action": "read", "space": sp}); !strings.Contains(doc.Get("text").String(), "Cite a source") {
		t.Errorf("the decided version is not current: %s", doc.Raw)
	}
	list := ok(coord, lead, "schellingaf_task", map[string]any{"action": "list", "space": sp})
	if list.Get(`items.#(state=="open")#|#`).Int() != 2 || list.Get("items.#").Int() != 2 {
		t.Errorf("task list: %s", list.Raw)
	}

	// A helper takes a task and answers it; done says what is missing
	// before the result, and confirms after; the lead then checks it.
	took := ok(tasks, helper, "schellingaf_task", map[string]any{"action": "next", "space": sp})
	n := took.Get("task.number").Int()
	if r := callTool(t, tasks, helper, "schellingaf_task", map[string]any{"action": "done", "space": sp, "number": n}); !r.IsError || !strings.HasPrefix(r.text(), "TASK_NOT_DONE.") {
		t.Errorf("done before the result: %+v", r)
	}
	if v := ok(coord, lead, "schellingaf_task", map[string]any{"action": "next", "verify": true, "space": sp}); v.Get("task").Type != gjson.Null {
		t.Errorf("verify with nothing done: %s", v.Raw)
	}
	ok(tasks, helper, "schellingaf_post", map[string]any{"title": "A test post", "space": sp, "kind": "result", "body": "Three sources found.", "task": map[string]any{"number": n}})
	if d := ok(tasks, helper, "schellingaf_task", map[string]any{"action": "done", "space": sp, "number": n}); d.Get("task.state").String() != "done" {
		t.Errorf("done after the result: %s", d.Raw)
	}
	if v := ok(tasks, helper, "schellingaf_task", map[string]any{"action": "next", "verify": true, "space": sp}); v.Get("task").Type != gjson.Null {
		t.Errorf("verify offers a peer its own result: %s", v.Raw)
	}
	v := ok(coord, lead, "schellingaf_task", map[string]any{"action": "next", "verify": true, "space": sp})
	if v.Get("task.number").Int() != n {
		t.Fatalf("verify: %s", v.Raw)
	}
	ok(coord, lead, "schellingaf_post", map[string]any{"title": "A test post", "space": sp, "kind": "warn", "body": "Confirmed: three sources.", "task": map[string]any{"number": n}})
	if v := ok(coord, lead, "schellingaf_task", map[string]any{"action": "next", "verify": true, "space": sp}); v.Get("task").Type != gjson.Null {
		t.Errorf("verify after the check: %s", v.Raw)
	}

	// Research: a finding resting on a post, found by words, opened with its basis.
	res := srv.URL + "/mcp?tools=research"
	src := ok(res, helper, "schellingaf_post", map[string]any{"space": sp, "kind": "obs", "title": "Source: survey 2024", "body": "The survey counts 412 sites."})
	finding := ok(res, helper, "schellingaf_post", map[string]any{"space": sp, "kind": "finding", "title": "412 sites, one source",
		"body": "The count rests on one survey.", "data": map[string]any{"claim": "412 sites.", "status": "proposed", "confidence": "medium", "sources": []string{src.Get("post_id").String()}}})
	hits := ok(res, lead, "schellingaf_seek", map[string]any{"q": "survey sites", "space": sp})
	if hits.Get("items.#").Int() != 2 {
		t.Errorf("seek by words: %s", hits.Raw)
	}
	got := ok(res, lead, "schellingaf_get", map[string]any{"post_ids": []string{finding.Get("post_id").String(), src.Get("post_id").String()}})
	if got.Get("items.#").Int() != 2 || got.Get("items.0.kind").String() != "finding" {
		t.Errorf("get post_ids: %s", got.Raw)
	}
	basis := ok(res, lead, "schellingaf_get", map[string]any{"post_id": finding.Get("post_id").String(), "finding": true})
	if basis.Get("sources.0.post_id").String() != src.Get("post_id").String() {
		t.Errorf("get a finding's basis: %s", basis.Raw)
	}
	findings := ok(res, lead, "schellingaf_read_space", map[string]any{"space": sp, "findings": true})
	if findings.Get("items.#").Int() != 1 || findings.Get("items.0.sources.#").Int() != 1 || findings.Get("items.0.number").Int() != 1 {
		t.Errorf("findings: %s", findings.Raw)
	}
	standing := ok(res, lead, "schellingaf_read_space", map[string]any{"space": sp, "standing": true, "kind": []string{"finding"}})
	if standing.Get("items.#").Int() != 1 {
		t.Errorf("findings standing: %s", standing.Raw)
	}
	if r := callTool(t, res, lead, "schellingaf_read_space", map[string]any{"space": sp, "author": "x"}); !r.IsError || !strings.HasPrefix(r.text(), "NOT_AVAILABLE.") || !strings.Contains(r.text(), "author") {
		t.Errorf("author without standing: %+v", r)
	}
}

// TestServerInfoAndCacheHints holds the discovery answer to the service's
// surface (server info with its title, site and two icons; tools, prompts
// and resources among the capabilities) and every list to its cache hint:
// an hour and public, but at a toolset the tool and prompt lists private
// and never kept, and the resource list private for a minute everywhere.
func TestServerInfoAndCacheHints(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	r := mcpPost(t, srv.URL+"/mcp", tok, initBody("2025-11-25"))
	var m struct {
		Result struct {
			Capabilities map[string]json.RawMessage `json:"capabilities"`
			ServerInfo   json.RawMessage            `json:"serverInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal(r.msg, &m); err != nil {
		t.Fatalf("initialize: %v: %s", err, r.raw)
	}
	want := `{"name":"schellingaf","title":"Schelling Add Forward","version":"0.1.0","websiteUrl":"https://sites.twin.test/api",` +
		`"icons":[{"src":"https://sites.twin.test/logo/schelling-icon-512.png","mimeType":"image/png","sizes":["512x512"]},` +
		`{"src":"https://sites.twin.test/logo/favicon.svg","mimeType":"image/svg+xml","sizes":["any"]}]}`
	if string(m.Result.ServerInfo) != want {
		t.Errorf("serverInfo:\n got %s\nwant %s", m.Result.ServerInfo, want)
	}
	for _, c := range []string{"tools", "prompts", "resources"} {
		if _, ok := m.Result.Capabilities[c]; !ok {
			t.Errorf("capabilities lack %s: %s", c, r.msg)
		}
	}
	for _, tc := range []struct {
		query, method string
		ttl           int
		scope         string
	}{
		{"", "tools/list", 3600000, "public"},
		{"", "prompts/list", 3600000, "public"},
		{"", "resources/templates/list", 3600000, "public"},
		{"", "resources/list", 60000, "private"},
		{"?tools=tasks", "tools/list", 0, "private"},
		{"?tools=tasks", "prompts/list", 0, "private"},
		{"?tools=tasks", "resources/templates/list", 3600000, "public"},
		{"?tools=tasks", "resources/list", 60000, "private"},
	} {
		r := mcpPost(t, srv.URL+"/mcp"+tc.query, tok, rpcBody(2, tc.method, map[string]any{}))
		var res struct {
			Result struct {
				TTLMs      *int   `json:"ttlMs"`
				CacheScope string `json:"cacheScope"`
			} `json:"result"`
		}
		if err := json.Unmarshal(r.msg, &res); err != nil || res.Result.TTLMs == nil {
			t.Errorf("/mcp%s %s: no cache hint: %s", tc.query, tc.method, r.raw)
			continue
		}
		if *res.Result.TTLMs != tc.ttl || res.Result.CacheScope != tc.scope {
			t.Errorf("/mcp%s %s: ttlMs %d %s, want %d %s", tc.query, tc.method, *res.Result.TTLMs, res.Result.CacheScope, tc.ttl, tc.scope)
		}
	}
}

// TestNotAvailable holds what the twin answers for what its tools list and
// it does not act on: an action it does not serve, or an argument it would
// not act on, is refused with NOT_AVAILABLE and what it serves, and nothing
// is done; a served call with a served argument is not.
func TestNotAvailable(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		wants []string
	}{
		{"schellingaf_task", map[string]any{"action": "get", "space": "x", "number": 1}, []string{"does not serve get of schellingaf_task", "It serves add, done, list and next."}},
		{"schellingaf_space_control", map[string]any{"action": "hide", "post_id": "p"}, []string{"does not serve hide of schellingaf_space_control"}},
		{"schellingaf_message", map[string]any{"action": "start", "to": []any{"x"}, "body": "hi"}, []string{"does not serve start of schellingaf_message", "It serves none of this tool's actions."}},
		{"schellingaf_messages", map[string]any{"action": "list"}, []string{"does not serve list of schellingaf_messages"}},
		{"schellingaf_guide", map[string]any{"part": "capabilities"}, []string{"does not serve capabilities of schellingaf_guide"}},
		{"schellingaf_seek", map[string]any{"q": "x", "oracle": true, "fingerprint_prefix": "git.commit:abcdef"}, []string{"does not act on fingerprint_prefix and oracle with seek of schellingaf_seek"}},
		{"schellingaf_mailbox", map[string]any{"wait": 5}, []string{"does not act on wait with mailbox"}},
		{"schellingaf_whoami", map[string]any{"after": "a"}, []string{"which takes no argument here"}},
	} {
		res := callTool(t, srv.URL+"/mcp", tok, tc.tool, tc.args)
		if !res.IsError || !strings.HasPrefix(res.text(), "NOT_AVAILABLE. ") || !strings.HasSuffix(res.text(), "Nothing was done.") {
			t.Errorf("%s %v: %q", tc.tool, tc.args, res.text())
			continue
		}
		for _, w := range tc.wants {
			if !strings.Contains(res.text(), w) {
				t.Errorf("%s %v: %q lacks %q", tc.tool, tc.args, res.text(), w)
			}
		}
	}
	// A served action with served arguments is done.
	if res := callTool(t, srv.URL+"/mcp", tok, "schellingaf_seek", map[string]any{"q": "nothing here", "detail": "ids", "token_budget": 100}); res.IsError {
		t.Errorf("seek with served arguments: %q", res.text())
	}
}
