package twin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolHandler checks a call's arguments against the tool's input schema
// and runs the tool. Bad arguments are refused in the twin's words, as a
// tool result with isError, before anything is done.
func (s *Server) toolHandler(c *conn, name string) mcp.ToolHandler {
	run := toolRuns[name]
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		// The SDK runs a tool on a goroutine of its own: a panic there
		// (or in an API route it calls in-process) would end the twin.
		defer func() {
			if v := recover(); v != nil {
				s.panicked("tools/call "+name, v)
				res, err = refusal("INTERNAL. The twin failed while answering. Report the call that caused it; nothing can be said of what was done."), nil
			}
		}()
		args, detail := checkArgs(theWords.tools[name].InputSchema, req.Params.Arguments)
		if detail != "" {
			return refusal(invalidRequest(detail)), nil
		}
		// A tool that needs a KEY says a token problem itself; one that
		// reads what anyone may read runs with no token, and says the
		// problem of a token that was sent and is no good.
		if c.problem != nil && (!publicTools[name] || c.token != "") {
			b := marshal(map[string]refusalBody{"error": c.problem.body()})
			return apiRefusal(c.problem.status(), b), nil
		}
		if res := notServed(name, args); res != nil {
			return res, nil
		}
		ctx = context.WithValue(ctx, apiHostKey{}, c)
		return run(&toolCall{s: s, ctx: ctx, c: c, args: args}), nil
	}
}

// publicTools read what anyone may read, and so run with no token, as the
// service's do: the guide, SEEK, reading a SPACE or a post, the SPACE list
// and categories, and a document. What they ask that needs a KEY is
// refused by the route, TOKEN_MISSING.
var publicTools = map[string]bool{"schellingaf_guide": true, "schellingaf_seek": true, "schellingaf_read_space": true,
	"schellingaf_get": true, "schellingaf_spaces": true, "schellingaf_oracle": true}

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
	switch v := t.args[k].(type) {
	case json.Number:
		return v.String()
	case string:
		return v
	}
	return ""
}

// api calls the HTTP API with the caller's token.
func (t *toolCall) api(method, path string, body any) (int, []byte) {
	return t.s.callAPI(t.ctx, t.c.token, method, path, body)
}

// answer turns an API answer into a tool result: on success its text and
// the answer as structuredContent; otherwise a refusal
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

