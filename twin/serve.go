package twin

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// The limits of the twin's HTTP server, listed in API.md ("Limits"). The
// twin is a local server any program on the machine (and with cmd/twin
// --public, on the network) may reach: they keep one client from holding
// it for the others. A connection costs a goroutine and a few kilobytes
// until one of them ends it, so there is no cap on connections.
const (
	// MaxBodyBytes is the largest request body the twin takes: 1 MiB. A
	// larger one is answered 413 in the route's error shape, whatever the
	// route: refused before it is read when its length is given, as soon
	// as the cap is passed when it is sent chunked.
	MaxBodyBytes = 1 << 20
	// MaxConnectorBodyBytes is the largest body the MCP connector (/mcp,
	// /mcp/connect) takes: 4 MiB.
	MaxConnectorBodyBytes = 4 << 20
	// MaxHeaderBytes bounds a request's header lines: 64 KiB. Larger ones
	// are answered 431 (net/http's plain-text answer).
	MaxHeaderBytes = 64 << 10
	// HeaderTimeout is how long a request's headers may take to arrive,
	// from the connection's opening (or its next request's first byte):
	// a connection that sends less in that time is closed unanswered.
	HeaderTimeout = 5 * time.Second
	// BodyTimeout is how long a request's body may take to arrive: a body
	// still unfinished then is refused, and its connection closed.
	BodyTimeout = 10 * time.Second
	// IdleTimeout is how long a kept-alive connection may wait for its
	// next request before the twin closes it.
	IdleTimeout = 2 * time.Minute
)

// HTTPServer returns an http.Server that serves s with the twin's limits
// (HeaderTimeout, IdleTimeout, MaxHeaderBytes; s itself holds to the body
// caps and BodyTimeout), logging what net/http logs to Options.ErrorLog
// (nil: nowhere). Start serves with one, and so does cmd/twin.
func (s *Server) HTTPServer() *http.Server {
	logger := s.opts.ErrorLog
	if logger == nil {
		logger = log.New(io.Discard, "", 0)
	}
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: HeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          logger,
	}
}

// ServeHTTP serves one request. A body over its cap is refused (413); a
// body is given BodyTimeout to arrive. A panic in a handler is answered
// as a JSON error with status 500 that holds none of it, and told to
// Options.OnPanic.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.panicked(r.Method+" "+r.URL.Path, v)
			writeError(w, r, refuse("INTERNAL", "", "Report the request that caused it; nothing was changed."))
		}
	}()
	connector := isConnector(r.URL.Path)
	limit := int64(MaxBodyBytes)
	if connector {
		limit = MaxConnectorBodyBytes
	}
	if r.ContentLength > limit {
		tooLarge(w, r)
		return
	}
	if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
		r.Body = newTimedBody(w, r.Body)
	}
	if r.ContentLength < 0 {
		// Sent chunked, its length unsaid: read here, so that every route
		// refuses it over the cap, those that read no body included.
		body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
		if int64(len(body)) > limit {
			tooLarge(w, r)
			return
		}
		rest := io.Reader(eofReader{})
		if err != nil {
			rest = errReader{err} // the route reads it as it would have
		}
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), rest))
		r.ContentLength = int64(len(body))
	}
	s.mux.ServeHTTP(w, r)
}

// eofReader is an empty body's end; errReader is a body that failed.
type (
	eofReader struct{}
	errReader struct{ err error }
)

func (eofReader) Read([]byte) (int, error)   { return 0, io.EOF }
func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// panicked tells Options.OnPanic of a panic while serving where.
func (s *Server) panicked(where string, v any) {
	if s.opts.OnPanic != nil {
		s.opts.OnPanic(where, v, debug.Stack())
	}
}

// isConnector reports whether path is an address of the MCP connector.
func isConnector(path string) bool { return path == "/mcp" || path == "/mcp/connect" }

// tooLarge refuses a request whose body is over its cap: 413 in the
// route's error shape (the connector's JSON-RPC error, OAuth's error, or
// the API's refusal).
func tooLarge(w http.ResponseWriter, r *http.Request) {
	switch {
	case isConnector(r.URL.Path):
		writeRPCError(w, http.StatusRequestEntityTooLarge, nil, "INVALID_REQUEST. The request body is larger than 4 MiB. Send a smaller request.")
	case strings.HasPrefix(r.URL.Path, "/oauth/"):
		oauthError(w, http.StatusRequestEntityTooLarge, "invalid_request", "The body is larger than 1 MiB. Send a smaller one.")
	default:
		writeError(w, r, refuse("TOO_LARGE", "", "Send a body of at most 1 MiB."))
	}
}

// timedBody is a request body with BodyTimeout to arrive: the
// connection's read deadline, set when the handler begins, is cleared
// once the body has been read to its end (a long answer, an event stream,
// is not cut by it).
type timedBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	clear sync.Once
}

func newTimedBody(w http.ResponseWriter, body io.ReadCloser) *timedBody {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(BodyTimeout)) // in-process calls have no connection
	return &timedBody{ReadCloser: body, rc: rc}
}

func (b *timedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.clear.Do(func() { b.rc.SetReadDeadline(time.Time{}) })
	}
	return n, err
}
