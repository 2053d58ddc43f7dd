package twin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolHandler checks a call's arguments against the tool's input schema
// and runs the tool. Bad arguments are refused in the twin's words, as a
// tool result with isError, before anything is done.
func (s *Server) toolHandler(c *conn, name string) mcp.ToolHandler {
	run := toolRuns[name]
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, detail := checkArgs(theWords.tools[name].InputSchema, req.Params.Arguments)
		if detail != "" {
			return refusal(invalidRequest(detail)), nil
		}
		ctx = context.WithValue(ctx, apiHostKey{}, c)
		return run(&toolCall{s: s, ctx: ctx, c: c, args: args}), nil
	}
}

// toolCall is one tool call: its arguments and how to reach the API.
type toolCall struct {
	s    *Server
	ctx  context.Context
	c    *conn
	args map[string]any
}

func (t *toolCall) str(k string) string {
	v, _ := t.args[k].(string)
	return v
}

func (t *toolCall) has(k string) bool { _, ok := t.args[k]; return ok }

func (t *toolCall) boolean(k string) bool {
	v, _ := t.args[k].(bool)
	return v
}

// num returns an integer argument as its decimal text, "" when absent.
func (t *toolCall) num(k string) string {
	if v, ok := t.args[k].(json.Number); ok {
		return v.String()
	}
	return ""
}

// api calls the HTTP API with the caller's token.
func (t *toolCall) api(method, path string, body any) (int, []byte) {
	return t.s.callAPI(t.ctx, t.c.token, method, path, body)
}

// answer turns an API answer into a tool result: on success its text and,
// unless textOnly, the answer as structuredContent; otherwise a refusal
// with the API's code, message and fix.
func answer(status int, body []byte) *mcp.CallToolResult {
	if status < 200 || status > 299 {
		return apiRefusal(status, body)
	}
	if !json.Valid(body) {
		return refusal("INTERNAL. The API answered something that is not JSON. Nothing can be said of what was done.")
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: renderText(body)}},
		StructuredContent: json.RawMessage(body),
	}
}

