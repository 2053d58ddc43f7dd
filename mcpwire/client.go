package mcpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/secret"
	"github.com/readmeter/readmeter/jsonjs"
)

// Protocol versions the client speaks.
const (
	// Version20250618 is the 2025-06-18 protocol (initialize), the default.
	Version20250618 = "2025-06-18"
	// Version20251125 is the 2025-11-25 protocol (initialize).
	Version20251125 = "2025-11-25"
	// Version20260728 is the 2026-07-28 protocol (server/discover, the
	// `_meta` triple and the standard headers on every request).
	Version20260728 = "2026-07-28"
)

// DefaultMaxBody is the largest answer read when no limit is given: 64 MiB.
const DefaultMaxBody = 64 << 20

// DefaultTimeout bounds one request when no timeout is given.
const DefaultTimeout = 30 * time.Second

// Meta keys of the 2026-07-28 protocol's `_meta` triple.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// Response is one answer: the parsed JSON-RPC message and the bytes it came
// in.
type Response struct {
	// Raw is the body as received: gzip and chunking undone, headers out,
	// event-stream framing included. For stdio, the answer's line without
	// its newline; for the HTTP+SSE transport, the answering event's bytes.
	// Empty for a notification answered 202 with no body.
	Raw []byte
	// Message is the JSON-RPC message's bytes: the data of the answering
	// event, or the body (or line) itself. Empty for a notification.
	Message []byte
	// Status is the HTTP status (0 for stdio).
	Status int
	// Header is the HTTP answer's header (nil for stdio).
	Header http.Header
	// Events are the other server messages seen with the answer: requests
	// and notifications on the event stream or stdout, in order.
	Events []Event
	// Open reports that an event stream was still open StreamGrace after
	// the answering event: Raw then ends with that event, and what came
	// after it is not counted (see HTTPOptions.StreamGrace).
	Open bool
	// Stderr is what a stdio server wrote to stderr so far (its last 64 KiB).
	Stderr []byte

	env *envelope // Message's top level, when already read
}

// Result returns the exact bytes of the message's "result" member, or nil.
func (r *Response) Result() []byte {
	if r == nil || len(r.Message) == 0 {
		return nil
	}
	v := gjson.GetBytes(r.Message, "result")
	if !v.Exists() {
		return nil
	}
	return []byte(v.Raw)
}

// Event is one server message seen on a stream that was not the answer.
type Event struct {
	// Type is the event-stream event type ("" when not given, or stdio).
	Type string
	// ID is the event-stream event id, if any.
	ID string
	// Data is the JSON-RPC message's bytes.
	Data []byte
}

// Method returns the JSON-RPC method of the event's message, if any.
func (e Event) Method() string { return gjson.GetBytes(e.Data, "method").String() }

// Error is what every Client method returns on failure: where (the address
// or command), the JSON-RPC method, and what went wrong. Its text never
// holds a token given to the client.
type Error struct {
	// Where is the address (URL, credentials removed) or the command line.
	Where string
	// Method is the JSON-RPC method sent ("" when none applies).
	Method string
	// Err is the cause: an *RPCError, an *HTTPError, or another error.
	Err error
	msg string
}

// Error returns "WHERE: METHOD: CAUSE", with any secret redacted.
func (e *Error) Error() string { return e.msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// RPCError is a JSON-RPC error answer.
type RPCError struct {
	// Code is the JSON-RPC error code.
	Code int64
	// Message is the error's message.
	Message string
	// Data is the exact bytes of the error's data member, if any.
	Data []byte
	// Response is the answer that carried the error.
	Response *Response
}

// Error returns "JSON-RPC error CODE: MESSAGE".
func (e *RPCError) Error() string {
	return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message)
}

// HTTPError is an HTTP answer with a status of 400 or more.
type HTTPError struct {
	// Status is the HTTP status code.
	Status int
	// Excerpt is the start of the body, quoted for an error line.
	Excerpt string
	// Response is the answer, its body in Raw.
	Response *Response
}

// Error returns "HTTP STATUS TEXT: EXCERPT".
func (e *HTTPError) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.Status, http.StatusText(e.Status))
	if e.Excerpt != "" {
		s += ": " + e.Excerpt
	}
	return s
}

// SSEStream reports whether err is srv's refusal of a streamable HTTP
// request to a URL whose path ends in /sse with HTTP 400 (the SDKs' "no
// session id") or 405 (a route that takes only GET): most often the event
// stream of the older HTTP+SSE transport, which takes no POST (Server.SSE
// speaks that transport), so that a command can say so.
func SSEStream(err error, srv Server) bool {
	var he *HTTPError
	if srv.SSE || srv.URL == "" || !errors.As(err, &he) || he.Status != http.StatusBadRequest && he.Status != http.StatusMethodNotAllowed {
		return false
	}
	u, perr := url.Parse(srv.URL)
	return perr == nil && strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/sse")
}

