package twin

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP connector.
//
// Two addresses serve it: /mcp for a KEY's token, and /mcp/connect for an
// app token from OAuth, which adds the search and fetch tools. Before the
// SDK sees a request, the connector sets the headers every answer carries
// (Cache-Control, Vary, X-Request-Id), checks the bearer token (401), and
// refuses what the service refuses with HTTP 400 and JSON-RPC -32600: a
// batch body, and at /mcp a tools parameter that is not one known set.
// Then a new SDK server is built for the one request (stateless: no session
// id; tools/call works without initialize), holding the address's tools or
// the set's. Its tools call the HTTP API in-process through the server's
// mux, with the caller's token.
//
// Cache hints: the SDK (v1.8.0) writes the 2026-07-28 cache fields, ttlMs
// and cacheScope, at the top of every list and server/discover result; the
// connector decides them in ServerOptions.SetCacheable. tools/list at /mcp
// and /mcp/connect is public for an hour (ttlMs 3600000); at a set it is
// private with ttlMs 0, so no cache keyed without the query serves one
// set's list for another. server/discover is public for an hour at every
// address: the instructions are the same everywhere.
//
// server/discover and the 2026-07-28 headers (MCP-Protocol-Version,
// Mcp-Method, Mcp-Name) are the SDK's own: it answers discover with the
// supported versions, capabilities, instructions and cache hints, and
// serverInfo in the result's _meta. initialize answers 2025-06-18 and
// 2025-11-25 as asked.

const (
	// cacheTTLPublic is the ttlMs of a public list, an hour.
	cacheTTLPublic = 3600000
	// cacheTTLResources is the ttlMs of the resource list, a minute: it
	// names the caller's SPACEs, so it is private.
	cacheTTLResources = 60000
	// siteOrigin is the twin's stand-in for the service's site, which its
	// server info points at: as long as the site the service's test
	// names, under a name reserved for tests.
	siteOrigin = "https://sites.twin.test"
)

// serverInfo is what the connector says of itself: its name and version,
// and, as a service with a site does, the name as said, where to read
// about it and its two icons (a PNG of 512x512 and an SVG of any size).
func serverInfo() *mcp.Implementation {
	return &mcp.Implementation{Name: "schellingaf", Version: "0.1.0", Title: "Schelling Add Forward",
		WebsiteURL: siteOrigin + "/api", Icons: []mcp.Icon{
			{Source: siteOrigin + "/logo/schelling-icon-512.png", MIMEType: "image/png", Sizes: []string{"512x512"}},
			{Source: siteOrigin + "/logo/favicon.svg", MIMEType: "image/svg+xml", Sizes: []string{"any"}},
		}}
}

// cacheHint is how long a client may keep the answer to req, and who may:
// every list an hour and public, but at a toolset the tool and prompt
// lists (that set's) private and never kept, and the resource list (the
// caller's SPACEs) private for a minute; a document read five minutes and
// public when it is the same for every caller, else private and never kept.
func cacheHint(req mcp.Request, set bool) (ttlMs int, scope string) {
	switch r := req.(type) {
	case *mcp.ListToolsRequest, *mcp.ListPromptsRequest:
		if set {
			return 0, "private"
		}
	case *mcp.ListResourcesRequest:
		return cacheTTLResources, "private"
	case *mcp.ReadResourceRequest:
		if r.Params != nil && sharedResource(r.Params.URI) {
			return sharedTTL, "public"
		}
		return 0, "private"
	}
	return cacheTTLPublic, "public"
}

// connKey is the context key of the connection a request speaks for.
type connKey struct{}

// conn is what one connector request needs: who asked, at which address,
// with which tools.
type conn struct {
	token string
	// problem is why the token cannot be used at /mcp (none sent, unknown,
	// expired, or an app's), or nil for a KEY's valid token.
	problem *apiError
	connect bool
	set     *Toolset
	host    string
	scheme  string
}

// routesConnector mounts the MCP connector at /mcp and /mcp/connect.
func (s *Server) routesConnector(mux *http.ServeMux) {
	mux.Handle("/mcp", s.connectorHandler(false))
	mux.Handle("/mcp/connect", s.connectorHandler(true))
}

