package mcpwire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/readmeter/readmeter/internal/eventstream"
	"github.com/readmeter/readmeter/internal/fetch"
	"github.com/readmeter/readmeter/internal/redirect"
	"github.com/readmeter/readmeter/internal/secret"
	"github.com/readmeter/readmeter/jsonjs"
)

// HTTPOptions configure the HTTP transports.
type HTTPOptions struct {
	// Token, when set, is sent as "Authorization: Bearer TOKEN", only to
	// the host named in the URL. It never appears in an error's text.
	Token string
	// Header holds extra headers sent with every request, only to the
	// URL's origin (see Follow). A credential header here (Authorization,
	// Cookie, X-Api-Key and the like: see secret.Header, and those named in
	// Credentials) is treated as a secret like Token: redacted from errors
	// in every spelling.
	Header http.Header
	// Credentials names more headers of Header that carry credentials.
	Credentials []string
	// Follow is the redirect rule of package internal/redirect the
	// requests are held to: redirect.SameOrigin when empty. A redirect to
	// another origin (scheme, host or port) then fails the request with a
	// *redirect.Error, and an SSE endpoint on another origin fails the
	// connection; with redirect.CrossOrigin both are followed, sending
	// there only the standard headers (redirect.Standard): never Token, a
	// session id or a header of Header.
	Follow redirect.Follow
	// HTTPClient is the client used (http.DefaultClient's settings when
	// nil). Its CheckRedirect is replaced by the redirect rule.
	HTTPClient *http.Client
	// MaxBody bounds an answer's size in bytes (DefaultMaxBody when 0).
	MaxBody int64
	// Timeout bounds one request, its answer read to the end
	// (DefaultTimeout when 0).
	Timeout time.Duration
	// ProtocolVersion, when set, is sent as MCP-Protocol-Version from the
	// first request on, as for a stateless server called without a
	// handshake (see Client.SetProtocolVersion).
	ProtocolVersion string
	// StreamGrace bounds how long an event stream is read after the event
	// that carries the answer, waiting for the server to end it (1s when
	// 0). A stream that ends in that time is counted to its end, every
	// byte (as fetch's text() counts it); one that does not is counted
	// through the answering event only, and the Response is marked Open.
	// Either way the count does not depend on when bytes arrive.
	StreamGrace time.Duration
}

func (o *HTTPOptions) secrets() []string {
	s := []string{o.Token}
	for k, vs := range o.Header {
		if !secret.Header(k, o.Credentials...) {
			continue
		}
		for _, v := range vs {
			s = append(s, v)
			if _, tok, ok := strings.Cut(v, " "); ok {
				s = append(s, tok) // "Bearer TOKEN", "Basic B64"
			}
		}
	}
	return s
}

// follow returns the redirect rule o holds requests to.
func (o *HTTPOptions) follow() redirect.Follow {
	if o.Follow == "" {
		return redirect.SameOrigin
	}
	return o.Follow
}

// set returns the names of the headers the caller set: none of them goes
// to another origin.
func (o *HTTPOptions) set() []string {
	var out []string
	for k := range o.Header {
		out = append(out, k)
	}
	return out
}

// safeClient returns a copy of o's client (or a new one) whose redirects
// are held to o's redirect rule.
func safeClient(o *HTTPOptions) *http.Client {
	var c http.Client
	if o.HTTPClient != nil {
		c = *o.HTTPClient
	}
	c.CheckRedirect = o.follow().Check(o.set())
	return &c
}

// whereURL is the URL as errors name it: credentials removed.
func whereURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.User != nil {
		u.User = nil
	}
	return u.String()
}

type httpTransport struct {
	url     string
	o       HTTPOptions
	secrets []string // redacted from excerpts
	hc      *http.Client
	max     int64
	grace   time.Duration
	mu      sync.Mutex
	sessID  string
	ver     string
	// last and lastStream are the lengths of the last JSON answer and of
	// the last event stream: the next answer of unknown length is read
	// into a buffer of that size, which it usually fills without growing.
	last, lastStream atomic.Int64
}

// NewHTTP returns a client for the streamable HTTP transport at url (the
// MCP endpoint, query included).
func NewHTTP(url string, o HTTPOptions) *Client {
	t := newHTTPTransport(url, o)
	c := newClient(t, whereURL(url), o.Timeout, o.secrets())
	if o.ProtocolVersion != "" {
		c.SetProtocolVersion(o.ProtocolVersion)
	}
	return c
}

func newHTTPTransport(url string, o HTTPOptions) *httpTransport {
	t := &httpTransport{url: url, o: o, secrets: o.secrets(), hc: safeClient(&o), max: o.MaxBody, grace: o.StreamGrace}
	if t.max <= 0 {
		t.max = DefaultMaxBody
	}
	if t.grace <= 0 {
		t.grace = time.Second
	}
	return t
}