// timeoutError is the cause when a request's own time limit ran out;
// start when it was the limit of a stdio server's first answer.
type timeoutError struct {
	d     time.Duration
	start bool
}

func (e timeoutError) Error() string {
	if e.start {
		return fmt.Sprintf("no answer within %v of the server's start", e.d)
	}
	return fmt.Sprintf("no answer within %v", e.d)
}
func (e timeoutError) Timeout() bool   { return true }
func (e timeoutError) Temporary() bool { return false }

// TimedOut reports whether err is a request that got no answer within its
// time limit, and whether that limit was StdioOptions.StartTimeout (the
// first answer of a stdio server, its start included), so that a command
// can name the setting that gives more time.
func TimedOut(err error) (timedOut, start bool) {
	var te timeoutError
	if errors.As(err, &te) {
		return true, te.start
	}
	return false, false
}

// outgoing is one message for a transport to send.
type outgoing struct {
	body   []byte
	id     gjson.Result // zero for a notification
	method string
	name   string // tools/call's tool, prompts/get's prompt, resources/read's uri
	modern bool   // send the 2026-07-28 headers
}

func (m *outgoing) isNotification() bool { return !m.id.Exists() }

// transport carries messages; it returns answers with Message checked to
// be the response to m (or an error).
type transport interface {
	send(ctx context.Context, m *outgoing) (*Response, error)
	setVersion(v string)
	close() error
}

// InitOptions is what the client declares when it opens a session.
type InitOptions struct {
	// ProtocolVersion is the version asked for: "2025-06-18" (the default)
	// or "2025-11-25" for Initialize; Discover always asks for 2026-07-28.
	ProtocolVersion string
	// Capabilities are the client's capabilities (JSON bytes, a
	// json.RawMessage, or any value encoding/json writes); {} when nil.
	Capabilities any
	// ClientInfo is the client's implementation ({name, version}); the
	// default is {"name":"readmeter","version":"0"}.
	ClientInfo any
}

// Client is a connection to one MCP server over one transport. Its methods
// are safe for concurrent use; each request gets its own id.
type Client struct {
	t       transport
	where   string
	secrets []string
	timeout time.Duration
	// startTimeout, when more than 0, bounds the requests until the first
	// answer (a stdio server's start included) instead of timeout.
	startTimeout time.Duration
	started      atomic.Bool
	nextID       atomic.Int64

	mu         sync.Mutex
	version    string
	modern     bool
	clientInfo json.RawMessage
	caps       json.RawMessage
}

func newClient(t transport, where string, timeout time.Duration, secrets []string) *Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var s []string
	for _, x := range secrets {
		if x != "" {
			s = append(s, x)
		}
	}
	return &Client{t: t, where: redact(where, s), secrets: s, timeout: timeout}
}

// Where returns the address or command the client talks to, as its errors
// name it.
func (c *Client) Where() string { return c.where }

// ProtocolVersion returns the negotiated protocol version ("" before
// Initialize or Discover).
func (c *Client) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// SetProtocolVersion sets the protocol version without a handshake, as for
// a stateless server called directly: the MCP-Protocol-Version header is
// sent, and with 2026-07-28 the `_meta` triple and the standard headers.
func (c *Client) SetProtocolVersion(v string) {
	c.mu.Lock()
	c.version = v
	c.modern = v >= Version20260728
	if c.modern {
		c.ensureIdentityLocked(InitOptions{})
	}
	c.mu.Unlock()
	c.t.setVersion(v)
}

func (c *Client) ensureIdentityLocked(o InitOptions) {
	if c.clientInfo == nil || o.ClientInfo != nil {
		c.clientInfo = mustJSON(o.ClientInfo, defaultClientInfo)
	}
	if c.caps == nil || o.Capabilities != nil {
		c.caps = mustJSON(o.Capabilities, `{}`)
	}
}

