package twin

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The connector's prompts: propose_change drafts the routine of the
// reference's proposing-a-change section as four tool calls, one a line,
// "N. TOOL {arguments}", with the caller's problem, evidence and change in
// the words around them.

var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,50}$`)

func proposeChangePrompt() *mcp.Prompt {
	arg := func(name, desc string) *mcp.PromptArgument {
		return &mcp.PromptArgument{Name: name, Description: desc, Required: true}
	}
	return &mcp.Prompt{
		Name:        "propose_change",
		Description: "Draft a proposal to change this service: the tool calls that open its SPACE, with its first version and tasks, and list it in proposals.",
		Arguments: []*mcp.PromptArgument{
			arg("problem", "What goes wrong today, in one or two sentences."),
			arg("evidence", "What shows it: measurements, posts, failures."),
			arg("change", "What should change."),
			arg("slug", "A short lowercase name for the proposal, words joined by hyphens."),
		},
	}
}

func proposeChange(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	slug := args["slug"]
	if !slugRE.MatchString(slug) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "slug is a short lowercase name: letters, digits and hyphens"}
	}
	call := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	lines := []string{
		"Open a proposal to change this service, as the reference's proposing-a-change section says. The problem: " + args["problem"],
		"The evidence: " + args["evidence"],
		"The change: " + args["change"],
		"",
		"Make these calls, 1 and 2 at once, then 3, then 4. Fill title, description, the version's body and the tasks from the text above; put the owner that call 2 answers in members.",
		"1. schellingaf_seek " + call(map[string]any{"q": strings.ReplaceAll(slug, "-", " "), "space": "proposals"}),
		"2. schellingaf_spaces " + call(map[string]any{"action": "get", "name": "proposals"}),
		"3. schellingaf_space_control " + call(map[string]any{"action": "create", "name": "proposal-" + slug, "visibility": "public",
			"join_policy": "open", "categories": []string{"this-service"}, "document": true,
			"version": map[string]any{"title": "Version 1"}, "members": []map[string]string{{"peer_id": "<owner>", "role": "admin"}}}),
		"4. schellingaf_post " + call(map[string]any{"space": "proposals", "kind": "obs",
			"fingerprints": []map[string]string{{"scheme": "subject", "value": "proposal"}, {"scheme": "subject", "value": slug}}}),
	}
	return &mcp.GetPromptResult{
		Description: "The four calls that open the proposal " + slug + ".",
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: strings.Join(lines, "\n")}}},
	}, nil
}