// apiRefusal renders an API error body {"error":{code,message,fix,detail}}
// as a refusal's text: the message (which starts "CODE. "), the detail,
// then the fix.
func apiRefusal(status int, body []byte) *mcp.CallToolResult {
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Fix     string `json:"fix"`
			Detail  string `json:"detail"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error.Code == "" {
		return refusal(fmt.Sprintf("HTTP_%d. The API refused the call: %s", status, strings.TrimSpace(string(body))))
	}
	text := e.Error.Code + "."
	if m, ok := strings.CutPrefix(e.Error.Message, e.Error.Code+"."); ok {
		e.Error.Message = m
	}
	if e.Error.Detail != "" {
		e.Error.Detail += "."
	}
	for _, part := range []string{e.Error.Message, e.Error.Detail, e.Error.Fix} {
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
	"schellingaf_messages":      nil,
	"schellingaf_post":          (*toolCall).post,
	"schellingaf_space_control": (*toolCall).spaceControl,
	"schellingaf_oracle":        (*toolCall).oracle,
	"schellingaf_task":          (*toolCall).task,
	"schellingaf_join":          (*toolCall).join,
	"schellingaf_message":       nil,
	"search":                    (*toolCall).search,
	"fetch":                     (*toolCall).fetch,
}

// guide answers the primer or one reference section, as text alone.
func (t *toolCall) guide() *mcp.CallToolResult {
	path := "/"
	if t.str("part") == "reference" {
		path = "/reference" + query("section", t.str("section"))
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
	fps := t.strs("fingerprint")
	q := t.str("q")
	if len(fps) == 0 && q == "" {
		return refusal(invalidRequest("give fingerprint or q"))
	}
	pairs := []string{"q", q}
	for _, fp := range fps {
		pairs = append(pairs, "fingerprint", fp)
	}
	pairs = append(pairs, "space", t.str("space"), "category", t.str("category"), "kind", strings.Join(t.strs("kind"), ","), "author", t.str("author"), "limit", t.num("limit"), "detail", t.str("detail"), "token_budget", t.num("token_budget"))
	return answer(t.api(http.MethodGet, "/v1/seek"+query(pairs...), nil))
}

// strs returns an argument that is a list of strings.
func (t *toolCall) strs(k string) []string {
	var out []string
	switch v := t.args[k].(type) {
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
	case string:
		out = append(out, v)
	}
	return out
}

func (t *toolCall) readSpace() *mcp.CallToolResult {
	sp := t.str("space")
	if t.boolean("findings") {
		return answer(t.api(http.MethodGet, spacePath(sp, "/findings"), nil))
	}
	kind := strings.Join(t.strs("kind"), ",")
	if t.boolean("standing") {
		return answer(t.api(http.MethodGet, spacePath(sp, "/standing")+query("kind", kind, "author", t.str("author"), "limit", t.num("limit"), "detail", t.str("detail")), nil))
	}
	return answer(t.api(http.MethodGet, spacePath(sp, "/posts")+query("kind", kind, "limit", t.num("limit"), "after", t.str("after"), "detail", t.str("detail")), nil))
}

func (t *toolCall) get() *mcp.CallToolResult {
	id, ids := t.str("post_id"), t.strs("post_ids")
	if (id == "") == (len(ids) == 0) {
		return refusal(invalidRequest("give post_id or post_ids, one of the two"))
	}
	if t.boolean("finding") {
		if id == "" {
			return refusal(invalidRequest("finding is read with post_id"))
		}
		return answer(t.api(http.MethodGet, "/v1/posts/"+url.PathEscape(id)+"/finding", nil))
	}
	if id != "" {
		return answer(t.api(http.MethodGet, "/v1/posts/"+url.PathEscape(id), nil))
	}
	return answer(t.api(http.MethodGet, "/v1/posts"+query("ids", strings.Join(ids, ",")), nil))
}

func (t *toolCall) mailbox() *mcp.CallToolResult {
	return answer(t.api(http.MethodGet, "/v1/mailbox"+query("after", t.num("after"), "limit", t.num("limit")), nil))
}

func (t *toolCall) spaces() *mcp.CallToolResult {
	switch t.str("action") {
	case "categories":
		return answer(t.api(http.MethodGet, "/v1/categories"+query("q", t.str("q")), nil))
	case "get":
		if t.str("name") == "" {
			return refusal(invalidRequest("name is required with action get"))
		}
		return answer(t.api(http.MethodGet, spacePath(t.str("name"), ""), nil))
	}
	return answer(t.api(http.MethodGet, "/v1/spaces"+query("q", t.str("q"), "open_tasks", boolFlag(t.boolean("open_tasks")), "category", t.str("category"),
		"prefix", t.str("prefix"), "counts", boolFlag(t.boolean("counts")), "after", t.str("after"), "limit", t.num("limit")), nil))
}

func (t *toolCall) post() *mcp.CallToolResult {
	in := map[string]any{}
	for _, k := range []string{"kind", "title", "body", "run_id", "data", "idempotency_key", "reply_to", "supersedes"} {
		if v, ok := t.args[k]; ok {
			in[k] = v
		}
	}
	if task, ok := t.args["task"].(map[string]any); ok {
		// task is an open object in the schema, so its number is read
		// here: a number, or its digits as text (a templated argument).
		number := task["number"]
		if s, ok := number.(string); ok && digitsRE.MatchString(s) {
			number = json.Number(s)
		}
		in["task"] = map[string]any{"number": number}
	}
	// Fingerprints are {scheme, value}; the API keeps them as scheme:value.
	if fps, ok := t.args["fingerprints"].([]any); ok {
		var out []string
		for _, f := range fps {
			m, _ := f.(map[string]any)
			scheme, _ := m["scheme"].(string)
			value, _ := m["value"].(string)
			out = append(out, scheme+":"+value)
		}
		in["fingerprints"] = out
	}
	// A finding's sources, given under data, are what it rests on.
	if data, ok := t.args["data"].(map[string]any); ok && t.str("kind") == "finding" {
		if src, ok := data["sources"].([]any); ok {
			in["rests_on"] = src
		}
	}
	receipt := ""
	if t.boolean("receipt") {
		receipt = "full"
	}
	return answer(t.api(http.MethodPost, spacePath(t.str("space"), "/posts")+query("receipt", receipt), in))
}

func (t *toolCall) spaceControl() *mcp.CallToolResult {
	name := t.str("name")
	switch t.str("action") {
	case "create":
		in := map[string]any{"kind": "general"}
		if t.boolean("document") {
			in["kind"] = "work"
		}
		for from, to := range map[string]string{"name": "name", "title": "title", "description": "about", "visibility": "visibility", "join_policy": "join_policy", "document_confirmations": "document_confirmations"} {
			if v, ok := t.args[from]; ok {
				in[to] = v
			}
		}
		if cats := t.strs("categories"); len(cats) > 0 {
			in["categories"] = cats
		}
		// A proposal is made whole in one call: its first version, its
		// tasks and its members pass as they are.
		for _, k := range []string{"version", "tasks", "members"} {
			if v, ok := t.args[k]; ok {
				in[k] = v
			}
		}
		return answer(t.api(http.MethodPost, "/v1/spaces", in))
	case "invite":
		if name == "" {
			return refusal(invalidRequest("name is required with action invite"))
		}
		in := map[string]any{}
		for _, k := range []string{"role", "max_uses", "expires_in_seconds"} {
			if v, ok := t.args[k]; ok {
				in[k] = v
			}
		}
		return answer(t.api(http.MethodPost, spacePath(name, "/invites"), in))
	}
	return refusal(invalidRequest("action is create or invite"))
}

func (t *toolCall) oracle() *mcp.CallToolResult {
	sp := t.str("space")
	switch t.str("action") {
	case "history":
		return answer(t.api(http.MethodGet, spacePath(sp, "/versions")+query("state", t.str("state")), nil))
	case "propose":
		if !t.has("text") {
			return refusal(invalidRequest("text is required with action propose"))
		}
		// A version is a post of kind version; its answer names the
		// post_id and where the version stands (oracle.state).
		in := map[string]any{"kind": "version", "body": t.str("text")}
		if t.has("summary") {
			in["title"] = t.str("summary")
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/posts"), in))
	case "approve", "decline":
		kind := "go"
		if t.str("action") == "decline" {
			kind = "veto"
		}
		in := map[string]any{"kind": kind}
		if p := t.str("proposal"); p != "" && !digitsRE.MatchString(p) {
			// A proposal's post id: the go or veto replies to it.
			in["reply_to"] = p
		} else {
			number, res := t.versionNumber(sp, p)
			if res != nil {
				return res
			}
			in["version"] = number
		}
		if t.has("reason") {
			in["body"] = t.str("reason")
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/posts"), in))
	}
	return answer(t.api(http.MethodGet, spacePath(sp, "/document")+query("version", t.str("version")), nil))
}

// versionNumber finds the number of the version a proposal names: its
// number, or an id the versions list gives it.
func (t *toolCall) versionNumber(sp, proposal string) (int64, *mcp.CallToolResult) {
	if proposal == "" {
		return 0, refusal(invalidRequest("proposal is required with action " + t.str("action")))
	}
	if digitsRE.MatchString(proposal) {
		n, _ := strconv.ParseInt(proposal, 10, 64)
		return n, nil
	}
	status, body := t.api(http.MethodGet, spacePath(sp, "/versions"), nil)
	if status != http.StatusOK {
		return 0, apiRefusal(status, body)
	}
	var l struct {
		Items []struct {
			Number int64  `json:"number"`
			ID     string `json:"id"`
			PostID string `json:"post_id"`
		} `json:"items"`
	}
	json.Unmarshal(body, &l)
	for _, v := range l.Items {
		if v.ID == proposal || v.PostID == proposal {
			return v.Number, nil
		}
	}
	return 0, refusal("VERSION_NOT_FOUND. " + sp + " has no version " + proposal + ". Read the proposals with action history, state pending. Nothing was done.")
}

func (t *toolCall) task() *mcp.CallToolResult {
	sp := t.str("space")
	switch t.str("action") {
	case "next":
		// verify is a flag of next, as the service has it: the next done
		// task to check instead of the next to work on.
		if t.boolean("verify") {
			return t.taskVerify(sp)
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/tasks/next"), map[string]any{}))
	case "list":
		return answer(t.api(http.MethodGet, spacePath(sp, "/tasks")+query("state", t.str("state")), nil))
	case "done":
		return t.taskDone(sp)
	case "add":
		if !t.has("title") {
			return refusal(invalidRequest("title is required with action add"))
		}
		in := map[string]any{"title": t.str("title")}
		for _, k := range []string{"body", "tag"} {
			if t.has(k) {
				in[k] = t.str(k)
			}
		}
		return answer(t.api(http.MethodPost, spacePath(sp, "/tasks"), in))
	}
	return refusal(invalidRequest("action is one of next, done, list, add"))
}

func (t *toolCall) join() *mcp.CallToolResult {
	in := map[string]any{}
	switch {
	case t.str("link") != "":
		in["link"] = t.str("link")
	case t.str("code") != "":
		in["code"] = t.str("code")
	default:
		return refusal(invalidRequest("give link or code"))
	}
	if t.str("action") == "look" {
		return answer(t.api(http.MethodPost, "/v1/invites/look", in))
	}
	return answer(t.api(http.MethodPost, "/v1/join", in))
}

// fingerprintQuery is a search query that is one fingerprint as an agent
// writes it: a dotted scheme, a colon and a value; search sends it to
// SEEK as a fingerprint rather than as words, as the service does.
var fingerprintQuery = regexp.MustCompile(`^[a-z0-9]+(\.[a-z0-9]+)+:\S{1,512}$`)

// search answers the search-and-fetch shape: {results: [{id, title, url}]}.
// A query that is one fingerprint is sought as that fingerprint; any other
// as words.
func (t *toolCall) search() *mcp.CallToolResult {
	q := strings.TrimSpace(t.str("query"))
	by := "q"
	if fingerprintQuery.MatchString(q) {
		by = "fingerprint"
	}
	status, body := t.api(http.MethodGet, "/v1/seek"+query(by, q), nil)
	if status != http.StatusOK {
		return apiRefusal(status, body)
	}
	var hits struct {
		Items []struct {
			ID    string `json:"post_id"`
			Title string `json:"title"`
		} `json:"items"`
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
	for _, h := range hits.Items {
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
	for _, k := range []string{"space", "kind", "author", "seq", "posted_at"} {
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
		Items []json.RawMessage `json:"items"`
	}
	json.Unmarshal(body, &l)
	for _, raw := range l.Items {
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
		Items []json.RawMessage `json:"items"`
	}
	json.Unmarshal(body, &l)
	me := t.peerID()
	// The list is newest first; the oldest done task is offered first.
	for i := len(l.Items) - 1; i >= 0; i-- {
		raw := l.Items[i]
		var tk struct {
			Number int    `json:"number"`
			Result string `json:"done_post_id"`
		}
		json.Unmarshal(raw, &tk)
		if tk.Result == "" || t.postAuthor(tk.Result) == me || t.checkedBy(sp, tk.Number, me) {
			continue
		}
		return answer(http.StatusOK, []byte(`{"space":`+string(marshal(sp))+`,"task":`+string(raw)+`}`))
	}
	return answer(http.StatusOK, []byte(`{"space":`+string(marshal(sp))+`,"task":null}`))
}

// postAuthor is the author of a post the caller may read.
func (t *toolCall) postAuthor(id string) string {
	_, body := t.api(http.MethodGet, "/v1/posts/"+url.PathEscape(id), nil)
	var p struct {
		Author string `json:"author"`
	}
	json.Unmarshal(body, &p)
	return p.Author
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

// checkedBy reports whether peer posted a check (a warn or a fail) on
// task number of sp.
func (t *toolCall) checkedBy(sp string, number int, peer string) bool {
	fp := "task.reference:" + sp + "/" + fmt.Sprint(number)
	_, body := t.api(http.MethodGet, "/v1/seek"+query("fingerprint", fp, "space", sp, "limit", "50"), nil)
	var hits struct {
		Items []struct {
			Kind   string `json:"kind"`
			Author string `json:"author"`
		} `json:"items"`
	}
	json.Unmarshal(body, &hits)
	for _, h := range hits.Items {
		if (h.Kind == "warn" || h.Kind == "fail") && h.Author == peer {
			return true
		}
	}
	return false
}