func mustJSON(v any, def string) json.RawMessage {
	switch x := v.(type) {
	case nil:
		return json.RawMessage(def)
	case json.RawMessage:
		if len(x) == 0 {
			return json.RawMessage(def)
		}
		return x
	case []byte:
		if len(x) == 0 {
			return json.RawMessage(def)
		}
		return json.RawMessage(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(def)
	}
	return b
}

// Request sends a JSON-RPC request with params (nil for none) and returns
// the answer. A JSON-RPC error answer is returned as an *Error wrapping an
// *RPCError, with the Response inside.
func (c *Client) Request(ctx context.Context, method string, params any) (*Response, error) {
	id, reserved := ctx.Value(idKey{}).(int64)
	if !reserved {
		id = c.nextID.Add(1)
	}
	body, name, err := c.build(method, params, strconv.FormatInt(id, 10))
	if err != nil {
		return nil, c.fail(method, err)
	}
	return c.do(ctx, &outgoing{body: body, id: gjson.Parse(strconv.FormatInt(id, 10)), method: method, name: name, modern: c.isModern()})
}

// Reserve reserves n consecutive request ids and returns the first: for
// requests sent at once whose ids must follow the order they are written
// in, each sent with a context from WithID.
func (c *Client) Reserve(n int) int64 { return c.nextID.Add(int64(n)) - int64(n) + 1 }

type idKey struct{}

// WithID returns a context whose Request sends the JSON-RPC id given (one
// Reserve returned) instead of the next one.
func WithID(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, idKey{}, id)
}

// RequestRaw sends body exactly as given (a JSON-RPC request or
// notification) and returns the answer to it. The id, method and name are
// read from the body; a body without an id is sent as a notification.
func (c *Client) RequestRaw(ctx context.Context, body []byte) (*Response, error) {
	if !json.Valid(body) {
		return nil, c.fail("", errors.New("the request body is not JSON"))
	}
	m := &outgoing{
		body:   body,
		id:     gjson.GetBytes(body, "id"),
		method: gjson.GetBytes(body, "method").String(),
		modern: c.isModern(),
	}
	m.name = nameOf(m.method, []byte(gjson.GetBytes(body, "params").Raw))
	return c.do(ctx, m)
}

// Notify sends a JSON-RPC notification. Over HTTP the answer is usually 202
// with an empty body: the Response then has an empty Raw.
func (c *Client) Notify(ctx context.Context, method string, params any) (*Response, error) {
	body, name, err := c.build(method, params, "")
	if err != nil {
		return nil, c.fail(method, err)
	}
	return c.do(ctx, &outgoing{body: body, method: method, name: name, modern: c.isModern()})
}

func (c *Client) isModern() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.modern
}

