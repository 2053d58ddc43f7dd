package twin

import "net/http"

// routesConnector mounts the MCP connector at /mcp and /mcp/connect.
func (s *Server) routesConnector(mux *http.ServeMux) {}
