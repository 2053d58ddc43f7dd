// Package mcptest runs MCP servers built with the official Go SDK for tests:
// over streamable HTTP (JSON answers or event streams, with a session or
// stateless), over the older HTTP+SSE transport, and over stdio.
//
//	url := mcptest.Start(t, mcptest.Options{})                          // streamable HTTP, event streams
//	url = mcptest.Start(t, mcptest.Options{JSONResponse: true, Stateless: true})
//	sse := mcptest.StartSSE(t, mcptest.Options{})                       // the older HTTP+SSE transport
//
// Every server lists the same tools (Tools), whose words hold what trips
// a careless counter: HTML characters that Go escapes and Node does not,
// non-ASCII text, U+2028, integer-like keys, and a schema maximum of
// 9007199254740991.
package mcptest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options shape a test server.
type Options struct {
	// JSONResponse answers with application/json instead of an event stream.
	JSONResponse bool
	// Stateless serves without a session id (a new session per request).
	Stateless bool
	// PageSize is the number of tools per tools/list page (0: all at once).
	PageSize int
	// Instructions are the server's instructions in its initialize answer.
	Instructions string
	// Tools replaces the tools listed (nil: Tools). A tool whose name is
	// not one of Tools' answers with its arguments' JSON as text.
	Tools []ToolSpec
}

// Name and Version are the server's implementation info.
const (
	Name    = "mcptest"
	Version = "1.0.0"
)

// ToolSpec is one tool the test servers list: its name, description and
// input schema as JSON text.
type ToolSpec struct {
	Name        string
	Description string
	InputSchema string
}

// Tools are the tools every test server lists, in the order the SDK lists
// them (by name).
var Tools = []ToolSpec{
	{
		Name:        "count",
		Description: "Counts to n.\u2028Integer-like keys come first in Node.",
		InputSchema: `{"type":"object","properties":{"n":{"type":"integer","minimum":0,"maximum":9007199254740991},"10":{"type":"string"},"2":{"type":"string"}}}`,
	},
	{
		Name:        "echo",
		Description: "Echoes the text back. Say <b>hello</b> & wave — café.",
		InputSchema: `{"type":"object","properties":{"text":{"type":"string","description":"What to echo."}},"required":["text"]}`,
	},
	{
		Name:        "fail",
		Description: "Always answers a tool error.",
		InputSchema: `{"type":"object","properties":{}}`,
	},
	{
		Name:        "notify",
		Description: "Sends a progress notification, then answers \"done\".",
		InputSchema: `{"type":"object"}`,
	},
}

// NewServer returns a Go SDK server listing Tools.
func NewServer(o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, &mcp.ServerOptions{
		Instructions: o.Instructions,
		PageSize:     o.PageSize,
	})
	specs := Tools
	if o.Tools != nil {
		specs = o.Tools
	}
	for _, spec := range specs {
		tool := &mcp.Tool{Name: spec.Name, Description: spec.Description, InputSchema: json.RawMessage(spec.InputSchema)}
		s.AddTool(tool, handler(spec.Name))
	}
	return s
}

func handler(name string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args map[string]any
		if len(req.Params.Arguments) > 0 {
			json.Unmarshal(req.Params.Arguments, &args)
		}
		text := func(s string) *mcp.CallToolResult {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
		}
		switch name {
		case "echo":
			s, _ := args["text"].(string)
			return text(s), nil
		case "count":
			b, _ := json.Marshal(args["n"])
			return text(string(b)), nil
		case "notify":
			if tok := req.Params.GetProgressToken(); tok != nil {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "half way"})
			}
			return text("done"), nil
		case "fail":
			r := text("it failed")
			r.IsError = true
			return r, nil
		}
		return text(string(req.Params.Arguments)), nil
	}
}

// Handler returns the streamable HTTP handler serving NewServer(o).
func Handler(o Options) http.Handler {
	s := NewServer(o)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		JSONResponse: o.JSONResponse,
		Stateless:    o.Stateless,
	})
}

// Start serves Handler(o) at /mcp on a loopback httptest server, closed
// when the test ends, and returns the endpoint's URL.
func Start(t testing.TB, o Options) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", Handler(o))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// StartSSE serves NewServer(o) over the older HTTP+SSE transport on a
// loopback httptest server, closed when the test ends, and returns the URL
// of its event stream (/sse).
func StartSSE(t testing.TB, o Options) string {
	t.Helper()
	s := NewServer(o)
	mux := http.NewServeMux()
	mux.Handle("/sse", mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.CloseClientConnections() // the event stream stays open otherwise
		srv.Close()
	})
	return srv.URL + "/sse"
}

// ServeStdio runs NewServer(o) on the process's stdin and stdout until
// stdin ends or ctx is done.
func ServeStdio(ctx context.Context, o Options) error {
	return NewServer(o).Run(ctx, &mcp.StdioTransport{})
}