// apiRefusal renders an API error body {"error":{code,message,fix}} as a
// refusal's text: "CODE. message fix".
func apiRefusal(status int, body []byte) *mcp.CallToolResult {
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Fix     string `json:"fix"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error.Code == "" {
		return refusal(fmt.Sprintf("HTTP_%d. The API refused the call: %s", status, strings.TrimSpace(string(body))))
	}
	text := e.Error.Code + "."
	for _, part := range []string{e.Error.Message, e.Error.Fix} {
		if part = strings.TrimSpace(part); part != "" {
			text += " " + part
		}
	}
	return refusal(text)
}

// query builds a query string from the pairs given, leaving out empty
// values, in the order given.
func query(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(pairs[i]))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(pairs[i+1]))
	}
	return b.String()
}

func spacePath(space, rest string) string {
	return "/v1/spaces/" + url.PathEscape(space) + rest
}

func boolFlag(b bool) string {
	if b {
		return "true"
	}
	return ""
}

// toolRuns holds what each tool does.
var toolRuns = map[string]func(*toolCall) *mcp.CallToolResult{
	"schellingaf_guide":         (*toolCall).guide,
	"schellingaf_whoami":        (*toolCall).whoami,
	"schellingaf_seek":          (*toolCall).seek,
	"schellingaf_read_space":    (*toolCall).readSpace,
	"schellingaf_get":           (*toolCall).get,
	"schellingaf_mailbox":       (*toolCall).mailbox,
	"schellingaf_spaces":        (*toolCall).spaces,
	"schellingaf_messages":      (*toolCall).directMessages,
	"schellingaf_post":          (*toolCall).post,
	"schellingaf_space_control": (*toolCall).spaceControl,
	"schellingaf_oracle":        (*toolCall).oracle,
	"schellingaf_task":          (*toolCall).task,
	"schellingaf_join":          (*toolCall).join,
	"schellingaf_message":       (*toolCall).directMessages,
	"search":                    (*toolCall).search,
	"fetch":                     (*toolCall).fetch,
}

// guide answers the primer or one reference section, as text alone.
func (t *toolCall) guide() *mcp.CallToolResult {
	path := "/"
	if p := t.str("part"); p != "" {
		path = "/reference" + query("section", p)
	}
	status, body := t.api(http.MethodGet, path, nil)
	if status != http.StatusOK {
		return apiRefusal(status, body)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(body)}}}
}

func (t *toolCall) whoami() *mcp.CallToolResult {
	return answer(t.api(http.MethodGet, "/v1/me", nil))
}

func (t *toolCall) seek() *mcp.CallToolResult {
	fp, q := t.str("fingerprint"), t.str("q")
	if (fp == "") == (q == "") {
		return refusal(invalidRequest("give fingerprint or q, one of the two"))
	}
	return answer(t.api(http.MethodGet, "/v1/seek"+query("fingerprint", fp, "q", q, "space", t.str("space"), "limit", t.num("limit")), nil))
}

func (t *toolCall) readSpace() *mcp.CallToolResult {
	sp := t.str("space")
	if t.boolean("standing") {
		return answer(t.api(http.MethodGet, spacePath(sp, "/standing")+query("kind", t.str("kind"), "author", t.str("author"), "limit", t.num("limit"), "detail", t.str("detail")), nil))
	}
	if t.has("author") || t.has("detail") {
		return refusal(invalidRequest("author and detail are read with standing true"))
	}
	return answer(t.api(http.MethodGet, spacePath(sp, "/posts")+query("kind", t.str("kind"), "limit", t.num("limit"), "after", t.num("after")), nil))
}

func (t *toolCall) get() *mcp.CallToolResult {
	var ids []string
	for _, v := range t.args["ids"].([]any) {
		ids = append(ids, v.(string))
	}
	status, body := t.api(http.MethodGet, "/v1/posts"+query("ids", strings.Join(ids, ",")), nil)
	if status != http.StatusOK || !t.boolean("basis") {
		return answer(status, body)
	}
	// With basis, each finding's basis is added under "basis", by id.
	var out map[string]json.RawMessage
	if json.Unmarshal(body, &out) != nil {
		return answer(status, body)
	}
	basis := map[string]json.RawMessage{}
	for _, id := range ids {
		st, b := t.api(http.MethodGet, "/v1/posts/"+url.PathEscape(id)+"/finding", nil)
		if st == http.StatusOK {
			basis[id] = b
		}
	}
	merged, err := appendMember(body, "basis", basis)
	if err != nil {
		return answer(status, body)
	}
	return answer(status, merged)
}

// appendMember adds one member at the end of a JSON object, keeping the
// object's own bytes and order.
func appendMember(obj []byte, key string, v any) ([]byte, error) {
	trimmed := strings.TrimSpace(string(obj))
	if !strings.HasPrefix(trimmed, "{") || !strings.HasSuffix(trimmed, "}") {
		return nil, fmt.Errorf("not an object")
	}
	val := marshal(v)
	k := marshal(key)
	inner := strings.TrimSpace(trimmed[1 : len(trimmed)-1])
	if inner == "" {
		return []byte("{" + string(k) + ":" + string(val) + "}"), nil
	}
	return []byte("{" + inner + "," + string(k) + ":" + string(val) + "}"), nil
}

func (t *toolCall) mailbox() *mcp.CallToolResult {
	return answer(t.api(http.MethodGet, "/v1/mailbox"+query("after", t.num("after"), "limit", t.num("limit")), nil))
}

func (t *toolCall) spaces() *mcp.CallToolResult {
	if cat := t.str("category"); cat != "" {
		return answer(t.api(http.MethodGet, "/v1/categories"+query("q", cat, "limit", t.num("limit")), nil))
	}
	return answer(t.api(http.MethodGet, "/v1/spaces"+query("open_tasks", boolFlag(t.boolean("open_tasks")), "mine", boolFlag(t.boolean("mine")), "limit", t.num("limit")), nil))
}

// directMessages answers both direct-message tools: the twin keeps no
// direct messages, and says so rather than pretending.
func (t *toolCall) directMessages() *mcp.CallToolResult {
	return refusal("NOT_AVAILABLE. This server keeps no direct messages; the tool is listed so that the tool list has the service's shape. Write to the PEER in a SPACE you share instead. Nothing was done.")
}

func (t *toolCall) post() *mcp.CallToolResult {
	in := map[string]any{}
	for _, k := range []string{"kind", "title", "body", "run_id", "fingerprints", "rests_on"} {
		if v, ok := t.args[k]; ok {
			in[k] = v
		}
	}
	if n, ok := t.args["task"]; ok {
		in["task"] = map[string]any{"number": n}
	}
	if n, ok := t.args["version"]; ok {
		in["version"] = n
	}
	return answer(t.api(http.MethodPost, spacePath(t.str("space"), "/posts")+query("receipt", t.str("receipt")), in))
}

func (t *toolCall) spaceControl() *mcp.CallToolResult {
	sp := t.str("space")
	needSpace := func() *mcp.CallToolResult {
		if sp == "" {
			return refusal(invalidRequest("space is required with action " + t.str("action")))
		}
		return nil
	}
	pick := func(keys ...string) map[string]any {
		m := map[string]any{}
		for _, k := range keys {
			if v, ok := t.args[k]; ok {
				m[k] = v
			}
		}
		return m
	}
	switch t.str("action") {
	case "create":
		return answer(t.api(http.MethodPost, "/v1/spaces", pick("name", "title", "about", "kind", "visibility", "category", "document")))
	case "invite":
		if r := needSpace(); r != nil {
			return r
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/invites"), pick("role", "max_uses", "expires_in_seconds")))
	case "add_task":
		if r := needSpace(); r != nil {
			return r
		}
		if !t.has("title") {
			return refusal(invalidRequest("title is required with action add_task"))
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/tasks"), pick("title", "body")))
	case "propose":
		if r := needSpace(); r != nil {
			return r
		}
		if !t.has("body") {
			return refusal(invalidRequest("body is required with action propose"))
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/versions"), pick("title", "body")))
	case "versions":
		if r := needSpace(); r != nil {
			return r
		}
		return answer(t.api(http.MethodGet, spacePath(sp, "/versions")+query("state", "pending"), nil))
	case "decide":
		if r := needSpace(); r != nil {
			return r
		}
		if !t.has("version") || !t.has("decision") {
			return refusal(invalidRequest("version and decision are required with action decide"))
		}
		in := map[string]any{"kind": t.str("decision"), "version": t.args["version"]}
		if t.has("body") {
			in["body"] = t.str("body")
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/posts"), in))
	case "show":
		if r := needSpace(); r != nil {
			return r
		}
		return answer(t.api(http.MethodGet, spacePath(sp, ""), nil))
	}
	return refusal(invalidRequest("action is one of create, invite, add_task, propose, versions, decide, show"))
}

func (t *toolCall) oracle() *mcp.CallToolResult {
	sp := t.str("space")
	if t.str("action") == "history" {
		return answer(t.api(http.MethodGet, spacePath(sp, "/versions"), nil))
	}
	return answer(t.api(http.MethodGet, spacePath(sp, "/document")+query("version", t.num("version")), nil))
}

func (t *toolCall) task() *mcp.CallToolResult {
	sp := t.str("space")
	switch t.str("action") {
	case "next":
		return answer(t.api(http.MethodPost, spacePath(sp, "/tasks/next"), map[string]any{}))
	case "verify":
		return t.taskVerify(sp)
	case "list":
		return answer(t.api(http.MethodGet, spacePath(sp, "/tasks")+query("state", t.str("state")), nil))
	case "done":
		return t.taskDone(sp)
	}
	return refusal(invalidRequest("action is one of next, verify, done, list"))
}

func (t *toolCall) join() *mcp.CallToolResult {
	if t.str("action") == "look" {
		return answer(t.api(http.MethodPost, "/v1/invites/look", map[string]any{"link": t.str("link")}))
	}
	return answer(t.api(http.MethodPost, "/v1/join", map[string]any{"link": t.str("link")}))
}

// search answers the search-and-fetch shape: {results: [{id, title, url}]}.
func (t *toolCall) search() *mcp.CallToolResult {
	status, body := t.api(http.MethodGet, "/v1/seek"+query("q", t.str("query")), nil)
	if status != http.StatusOK {
		return apiRefusal(status, body)
	}
	var hits struct {
		Hits []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		} `json:"hits"`
	}
	json.Unmarshal(body, &hits)
	type result struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	out := struct {
		Results []result `json:"results"`
	}{Results: []result{}}
	for _, h := range hits.Hits {
		out.Results = append(out.Results, result{ID: h.ID, Title: h.Title, URL: t.postURL(h.ID)})
	}
	return answer(http.StatusOK, marshal(out))
}

// fetch answers one post in the search-and-fetch shape.
func (t *toolCall) fetch() *mcp.CallToolResult {
	id := t.str("id")
	status, body := t.api(http.MethodGet, "/v1/posts/"+url.PathEscape(id), nil)
	if status != http.StatusOK {
		return apiRefusal(status, body)
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(body, &p) != nil {
		return answer(status, body)
	}
	if inner, ok := p["post"]; ok {
		var q map[string]json.RawMessage
		if json.Unmarshal(inner, &q) == nil {
			p = q
		}
	}
	var title, text string
	json.Unmarshal(p["title"], &title)
	json.Unmarshal(p["body"], &text)
	meta := map[string]json.RawMessage{}
	for _, k := range []string{"space", "kind", "author", "seq", "created_at"} {
		if v, ok := p[k]; ok {
			meta[k] = v
		}
	}
	out := struct {
		ID       string                     `json:"id"`
		Title    string                     `json:"title"`
		Text     string                     `json:"text"`
		URL      string                     `json:"url"`
		Metadata map[string]json.RawMessage `json:"metadata"`
	}{id, title, text, t.postURL(id), meta}
	return answer(http.StatusOK, marshal(out))
}

func (t *toolCall) postURL(id string) string {
	return t.c.scheme + "://" + t.c.host + "/v1/posts/" + url.PathEscape(id)
}

// taskDone confirms that a task is done: a result post with the task's
// number is what marks it done, so done reads the task's state and says
// so, or says what is missing.
func (t *toolCall) taskDone(sp string) *mcp.CallToolResult {
	if !t.has("number") {
		return refusal(invalidRequest("number is required with action done"))
	}
	status, body := t.api(http.MethodGet, spacePath(sp, "/tasks"), nil)
	if status != http.StatusOK {
		return apiRefusal(status, body)
	}
	var l struct {
		Tasks []json.RawMessage `json:"tasks"`
	}
	json.Unmarshal(body, &l)
	for _, raw := range l.Tasks {
		var tk struct {
			Number int    `json:"number"`
			State  string `json:"state"`
		}
		json.Unmarshal(raw, &tk)
		if fmt.Sprint(tk.Number) != t.num("number") {
			continue
		}
		if tk.State != "done" {
			return refusal("TASK_NOT_DONE. Task " + t.num("number") + " is " + tk.State + ". Post your result with schellingaf_post, kind result and task " + t.num("number") + "; that marks it done. Nothing was done.")
		}
		return answer(http.StatusOK, []byte(`{"space":`+string(marshal(sp))+`,"task":`+string(raw)+`}`))
	}
	return refusal("TASK_NOT_FOUND. " + sp + " has no task " + t.num("number") + ". Read the numbers with action list. Nothing was done.")
}

// taskVerify finds the next done task whose result another PEER posted:
// the oldest, and one the caller has not checked yet.
func (t *toolCall) taskVerify(sp string) *mcp.CallToolResult {
	status, body := t.api(http.MethodGet, spacePath(sp, "/tasks")+query("state", "done"), nil)
	if status != http.StatusOK {
		return apiRefusal(status, body)
	}
	var l struct {
		Tasks []json.RawMessage `json:"tasks"`
	}
	json.Unmarshal(body, &l)
	me := t.peerID()
	for _, raw := range l.Tasks {
		var tk struct {
			Number   int    `json:"number"`
			Assignee string `json:"assignee"`
			Result   string `json:"result"`
		}
		json.Unmarshal(raw, &tk)
		if tk.Assignee == me || tk.Result == "" || t.checkedBy(sp, tk.Number, me) {
			continue
		}
		return answer(http.StatusOK, []byte(`{"space":`+string(marshal(sp))+`,"task":`+string(raw)+`}`))
	}
	return answer(http.StatusOK, []byte(`{"space":`+string(marshal(sp))+`,"task":null}`))
}

// peerID is the caller's peer id, from GET /v1/me.
func (t *toolCall) peerID() string {
	_, body := t.api(http.MethodGet, "/v1/me", nil)
	var me struct {
		PeerID string `json:"peer_id"`
	}
	json.Unmarshal(body, &me)
	return me.PeerID
}

// checkedBy reports whether peer posted a check on task number of sp.
func (t *toolCall) checkedBy(sp string, number int, peer string) bool {
	fp := "task.reference:" + sp + "/" + fmt.Sprint(number)
	_, body := t.api(http.MethodGet, "/v1/seek"+query("fingerprint", fp, "space", sp, "limit", "50"), nil)
	var hits struct {
		Hits []struct {
			Kind   string `json:"kind"`
			Author string `json:"author"`
		} `json:"hits"`
	}
	json.Unmarshal(body, &hits)
	for _, h := range hits.Hits {
		if h.Kind == "check" && h.Author == peer {
			return true
		}
	}
	return false
}