// build writes {"jsonrpc":"2.0","id":ID,"method":M,"params":P}, adding the
// `_meta` triple to a request's params in the 2026-07-28 protocol.
func (c *Client) build(method string, params any, id string) (body []byte, name string, err error) {
	var p []byte
	if params != nil {
		switch x := params.(type) {
		case json.RawMessage:
			p = x
		case []byte:
			p = x
		default:
			p, err = marshalJS(params)
			if err != nil {
				return nil, "", fmt.Errorf("params: %w", err)
			}
		}
		if len(p) > 0 && !json.Valid(p) {
			return nil, "", errors.New("params are not JSON")
		}
	}
	c.mu.Lock()
	modern, info, caps, version := c.modern, c.clientInfo, c.caps, c.version
	c.mu.Unlock()
	if modern && id != "" {
		p, err = withMeta(p, version, info, caps)
		if err != nil {
			return nil, "", err
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0",`)
	if id != "" {
		b.WriteString(`"id":`)
		b.WriteString(id)
		b.WriteByte(',')
	}
	b.WriteString(`"method":`)
	mb, _ := json.Marshal(method)
	b.Write(mb)
	if len(p) > 0 && string(p) != "null" {
		b.WriteString(`,"params":`)
		b.Write(p)
	}
	b.WriteByte('}')
	return b.Bytes(), nameOf(method, p), nil
}

// marshalJS writes v as JSON.stringify would: no HTML escapes, so a "<"
// in an argument is sent as the byte a JavaScript client sends, and a
// json.RawMessage inside v goes as written, compacted.
func marshalJS(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// withMeta adds the 2026-07-28 `_meta` triple to params (an object),
// keeping members already in `_meta`.
func withMeta(p []byte, version string, info, caps json.RawMessage) ([]byte, error) {
	obj := map[string]json.RawMessage{}
	if len(p) > 0 && string(p) != "null" {
		if err := json.Unmarshal(p, &obj); err != nil {
			return nil, errors.New("params are not a JSON object")
		}
	}
	meta := map[string]json.RawMessage{}
	if m, ok := obj["_meta"]; ok {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, errors.New("params._meta is not a JSON object")
		}
	}
	set := func(k string, v json.RawMessage) {
		if _, ok := meta[k]; !ok {
			meta[k] = v
		}
	}
	vb, _ := json.Marshal(version)
	set(metaProtocolVersion, vb)
	set(metaClientInfo, info)
	set(metaClientCapabilities, caps)
	mb, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	obj["_meta"] = mb
	return json.Marshal(obj)
}

// nameOf returns the value the Mcp-Name header carries for method.
func nameOf(method string, params []byte) string {
	if len(params) == 0 {
		return ""
	}
	switch method {
	case "tools/call", "prompts/get":
		return gjson.GetBytes(params, "name").String()
	case "resources/read":
		return gjson.GetBytes(params, "uri").String()
	}
	return ""
}

func (c *Client) do(ctx context.Context, m *outgoing) (*Response, error) {
	limit := timeoutError{d: c.timeout}
	if c.startTimeout > 0 && !c.started.Load() {
		limit = timeoutError{d: c.startTimeout, start: true}
	}
	tctx, cancel := context.WithTimeoutCause(ctx, limit.d, limit)
	defer cancel()
	r, err := c.t.send(tctx, m)
	if r != nil && len(r.Message) > 0 {
		c.started.Store(true) // the server answered: it has started
	}
	if err != nil {
		if ctx.Err() == nil && tctx.Err() != nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) {
			err = context.Cause(tctx)
		}
		return r, c.fail(m.method, err)
	}
	if m.isNotification() {
		return r, nil
	}
	env := r.env
	if env == nil {
		env = parseEnvelope(r.Message)
	}
	if env.isError {
		e := env.err
		re := &RPCError{
			Code:     e.Get("code").Int(),
			Message:  redact(e.Get("message").String(), c.secrets),
			Response: r,
		}
		if d := e.Get("data"); d.Exists() {
			re.Data = []byte(d.Raw)
		}
		return r, c.fail(m.method, re)
	}
	return r, nil
}

func (c *Client) fail(method string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	msg := c.where + ": "
	if method != "" {
		msg += method + ": "
	}
	msg += err.Error()
	return &Error{Where: c.where, Method: method, Err: err, msg: redact(msg, c.secrets)}
}

// Initialize opens a session: initialize with o's version, capabilities
// and client info, then notifications/initialized. It keeps the session id
// and the negotiated version for the requests that follow, and returns the
// initialize answer.
func (c *Client) Initialize(ctx context.Context, o InitOptions) (*Response, error) {
	init, _, err := c.Handshake(ctx, o)
	return init, err
}

// Handshake is Initialize returning both answers: initialize's and that of
// notifications/initialized (an empty Raw when the server answered 202 with
// no body).
func (c *Client) Handshake(ctx context.Context, o InitOptions) (init, initialized *Response, err error) {
	v := o.ProtocolVersion
	if v == "" {
		v = Version20250618
	}
	c.mu.Lock()
	c.ensureIdentityLocked(o)
	info, caps := c.clientInfo, c.caps
	c.mu.Unlock()
	init, err = c.Request(ctx, "initialize", initParams(v, caps, info))
	if err != nil {
		return init, nil, err
	}
	got := gjson.GetBytes(init.Message, "result.protocolVersion").String()
	if got == "" {
		return init, nil, c.fail("initialize", errors.New("the answer has no result.protocolVersion"))
	}
	c.mu.Lock()
	c.version, c.modern = got, false
	c.mu.Unlock()
	c.t.setVersion(got)
	initialized, err = c.Notify(ctx, "notifications/initialized", nil)
	return init, initialized, err
}

// InitializeParams returns the params of an initialize request for o, as
// Initialize sends them: {"protocolVersion":...,"capabilities":...,
// "clientInfo":...}, in that order, with o's defaults filled in. It is for
// a caller that sends initialize itself (Request), without
// notifications/initialized.
func InitializeParams(o InitOptions) json.RawMessage {
	v := o.ProtocolVersion
	if v == "" {
		v = Version20250618
	}
	return initParams(v, mustJSON(o.Capabilities, `{}`), mustJSON(o.ClientInfo, defaultClientInfo))
}

// defaultClientInfo is the client's implementation when none is given.
const defaultClientInfo = `{"name":"readmeter","version":"0"}`

func initParams(version string, caps, info json.RawMessage) json.RawMessage {
	b, err := json.Marshal(struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}{version, caps, info})
	if err != nil {
		// caps or info is not JSON: send them as given, for the server to refuse.
		return json.RawMessage(`{"protocolVersion":` + strconv.Quote(version) + `,"capabilities":` + string(caps) + `,"clientInfo":` + string(info) + `}`)
	}
	return b
}