func (t *httpTransport) setVersion(v string) {
	t.mu.Lock()
	t.ver = v
	t.mu.Unlock()
}

// SessionID returns the session id the server gave ("" for none).
func (c *Client) SessionID() string {
	if t, ok := c.t.(*httpTransport); ok {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.sessID
	}
	return ""
}

func (t *httpTransport) headers(h http.Header, m *outgoing) {
	for k, vs := range t.o.Header {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	if t.o.Token != "" {
		h.Set("Authorization", "Bearer "+t.o.Token)
	}
	t.mu.Lock()
	sid, ver := t.sessID, t.ver
	t.mu.Unlock()
	if sid != "" {
		h.Set("Mcp-Session-Id", sid)
	}
	if ver != "" {
		h.Set("Mcp-Protocol-Version", ver)
	}
	if m.modern && m.method != "" {
		h.Set("Mcp-Method", m.method)
		if m.name != "" {
			h.Set("Mcp-Name", m.name)
		}
	}
}

func (t *httpTransport) send(ctx context.Context, m *outgoing) (*Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.url, bytes.NewReader(m.body))
	if err != nil {
		return nil, err
	}
	t.headers(req.Header, m)
	fetch.Prepare(req)
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, netError(err)
	}
	defer resp.Body.Close()
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		t.mu.Lock()
		t.sessID = sid
		t.mu.Unlock()
	}
	body, err := fetch.Body(resp)
	if err != nil {
		return nil, err
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header}
	ct := mediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode >= 400 {
		r.Raw, err = readLimited(body, t.max)
		if err != nil {
			return nil, err
		}
		if ct == "application/json" && json.Valid(r.Raw) {
			r.Message = bytes.TrimSpace(r.Raw)
		}
		return r, &HTTPError{Status: resp.StatusCode, Excerpt: excerpt(r.Raw, t.secrets...), Response: r}
	}
	if m.isNotification() {
		r.Raw, err = readLimited(body, t.max)
		return r, err
	}
	switch ct {
	case "application/json":
		size := resp.ContentLength
		if fetch.Decoded(resp) {
			size = -1 // the length is not the decoded body's
		}
		return t.readJSON(r, body, size, m)
	case "text/event-stream":
		return t.readStream(r, resp.Body, body, m)
	}
	if resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent {
		return r, fmt.Errorf("HTTP %d %s with no answer to a request", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	head, _ := readLimited(io.LimitReader(body, 512), 512)
	if ct == "" {
		return r, fmt.Errorf("the answer has no Content-Type, not JSON or an event stream: %s", excerpt(head, t.secrets...))
	}
	if ct == "text/html" {
		return r, fmt.Errorf("answered text/html, a web page, not JSON or an event stream (is the URL the MCP endpoint, often .../mcp?): %s", excerpt(head, t.secrets...))
	}
	return r, fmt.Errorf("answered %s, not JSON or an event stream: %s", ct, excerpt(head, t.secrets...))
}

// readJSON reads a JSON answer of size bytes (-1: unknown) to m, checking
// it as it is read: by its end, it is known to be JSON and where its
// top-level members lie, without a second pass.
func (t *httpTransport) readJSON(r *Response, body io.Reader, size int64, m *outgoing) (*Response, error) {
	if last := t.last.Load(); size < 0 && last >= 4<<10 {
		size = min(last, 1<<20)
	}
	var chk jsonjs.Checker
	var err error
	r.Raw, err = readLimitedSize(body, t.max, size, &chk)
	if err != nil {
		return nil, err
	}
	t.last.Store(int64(len(r.Raw)))
	msg := bytes.TrimSpace(r.Raw)
	var env *envelope
	if chk.Valid() {
		env, err = checkEnvelope(envelopeOf(r.Raw, chk.Members()), msg, m, t.secrets)
	} else {
		env, err = checkAnswer(msg, m, t.secrets) // says what is wrong
	}
	if err != nil {
		return r, err
	}
	r.Message, r.env = msg, env
	return r, nil
}

// readStream reads an event-stream answer to the event that carries the
// response to m, then on to the end of the stream. The count is
// deterministic: when the stream ends within the grace time after the
// answer, Raw is every byte to its end (what fetch's text() counts); when
// it does not, Raw ends with the answering event, whatever arrived after
// it, and Open is set.
func (t *httpTransport) readStream(r *Response, closer io.Closer, body io.Reader, m *outgoing) (*Response, error) {
	// Each event's data is checked as it is read: by the time the event
	// is dispatched, it is known to be JSON and where its top-level
	// members lie.
	var chk jsonjs.Checker
	s := eventstream.New(body, eventstream.Options{Keep: true, Max: t.max, Data: &chk, Size: t.lastStream.Load()})
	defer func() { t.lastStream.Store(int64(len(s.Raw()))) }() // with Keep, every byte read
	var answerEnd int64
	var after []Event
	found := false
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for ev, err := range s.Events() {
		if err != nil {
			var tl *eventstream.TooLargeError
			if !found || errors.As(err, &tl) {
				return r, streamError(err)
			}
			// Cut after the grace time, or broken: count through the answer.
			r.Raw, r.Open = s.Raw()[:answerEnd], true
			return r, nil
		}
		if len(ev.Data) == 0 {
			continue // a priming event: an id, no message
		}
		if found {
			if chk.Valid() {
				after = append(after, Event{Type: ev.Type, ID: ev.ID, Data: ev.Data})
			}
			continue
		}
		env, ok := envelopeOf(ev.Data, chk.Members()), chk.Valid()
		if !ok {
			env, ok = readEnvelope(ev.Data) // as it was read: not JSON
		}
		if !ok && ev.Unended {
			return r, errStreamEnded(ev.N-1, true)
		}
		if !ok {
			return r, fmt.Errorf("event %d: data is not JSON: %s", ev.N, excerpt(ev.Data, t.secrets...))
		}
		if !env.answers(m.id) {
			r.Events = append(r.Events, Event{Type: ev.Type, ID: ev.ID, Data: ev.Data})
			continue
		}
		r.Message, r.env = ev.Data, env
		found, answerEnd = true, ev.End
		timer = time.AfterFunc(t.grace, func() { closer.Close() })
	}
	if !found {
		return r, errStreamEnded(s.Dispatched(), s.Unfinished())
	}
	r.Raw = s.Raw()
	r.Events = append(r.Events, after...)
	return r, nil
}

func streamError(err error) error {
	var tl *eventstream.TooLargeError
	if errors.As(err, &tl) {
		return tl
	}
	return fmt.Errorf("reading the event stream: %w", err)
}

// checkAnswer checks that msg is JSON and the response to m.
func checkAnswer(msg []byte, m *outgoing, secrets []string) (*envelope, error) {
	env, ok := readEnvelope(msg)
	if !ok {
		return nil, fmt.Errorf("the answer is not JSON: %s", excerpt(msg, secrets...))
	}
	return checkEnvelope(env, msg, m, secrets)
}

// checkEnvelope checks that the JSON message msg, whose top level is env,
// is the response to m.
func checkEnvelope(env *envelope, msg []byte, m *outgoing, secrets []string) (*envelope, error) {
	if !env.answers(m.id) {
		if env.isResponse() {
			return nil, fmt.Errorf("the answer is to id %s, not %s", env.idText(), m.id.Raw)
		}
		return nil, fmt.Errorf("the answer is not a JSON-RPC response: %s", excerpt(msg, secrets...))
	}
	return env, nil
}

func mediaType(ct string) string {
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	return mt
}

func readLimited(r io.Reader, max int64) ([]byte, error) {
	return readLimitedSize(r, max, -1, nil)
}

// readLimitedSize reads r to the end, at most max bytes, handing each
// piece read to w when it is not nil; size, when known (a Content-Length),
// sizes the buffer.
func readLimitedSize(r io.Reader, max, size int64, w io.Writer) ([]byte, error) {
	if size > max {
		return nil, &eventstream.TooLargeError{Max: max}
	}
	lr := io.LimitReader(r, max+1)
	if size < 0 {
		size = 4<<10 - 1 // doubled as it fills
	}
	b := make([]byte, 0, size+1) // the read that meets the end needs room
	for {
		n, err := lr.Read(b[len(b):cap(b)])
		if w != nil && n > 0 {
			w.Write(b[len(b) : len(b)+n])
		}
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, &eventstream.TooLargeError{Max: max}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the answer: %w", err)
		}
		if len(b) == cap(b) {
			b = append(make([]byte, 0, 2*cap(b)), b...)
		}
	}
}

// netError turns a failed request into a short cause.
func netError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return errors.New("connection refused (nothing listening there)")
	}
	return err
}

func (t *httpTransport) close() error {
	t.mu.Lock()
	sid := t.sessID
	t.mu.Unlock()
	if sid == "" {
		return nil
	}
	defer func() {
		t.mu.Lock()
		t.sessID = ""
		t.mu.Unlock()
	}()
	// End the session, as the transport asks; a refusal changes nothing.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, t.url, nil)
	if err != nil {
		return nil
	}
	t.headers(req.Header, &outgoing{})
	req.Header.Del("Content-Type")
	if resp, err := t.hc.Do(req); err == nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
	}
	return nil
}
