package twin

import "net/http"

// routesOAuth mounts OAuth 2.1 for app tokens.
func (s *Server) routesOAuth(mux *http.ServeMux) {}

type oauthClient struct{}
type authRequest struct{}