// connectorHandler serves one connector address; connect is true at
// /mcp/connect.
func (s *Server) connectorHandler(connect bool) http.Handler {
	sdk := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		c, _ := r.Context().Value(connKey{}).(*conn)
		if c == nil {
			return nil
		}
		return s.newMCPServer(c)
	}, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: s.opts.JSONAnswers,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-cache, no-transform")
		h.Set("Vary", "Accept, Authorization")
		h.Set("X-Request-Id", newRequestID())

		// /mcp never answers a token problem with a status, as the
		// service's does not: a client meeting 401 where it expected tool
		// output takes the server for dead. Its tools say the problem
		// instead (conn.problem). /mcp/connect answers 401, as OAuth wants.
		p, ok := s.principal(r)
		var problem *apiError
		if !ok || p.App != connect {
			if connect {
				refuseUnauthorized(w, r)
				return
			}
			problem = s.tokenProblem(r)
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxConnectorBodyBytes+1))
		if err != nil {
			writeRPCError(w, http.StatusBadRequest, nil, "INVALID_REQUEST. The request body could not be read. Send it again.")
			return
		}
		if len(body) > MaxConnectorBodyBytes {
			tooLarge(w, r)
			return
		}
		if t := bytes.TrimLeft(body, " \t\r\n"); len(t) > 0 && t[0] == '[' {
			writeRPCError(w, http.StatusBadRequest, nil, invalidRequest("one JSON-RPC message per request; a batch is not taken"))
			return
		}
		var set *Toolset
		if !connect {
			var ok bool
			if set, ok = parseToolsParam(r); !ok {
				writeRPCError(w, http.StatusBadRequest, requestID(body), invalidRequest("tools is tasks, research or coordinate, or absent for every tool"))
				return
			}
		}
		if r.Method == http.MethodPost {
			switch t := bytes.TrimSpace(body); {
			case len(t) == 0:
				writeRPCError(w, http.StatusBadRequest, nil, invalidRequest("the body is one JSON-RPC message; it was empty"))
				return
			case !json.Valid(t):
				writeRPCErrorCode(w, http.StatusBadRequest, nil, -32700, "PARSE_ERROR. The request body is not JSON. Send one JSON-RPC message as a JSON object.")
				return
			case t[0] != '{':
				writeRPCError(w, http.StatusBadRequest, nil, invalidRequest("the body is one JSON-RPC message, a JSON object"))
				return
			}
		}
		c := &conn{token: bearerToken(r), problem: problem, connect: connect, set: set, host: r.Host, scheme: "http"}
		if r.TLS != nil {
			c.scheme = "https"
		}
		jw := &rpcErrorWriter{ResponseWriter: w, id: requestID(body)}
		if swapped, ph, id, ok := swapID(body); ok {
			body, jw.ids = swapped, &idWriter{placeholder: ph, id: id}
		}
		r2 := r.WithContext(context.WithValue(r.Context(), connKey{}, c))
		r2.Body = io.NopCloser(bytes.NewReader(body))
		r2.ContentLength = int64(len(body))
		sdk.ServeHTTP(jw, r2)
		jw.finish()
	})
}

// rpcErrorWriter turns the SDK's plain-text refusals (http.Error: a wrong
// method, a wrong Accept or Content-Type, an unknown JSON-RPC method) into
// JSON-RPC error bodies with the same HTTP status, so that every refusal at
// the connector is JSON, as the service's are. Everything else passes
// through untouched, event streams included.
type rpcErrorWriter struct {
	http.ResponseWriter
	id      json.RawMessage
	ids     *idWriter // a numeric id's placeholder to put back (rpcid.go)
	status  int       // set when the answer is a plain-text refusal being held
	held    bytes.Buffer
	written bool
}

// WriteHeader holds a plain-text refusal; it passes anything else on.
func (w *rpcErrorWriter) WriteHeader(code int) {
	if w.written || w.status != 0 {
		return
	}
	if code >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = code
		return
	}
	w.written = true
	w.Header().Del("Content-Length") // an id put back, an error in plain words: the length may change
	w.ResponseWriter.WriteHeader(code)
}