// Discover asks the server what it offers in the 2026-07-28 protocol
// (server/discover), with o's capabilities and client info; the version is
// always 2026-07-28. From then on every request carries the `_meta` triple
// and the standard headers. It returns the discover answer.
func (c *Client) Discover(ctx context.Context, o ...InitOptions) (*Response, error) {
	var opt InitOptions
	if len(o) > 0 {
		opt = o[0]
	}
	c.mu.Lock()
	c.ensureIdentityLocked(opt)
	c.version, c.modern = Version20260728, true
	c.mu.Unlock()
	c.t.setVersion(Version20260728)
	return c.Request(ctx, "server/discover", nil)
}

// CallTool sends tools/call for the tool name with args (nil for none).
// A tool result with isError true is an answer, not an error.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*Response, error) {
	p := struct {
		Name      string `json:"name"`
		Arguments any    `json:"arguments,omitempty"`
	}{name, args}
	return c.Request(ctx, "tools/call", p)
}

// Close ends the connection: for stdio it closes the server's stdin, and
// stops and reaps the process (and its process group) if it does not exit
// by itself; for HTTP+SSE it closes the stream.
func (c *Client) Close() error { return c.t.close() }

// redact replaces every spelling of every secret in s with "[redacted]".
func redact(s string, secrets []string) string {
	return secret.Redact(s, secrets)
}

// excerpt quotes the start of b for an error line: at most 120 bytes, on
// one line. Secrets are redacted first, so that neither the cut nor the
// quoting can let part of one through.
func excerpt(b []byte, secrets ...string) string {
	b = secret.New(secrets...).Bytes(b)
	b = bytes.TrimSpace(b)
	const n = 120
	cut := len(b) > n
	if cut {
		b = b[:n]
	}
	s := strconv.Quote(string(b))
	if cut {
		s += "..."
	}
	return s
}

// envelope is the top level of a JSON-RPC message, read in one pass.
type envelope struct {
	id       gjson.Result
	err      gjson.Result
	isResult bool
	isError  bool
	isMethod bool
}

func parseEnvelope(msg []byte) *envelope {
	e, _ := readEnvelope(msg)
	return e
}

// readEnvelope reads the top level of msg in one pass that also checks the
// whole message is JSON, and reports whether it is.
func readEnvelope(msg []byte) (*envelope, bool) {
	e := &envelope{}
	if len(msg) == 0 {
		return e, false
	}
	members, err := jsonjs.RawMembers(msg)
	if err != nil {
		// Not an object: JSON all the same, or not JSON at all.
		return e, jsonjs.Validate(msg) == nil
	}
	for _, m := range members {
		switch m.Key {
		case "id":
			e.id = gjson.ParseBytes(m.Value)
		case "result":
			e.isResult = true
		case "error":
			e.isError, e.err = true, gjson.ParseBytes(m.Value)
		case "method":
			e.isMethod = true
		}
	}
	return e, true
}

// envelopeOf reads the top level of the JSON text raw from the members a
// jsonjs.Checker found in it, as readEnvelope does.
func envelopeOf(raw []byte, members []jsonjs.Span) *envelope {
	e := &envelope{}
	for _, m := range members {
		key := raw[m.KeyStart+1 : m.KeyEnd-1]
		value := raw[m.ValueStart:m.ValueEnd]
		switch {
		case jsonjs.KeyIs(key, "id"):
			e.id = gjson.ParseBytes(value)
		case jsonjs.KeyIs(key, "result"):
			e.isResult = true
		case jsonjs.KeyIs(key, "error"):
			e.isError, e.err = true, gjson.ParseBytes(value)
		case jsonjs.KeyIs(key, "method"):
			e.isMethod = true
		}
	}
	return e
}

// isResponse reports whether the message is a JSON-RPC response of any id.
func (e *envelope) isResponse() bool { return !e.isMethod && (e.isResult || e.isError) }

// answers reports whether the message is the response (result or error)
// to id.
func (e *envelope) answers(id gjson.Result) bool {
	if !e.isResponse() {
		return false
	}
	got := e.id
	if got.Type == gjson.Null && e.isError {
		return true // an error the server could not tie to a request
	}
	if got.Type != id.Type {
		return false
	}
	switch got.Type {
	case gjson.String:
		return got.Str == id.Str
	case gjson.Number:
		return got.Raw == id.Raw || got.Num == id.Num
	}
	return false
}

// idText is the exact text of the message's id member, the last of
// duplicates as JSON.parse reads it ("(none)" when absent).
func (e *envelope) idText() string {
	if e.id.Raw != "" {
		return e.id.Raw
	}
	return "(none)"
}
