package twin

import "net/http"

// apiState is the HTTP API's in-memory state.
type apiState struct{ s *Server }

func newAPIState(s *Server) *apiState { return &apiState{s: s} }

// routesAPI mounts the HTTP API, the documents and OAuth.
func (s *Server) routesAPI(mux *http.ServeMux) {}

// principal returns who the request's bearer token speaks for.
func (s *Server) principal(r *http.Request) (Principal, bool) { return Principal{}, false }
