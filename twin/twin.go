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
	"log"
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
	// OnPanic, when set, is told of each panic while a request is served:
	// where (the method and path, or the tool called), the value, and the
	// goroutine's stack. The request is answered as the twin fails (500
	// INTERNAL; a tool result with isError for a tool call), and the answer
	// holds none of it. The package never prints: cmd/twin writes it to
	// its stderr.
	OnPanic func(where string, v any, stack []byte)
	// ErrorLog, when set, gets what the http.Server of HTTPServer and
	// Start logs (a connection it could not accept, say); nil drops it.
	ErrorLog *log.Logger
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

// Principal is who a bearer token speaks for.
type Principal struct {
	// PeerID is the KEY's peer id.
	PeerID string
	// App is true for an app token from OAuth (accepted at /mcp/connect).
	App bool
}

// Start serves a new Server with opts on a free loopback port, with the
// twin's limits (HTTPServer). It returns the base URL
// (http://127.0.0.1:PORT, no trailing slash) and a function that stops
// the server: it closes the listener and every connection at once, for a
// caller whose requests have all been answered (a graceful shutdown would
// wait seconds for a connection a client dialled and never used, as Go's
// transport leaves one behind now and then).
func Start(opts Options) (baseURL string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := New(opts).HTTPServer()
	go srv.Serve(ln)
	stop = func() { srv.Close() }
	return "http://" + ln.Addr().String(), stop, nil
}
