package mcpwire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/readmeter/readmeter/internal/eventstream"
	"github.com/readmeter/readmeter/internal/fetch"
	"github.com/readmeter/readmeter/internal/redirect"
	"github.com/readmeter/readmeter/jsonjs"
)

// sseTransport is the older HTTP+SSE transport: one GET stream for the
// server's messages, a POST per client message to the endpoint it names.
type sseTransport struct {
	base    *url.URL
	o       HTTPOptions
	secrets []string // redacted from excerpts
	hc      *http.Client
	max     int64
	cancel  context.CancelFunc
	body    io.ReadCloser

	endpoint   string
	sameOrigin bool // the endpoint is at the stream's origin: the token and headers go there

	mu      sync.Mutex
	waiters map[string]chan *eventstream.Event
	pending []Event
	ver     string
	done    chan struct{} // closed when the stream ends
	err     error         // why it ended
}

// NewSSE opens the event stream of the older HTTP+SSE transport at rawURL
// (usually .../sse), waits for its endpoint event, and returns a client
// that POSTs to that endpoint and reads answers from the stream. An
// endpoint at another origin than the stream's is refused unless o.Follow
// is redirect.CrossOrigin, and then gets neither the token nor o.Header.
func NewSSE(rawURL string, o HTTPOptions) (*Client, error) {
	where := whereURL(rawURL)
	secrets := o.secrets()
	fail := func(err error) error {
		msg := redact(where+": "+err.Error(), secrets)
		return &Error{Where: redact(where, secrets), Err: err, msg: msg}
	}
	base, err := url.Parse(rawURL)
	if err != nil {
		return nil, fail(err)
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	t := &sseTransport{base: base, o: o, secrets: secrets, hc: safeClient(&o), max: o.MaxBody,
		waiters: map[string]chan *eventstream.Event{}, done: make(chan struct{})}
	if t.max <= 0 {
		t.max = DefaultMaxBody
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.cancel = cancel
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		cancel()
		return nil, fail(err)
	}
	for k, vs := range o.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Accept", "text/event-stream")
	if o.Token != "" {
		req.Header.Set("Authorization", "Bearer "+o.Token)
	}
	fetch.Prepare(req)
	connected := make(chan error, 1)
	timer := time.AfterFunc(timeout, func() {
		select {
		case connected <- timeoutError{d: timeout}:
		default:
		}
		cancel()
	})
	defer timer.Stop()
	resp, err := t.hc.Do(req)
	if err != nil {
		timedOut := ctx.Err() != nil // the timer cancelled it, not we below
		cancel()
		if timedOut {
			return nil, fail(timeoutError{d: timeout})
		}
		return nil, fail(netError(err))
	}
	if resp.StatusCode >= 400 {
		b, _ := readLimited(io.LimitReader(resp.Body, 4096), 4096)
		resp.Body.Close()
		cancel()
		return nil, fail(&HTTPError{Status: resp.StatusCode, Excerpt: excerpt(b, secrets...), Response: &Response{Raw: b, Status: resp.StatusCode, Header: resp.Header}})
	}
	if ct := mediaType(resp.Header.Get("Content-Type")); ct != "text/event-stream" {
		b, _ := readLimited(io.LimitReader(resp.Body, 512), 512)
		resp.Body.Close()
		cancel()
		return nil, fail(fmt.Errorf("answered %s, not an event stream: %s", ct, excerpt(b, secrets...)))
	}
	body, err := fetch.Body(resp)
	if err != nil {
		resp.Body.Close()
		cancel()
		return nil, fail(err)
	}
	t.body = body
	go t.read(connected)
	if err := <-connected; err != nil {
		t.close()
		return nil, fail(err)
	}
	return newClient(t, where, o.Timeout, secrets), nil
}

// read dispatches the stream's events until it ends.
func (t *sseTransport) read(connected chan<- error) {
	var chk jsonjs.Checker // each event's data, checked as it is read
	s := eventstream.New(t.body, eventstream.Options{Max: t.max, Data: &chk})
	haveEndpoint := false
	var err error
	for e, rerr := range s.Events() {
		if rerr != nil {
			err = rerr
			break
		}
		ev := &e
		if ev.Type == "endpoint" {
			if haveEndpoint {
				continue
			}
			u, perr := t.base.Parse(strings.TrimSpace(string(ev.Data)))
			if perr != nil {
				err = fmt.Errorf("the endpoint event names a bad URL: %s", excerpt(ev.Data, t.secrets...))
				break
			}
			t.endpoint = u.String()
			t.sameOrigin = redirect.Same(u, t.base)
			if !t.sameOrigin && t.o.follow() != redirect.CrossOrigin {
				err = fmt.Errorf("the endpoint event names another origin, %s (the stream's is %s): not followed, nothing was sent there", redact(redirect.Origin(u), t.secrets), redirect.Origin(t.base))
				break
			}
			haveEndpoint = true
			select {
			case connected <- nil:
			default:
			}
			continue
		}
		if len(ev.Data) == 0 {
			continue // a priming event
		}
		if !chk.Valid() && ev.Unended {
			err = errEndedInEvent
			break
		}
		if !chk.Valid() {
			err = fmt.Errorf("event %d: data is not JSON: %s", ev.N, excerpt(ev.Data, t.secrets...))
			break
		}
		t.mu.Lock()
		// routed by the id the answer is matched by: the last of
		// duplicates, as JSON.parse reads it
		if env := parseEnvelope(ev.Data); env.isResponse() {
			if ch, ok := t.waiters[env.id.Raw]; ok {
				delete(t.waiters, env.id.Raw)
				ch <- ev
				t.mu.Unlock()
				continue
			}
		}
		t.pending = append(t.pending, Event{Type: ev.Type, ID: ev.ID, Data: ev.Data})
		t.mu.Unlock()
	}
	if err == nil {
		err = errEnded
		if s.Unfinished() {
			err = errEndedInEvent
		}
	}
	if !haveEndpoint {
		if err == errEnded || err == errEndedInEvent {
			err = errors.New("the event stream ended before its endpoint event")
		}
		select {
		case connected <- err:
		default:
		}
	}
	t.mu.Lock()
	t.err = err
	t.mu.Unlock()
	close(t.done)
}

func (t *sseTransport) setVersion(v string) {
	t.mu.Lock()
	t.ver = v
	t.mu.Unlock()
}

func (t *sseTransport) send(ctx context.Context, m *outgoing) (*Response, error) {
	var ch chan *eventstream.Event
	if !m.isNotification() {
		ch = make(chan *eventstream.Event, 1)
		t.mu.Lock()
		t.waiters[m.id.Raw] = ch
		t.mu.Unlock()
		defer func() {
			t.mu.Lock()
			delete(t.waiters, m.id.Raw)
			t.mu.Unlock()
		}()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.endpoint, bytes.NewReader(m.body))
	if err != nil {
		return nil, err
	}
	for k, vs := range t.o.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("Content-Type", "application/json")
	if t.o.Token != "" {
		req.Header.Set("Authorization", "Bearer "+t.o.Token)
	}
	t.mu.Lock()
	if t.ver != "" {
		req.Header.Set("Mcp-Protocol-Version", t.ver)
	}
	t.mu.Unlock()
	if !t.sameOrigin {
		// Another origin, allowed by Follow: as for a redirect there, only
		// the standard headers go.
		redirect.Strip(req.Header, t.o.set())
	}
	fetch.Prepare(req)
	resp, err := t.hc.Do(req)
	if err != nil {
		return nil, netError(err)
	}
	rb, err := fetch.Body(resp)
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	body, err := readLimited(rb, t.max)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header}
	if resp.StatusCode >= 400 {
		r.Raw = body
		return r, &HTTPError{Status: resp.StatusCode, Excerpt: excerpt(body, t.secrets...), Response: r}
	}
	if m.isNotification() {
		r.Raw = body
		return r, nil
	}
	select {
	case ev := <-ch:
		r.Raw, r.Message = ev.Raw, ev.Data
		t.mu.Lock()
		r.Events, t.pending = t.pending, nil
		t.mu.Unlock()
		return r, nil
	case <-t.done:
		select {
		case ev := <-ch:
			r.Raw, r.Message = ev.Raw, ev.Data
			return r, nil
		default:
		}
		t.mu.Lock()
		err := t.err
		t.mu.Unlock()
		return nil, err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (t *sseTransport) close() error {
	t.cancel()
	if t.body != nil {
		t.body.Close()
		<-t.done
	}
	return nil
}
