package mcpwire

import "context"

// Server says how to reach one MCP server: a Command to run (stdio), or a
// URL spoken to over streamable HTTP or, with SSE, over the older HTTP+SSE
// transport.
type Server struct {
	// Command is the server's argv, for stdio; when not nil, URL is not
	// used (an empty one is an error).
	Command []string
	// Stdio configures the stdio transport.
	Stdio StdioOptions
	// URL is the server's address (the event stream's, with SSE).
	URL string
	// SSE picks the HTTP+SSE transport for URL.
	SSE bool
	// HTTP configures the HTTP transports.
	HTTP HTTPOptions
}

// Dial returns a client for s: NewStdio for a Command, NewSSE for a URL
// with SSE, NewHTTP for any other URL. ctx bounds a stdio server's life,
// as NewStdio's does.
func Dial(ctx context.Context, s Server) (*Client, error) {
	switch {
	case s.Command != nil:
		return NewStdio(ctx, s.Command, s.Stdio)
	case s.SSE:
		return NewSSE(s.URL, s.HTTP)
	}
	return NewHTTP(s.URL, s.HTTP), nil
}