// Write keeps a held refusal's text; it passes anything else on.
func (w *rpcErrorWriter) Write(p []byte) (int, error) {
	if w.status != 0 {
		return w.held.Write(p)
	}
	if !w.written {
		w.Header().Del("Content-Length") // an id put back, an error in plain words: the length may change
	}
	w.written = true
	if _, err := w.ResponseWriter.Write(plainErrors(w.ids.restore(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush passes a flush on, so event streams go out as they are written.
func (w *rpcErrorWriter) Flush() {
	if w.status == 0 {
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *rpcErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes a held refusal as a JSON-RPC error.
func (w *rpcErrorWriter) finish() {
	if w.status == 0 {
		return
	}
	text := strings.TrimSpace(w.held.String())
	w.Header().Del("X-Content-Type-Options")
	switch {
	case w.status == http.StatusMethodNotAllowed:
		writeRPCErrorCode(w.ResponseWriter, w.status, nil, -32000, "METHOD_NOT_ALLOWED. The connector takes POST only: one JSON-RPC message per request, no session and no GET stream. Send the message with POST.")
	case strings.Contains(text, "not handled"):
		writeRPCErrorCode(w.ResponseWriter, w.status, w.id, -32601, "METHOD_NOT_FOUND. The connector does not serve that method ("+clip(text, 200)+"). Use initialize, server/discover, tools/list or tools/call.")
	default:
		writeRPCError(w.ResponseWriter, w.status, w.id, invalidRequest(clip(text, 200)))
	}
}

// parseToolsParam reads the tools query parameter: absent or empty means
// every tool (nil); one known set name means that set. Anything else, a
// second value or a comma list included, is not ok.
func parseToolsParam(r *http.Request) (*Toolset, bool) {
	vals, present := r.URL.Query()["tools"]
	if !present {
		return nil, true
	}
	if len(vals) != 1 {
		return nil, false
	}
	if vals[0] == "" {
		return nil, true
	}
	set, ok := toolset(vals[0])
	if !ok {
		return nil, false
	}
	return &set, true
}

// invalidRequest is the INVALID_REQUEST message with detail in brackets.
func invalidRequest(detail string) string {
	return "INVALID_REQUEST. The request's body or query does not hold. (" + detail + ") Correct what the detail names and send the request again."
}

// requestID returns the id of a JSON-RPC request body, or nil when there
// is none to read.
func requestID(body []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	switch m.ID[0] {
	case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return m.ID
	}
	return nil
}

// writeRPCError answers a JSON-RPC error -32600 with an HTTP status.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, message string) {
	writeRPCErrorCode(w, status, id, -32600, message)
}

// writeRPCErrorCode answers a JSON-RPC error with an HTTP status.
func writeRPCErrorCode(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	msg, _ := json.Marshal(message)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(id)+`,"error":{"code":`+strconv.Itoa(code)+`,"message":`+string(msg)+`}}`)
}

// refuseUnauthorized answers /mcp/connect's 401 for a missing, wrong or
// expired token, or a KEY's, in OAuth's words as the service does: error
// and error_description (the twin's own, as long as the service's), with
// the challenge that names where the sign-in rules are.
func refuseUnauthorized(w http.ResponseWriter, r *http.Request) {
	challenge := `Bearer resource_metadata="` + baseURL(r) + `/.well-known/oauth-protected-resource/mcp/connect"`
	body := map[string]string{"error": "unauthorized", "error_description": "Sign in first: this address takes only a token given to an app, for it."}
	if bearerToken(r) != "" {
		challenge += `, error="invalid_token"`
		body = map[string]string{"error": "invalid_token",
			"error_description": "That token is no good at this address: expired, revoked, or given for another address. Sign in once more."}
	}
	w.Header().Set("WWW-Authenticate", challenge)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusUnauthorized, object{{"error", body["error"]}, {"error_description", body["error_description"]}})
}

// tokenProblem is why /mcp cannot use the request's token: none sent
// (TOKEN_MISSING), one never handed out or an app's (TOKEN_INVALID: an app
// token is for /mcp/connect alone), or one expired (TOKEN_EXPIRED).
func (s *Server) tokenProblem(r *http.Request) *apiError {
	s.api.mu.Lock()
	defer s.api.mu.Unlock()
	if t := s.api.tokens[bearerToken(r)]; t != nil && t.App && s.api.now().Before(t.Expires) {
		return refuse("TOKEN_INVALID", "", "Use /mcp with a KEY's token, or /mcp/connect with this app token.")
	}
	return s.api.tokenRefusal(r)
}

// bearerToken returns the request's bearer token, or "".
func bearerToken(r *http.Request) string {
	a := r.Header.Get("Authorization")
	if len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
		return strings.TrimSpace(a[7:])
	}
	return ""
}

// newRequestID returns a fresh request id.
func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newMCPServer builds the SDK server for one request.
func (s *Server) newMCPServer(c *conn) *mcp.Server {
	srv := mcp.NewServer(serverInfo(), &mcp.ServerOptions{
		Instructions: Instructions(),
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Prompts: &mcp.PromptCapabilities{},
			Resources: &mcp.ResourceCapabilities{}},
		SetCacheable: func(_ context.Context, req mcp.Request, cc *mcp.Cacheable) {
			cc.TTLMs, cc.CacheScope = cacheHint(req, c.set != nil)
		},
	})
	for _, name := range c.toolNames() {
		srv.AddTool(toolDef(name), s.toolHandler(c, name))
	}
	addPrompts(srv, c.toolNames())
	s.addResources(srv, c)
	srv.AddReceivingMiddleware(listInOrder(c.toolNames(), promptsFor(c.toolNames())))
	if c.set != nil {
		srv.AddReceivingMiddleware(notInToolset(c.set))
	}
	return srv
}

// listInOrder puts a tools/list and a prompts/list result in the
// connection's order: the SDK lists both sorted by name, the service in
// its own order.
func listInOrder(tools, prompts []string) mcp.Middleware {
	rank := map[string]int{}
	for i, n := range tools {
		rank[n] = i
	}
	promptRank := map[string]int{}
	for i, n := range prompts {
		promptRank[n] = i
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			switch l := res.(type) {
			case *mcp.ListToolsResult:
				slices.SortStableFunc(l.Tools, func(a, b *mcp.Tool) int { return rank[a.Name] - rank[b.Name] })
			case *mcp.ListPromptsResult:
				slices.SortStableFunc(l.Prompts, func(a, b *mcp.Prompt) int { return promptRank[a.Name] - promptRank[b.Name] })
			}
			return res, err
		}
	}
}

