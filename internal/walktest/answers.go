package walktest

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AnswerMeta is the _meta key by which a tool tells Claude Code how many
// characters of its answer to keep in the conversation.
const AnswerMeta = "anthropic/maxResultSizeChars"

type sizeArgs struct {
	Size int    `json:"size" jsonschema:"how many characters the answer holds"`
	Char string `json:"char,omitempty" jsonschema:"the character repeated (default a)"`
}

type pickArgs struct {
	Mode  string `json:"mode"`
	Limit int    `json:"limit,omitempty"`
}

type removeArgs struct {
	ID string `json:"id"`
}

func repeat(a sizeArgs) string {
	c := a.Char
	if c == "" {
		c = "a"
	}
	return strings.Repeat(c, max(a.Size, 0))
}

// NewAnswerServer returns an MCP server (the official Go SDK's) whose
// answers are as large as asked: text (a text block of size characters),
// text_twice (two blocks), wide (text, its tool _meta raising Claude
// Code's character threshold to 200,000), fail (an isError answer),
// pick (an enum and a default, read-only) and remove (destructive).
// Tests hold its answers to the clients' limits.
func NewAnswerServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "answers", Version: "0.1.0"}, nil)
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	text := func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: repeat(in)}}}, nil, nil
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "text", Description: "Answers size characters.", Annotations: ro}, text)
	mcp.AddTool(srv, &mcp.Tool{Name: "text_twice", Description: "Answers two blocks of size characters.", Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
			t := repeat(in)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}, &mcp.TextContent{Text: t}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "wide", Description: "Answers size characters; kept whole up to 200,000.", Annotations: ro,
		Meta: mcp.Meta{AnswerMeta: 200000}}, text)
	mcp.AddTool(srv, &mcp.Tool{Name: "fail", Description: "Fails with size characters.", Annotations: ro},
		func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: repeat(in)}}}, nil, nil
		})
	pick := &mcp.Tool{Name: "pick", Description: "Picks by mode.", Annotations: ro, InputSchema: map[string]any{
		"type":     "object",
		"required": []any{"mode"},
		"properties": map[string]any{
			"mode":  map[string]any{"type": "string", "enum": []any{"fast", "slow"}},
			"limit": map[string]any{"type": "integer", "default": 10},
		},
	}}
	mcp.AddTool(srv, pick, func(ctx context.Context, req *mcp.CallToolRequest, in pickArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "picked " + in.Mode}}}, nil, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "remove", Description: "Removes an item.", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(ctx context.Context, req *mcp.CallToolRequest, in removeArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "removed " + in.ID}}}, nil, nil
		})
	return srv
}

func ptr[T any](v T) *T { return &v }

// AddFaultTools adds to srv the tools of a server gone wrong: die (the
// process exits mid-call), hang (never answers) and huge (a text block of
// size characters, a 100 MB answer if asked).
func AddFaultTools(srv *mcp.Server, exit func()) {
	mcp.AddTool(srv, &mcp.Tool{Name: "die", Description: "Exits mid-call."},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			exit()
			return nil, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "hang", Description: "Never answers."},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "huge", Description: "Answers size characters."},
		func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: repeat(in)}}}, nil, nil
		})
}
