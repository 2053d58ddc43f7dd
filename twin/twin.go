// Package twin is a server that plays the agent service's surface: the same
// paths, methods, fields, status codes, answer formats and protocol
// behaviour that the first-task walks touch, with words of its own. It is
// the toolkit's default target, started in-process by tests and by
// `cmd/twin`.
//
// The HTTP API (api*.go, store*.go, oauth*.go, content*.go) keeps all state
// in memory. The MCP connector (connector*.go, tools*.go) is built on the
// official Go MCP SDK; its tools call the HTTP API in-process, as the
// service's tools call its operations.
package twin

import (
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

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Principal is who a bearer token speaks for.
type Principal struct {
	// PeerID is the KEY's peer id.
	PeerID string
	// App is true for an app token from OAuth (accepted at /mcp/connect).
	App bool
}