// toolNames are the tools this connection lists, in order.
func (c *conn) toolNames() []string {
	switch {
	case c.connect:
		return append(append([]string{}, mcpTools...), connectTools...)
	case c.set != nil:
		return c.set.Tools
	}
	return mcpTools
}

// notInToolset answers a tools/call of a tool /mcp holds but set leaves
// out with a NOT_IN_TOOLSET tool result, so the set's list never shows it.
func notInToolset(set *Toolset) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil {
				return next(ctx, method, req)
			}
			name := call.Params.Name
			known, inSet := false, false
			for _, n := range mcpTools {
				known = known || n == name
			}
			for _, n := range set.Tools {
				inSet = inSet || n == name
			}
			if !known || inSet {
				return next(ctx, method, req)
			}
			detail := name + " is in no set"
			if sets := setsHolding(name); len(sets) > 0 {
				detail = name + " is in " + andList(sets)
			}
			return refusal("NOT_IN_TOOLSET. This connection's toolset leaves that tool out. (" + detail + ") Connect again at /mcp with no tools parameter for every tool, or with tools set to a set the detail names. Nothing was done."), nil
		}
	}
}

// refusal is a tool result that refuses: isError, text only.
func refusal(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// apiHostKey is the context key of the host and scheme the API is called
// with, so that links in answers name the address the client used.
type apiHostKey struct{}

// callAPI makes one HTTP API request in-process through the server's mux,
// with token as the bearer token, and returns the status and the body.
// body, when not nil, is sent as JSON; a []byte or json.RawMessage is sent
// as it is.
func (s *Server) callAPI(ctx context.Context, token, method, path string, body any) (status int, answer []byte) {
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case []byte:
			rd = bytes.NewReader(b)
		case json.RawMessage:
			rd = bytes.NewReader(b)
		default:
			enc, err := json.Marshal(body)
			if err != nil {
				return http.StatusInternalServerError, []byte(`{"error":{"code":"INTERNAL","message":"the connector could not encode its request"}}`)
			}
			rd = bytes.NewReader(enc)
		}
	}
	req := httptest.NewRequestWithContext(ctx, method, path, rd)
	if c, ok := ctx.Value(apiHostKey{}).(*conn); ok && c.host != "" {
		req.Host = c.host
		if c.scheme == "https" {
			req.TLS = &tls.ConnectionState{} // links in answers say https
		}
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	rec := httptest.NewRecorder()
	s.mux.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}
