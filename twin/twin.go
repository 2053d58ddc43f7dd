// Package twin is a server that plays the agent service's surface: the same
// paths, methods, fields, status codes, answer formats and protocol
// behaviour that the first-task walks touch, with words of its own. It is
// the toolkit's default target, started in-process by tests and by
// `cmd/twin`.
//
//	base, stop, err := twin.Start(twin.Options{}) // http://127.0.0.1:PORT
//	defer stop()
//	res, err := walk.Run(ctx, spec, walk.Options{BaseURL: base})
//
// The HTTP API (api*.go, store*.go, oauth*.go, content*.go) keeps all state
// in memory, behind one mutex. The MCP connector (connector*.go, tools*.go)
// is built on the official Go MCP SDK; its tools call the HTTP API
// in-process, as the service's tools call its operations.
//
// The routes, their request and answer shapes and status codes are listed
// in API.md beside this file.
package twin

import (
	"net"
	"net/http"
	"time"
)

// Options configures a Server.
type Options struct {
	// JSONAnswers makes the MCP connector answer plain JSON instead of an
	// event stream.
	JSONAnswers bool
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// APIHost is the audience a KEY signs its token challenge for. Empty
	// means the request's Host header (for example 127.0.0.1:40123).
	APIHost string
}

// Server is the twin: an http.Handler serving the HTTP API and the MCP
// connector.
type Server struct {
	opts Options
	mux  *http.ServeMux
	api  *apiState
}

// New returns a Server with empty state.
func New(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Server{opts: opts, mux: http.NewServeMux()}
	s.api = newAPIState(s)
	s.routesAPI(s.mux)
	s.routesConnector(s.mux)
	return s
}

// ServeHTTP serves one request. A panic in a handler is answered as a JSON
// error with status 500 instead of ending the connection.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			writeError(w, r, refuse("INTERNAL", "", "Report the request that caused it; nothing was changed."))
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// Principal is who a bearer token speaks for.
type Principal struct {
	// PeerID is the KEY's peer id.
	PeerID string
	// App is true for an app token from OAuth (accepted at /mcp/connect).
	App bool
}

// Start serves a new Server with opts on a free loopback port. It returns
// the base URL (http://127.0.0.1:PORT, no trailing slash) and a function
// that stops the server: it closes the listener and every connection at
// once, for a caller whose requests have all been answered (a graceful
// shutdown would wait seconds for a connection a client dialled and never
// used, as Go's transport leaves one behind now and then).
func Start(opts Options) (baseURL string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: New(opts), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	stop = func() { srv.Close() }
	return "http://" + ln.Addr().String(), stop, nil
}
