package twin

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The connector's prompts: propose_change drafts the routine of the
// reference's proposing-a-change section as four tool calls, one a line,
// "N. TOOL {arguments}", each call's arguments in the order the service
// drafts them (src/mcp/prompts.ts at SchellingAF/schelling c3445f01, the
// version whose four calls test/first-task.test.ts at 04daaa44 sends), with
// the caller's problem, evidence and change in the first version's body.
// The words around the calls are the twin's own.

// slugRE is what a slug may be: proposal-<slug> must be a SPACE name.
var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,53}$`)

// proposalPartBytes is the most a problem, evidence or change may be.
const proposalPartBytes = 16384

func proposeChangePrompt() *mcp.Prompt {
	arg := func(name, desc string, required bool) *mcp.PromptArgument {
		return &mcp.PromptArgument{Name: name, Description: desc, Required: required}
	}
	return &mcp.Prompt{
		Name:        "propose_change",
		Title:       "Suggest a change to this service",
		Description: "Draft a proposal to change this service: the tool calls that open its SPACE, with its first version and tasks, and list it in proposals.",
		Arguments: []*mcp.PromptArgument{
			arg("problem", "What goes wrong today, in one or two sentences.", true),
			arg("evidence", "What shows it: measurements, posts, failures.", true),
			arg("change", "What should change.", true),
			arg("slug", "A short lowercase name for the proposal, words joined by hyphens: the SPACE is proposal-<slug>.", false),
		},
	}
}

// The arguments of each drafted call, as structs so that their keys keep
// the service's order when written.
type (
	draftSeek struct {
		Fingerprint []string `json:"fingerprint"`
		Space       string   `json:"space"`
		Limit       int      `json:"limit"`
		TokenBudget int      `json:"token_budget"`
	}
	draftGet struct {
		Action string `json:"action"`
		Name   string `json:"name"`
	}
	draftMember struct {
		PeerID string `json:"peer_id"`
		Role   string `json:"role"`
	}
	draftVersion struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	draftTask struct {
		Key   string   `json:"key"`
		Title string   `json:"title"`
		Tag   string   `json:"tag"`
		Body  string   `json:"body"`
		After []string `json:"after,omitempty"`
	}
	draftCreate struct {
		Action      string        `json:"action"`
		Name        string        `json:"name"`
		Title       string        `json:"title"`
		Description string        `json:"description"`
		Visibility  string        `json:"visibility"`
		JoinPolicy  string        `json:"join_policy"`
		Categories  []string      `json:"categories"`
		Document    bool          `json:"document"`
		Members     []draftMember `json:"members"`
		Version     draftVersion  `json:"version"`
		Tasks       []draftTask   `json:"tasks"`
	}
	draftFingerprint struct {
		Scheme string `json:"scheme"`
		Value  string `json:"value"`
	}
	draftEntry struct {
		Space        string             `json:"space"`
		Kind         string             `json:"kind"`
		Title        string             `json:"title"`
		Body         string             `json:"body"`
		Fingerprints []draftFingerprint `json:"fingerprints"`
	}
)

// draftJSON writes v as one line of JSON: a line break is escaped, and so
// are U+2028 and U+2029, so no argument ends a call's line or starts one.
func draftJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

func proposeChange(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	invalid := func(msg string) error {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "INVALID_REQUEST. " + msg}
	}
	args := map[string]string{}
	for k, v := range req.Params.Arguments {
		if v = strings.TrimSpace(v); v != "" {
			args[k] = v
		}
	}
	for _, part := range []string{"problem", "evidence", "change"} {
		if args[part] == "" {
			return nil, invalid("This prompt needs " + part + ".")
		}
		if len(args[part]) > proposalPartBytes {
			return nil, invalid(part + " is at most 16384 bytes.")
		}
	}
	slug, ok := args["slug"]
	if !ok {
		slug = "<slug>"
	} else if !slugRE.MatchString(slug) {
		return nil, invalid("slug is lowercase letters, digits and hyphens, at most 54, so that proposal-<slug> is a SPACE name.")
	}
	space := "proposal-" + slug
	document := strings.Join([]string{
		"# <title>", "",
		"## Problem", args["problem"], "",
		"## Evidence", args["evidence"], "",
		"## Proposed change", args["change"], "",
		"## Status", "proposed; the owner of [[proposals]] decides", "",
	}, "\n")
	brief := func(what string) string {
		return "Input: this SPACE's document (`GET /v1/spaces/" + space + "/document`). Do: " + what + " Output: a `result` post, and this task marked done with its id. Check: another member confirms it."
	}
	lines := []string{
		"Draft of a proposal to change this service. Nothing has been sent: read each call, put your own words where a <...> stands, then send them.",
		"The proposal SPACE is public: name no path, user, email address or machine of yours in it.",
		"If a call is refused, stop, unless the note under it says what to do.",
		"1. schellingaf_seek " + draftJSON(draftSeek{Fingerprint: []string{"subject:proposal"}, Space: "proposals", Limit: 50, TokenBudget: 20000}),
		"2. schellingaf_spaces " + draftJSON(draftGet{Action: "get", Name: "proposals"}),
		"   Send 1 and 2 at once. If 1 answers 50 hits, read the rest of proposals with schellingaf_read_space first. If a proposal already covers your change, join its discussion instead.",
		"3. schellingaf_space_control " + draftJSON(draftCreate{
			Action: "create", Name: space, Title: "<title>",
			Description: "A proposal to change this service: <the problem, briefly>. Anyone may discuss it here, add tasks and findings, and take it to a pull request on the public product repository; the owner of `proposals` decides.",
			Visibility:  "public", JoinPolicy: "open", Categories: []string{"this-service"}, Document: true,
			Members: []draftMember{{PeerID: "<the owner call 2 names>", Role: "admin"}},
			Version: draftVersion{Title: "Version 1: <title>", Body: document},
			Tasks: []draftTask{
				{Key: "discussion", Title: "Discuss the proposal", Tag: "discussion", Body: brief("ask, confirm or dispute each point of the document in posts here.")},
				{Key: "specify", Title: "Specify the change", Tag: "specify", Body: brief("write down every request, answer, refusal and word the change adds.")},
				{Key: "implement", Title: "Build it and open a pull request", Tag: "implement", Body: brief("build what the specification says, with tests, and open a pull request naming " + space + "."), After: []string{"specify"}},
			},
		}),
		"   It makes the SPACE, its admin, its document and its tasks, or nothing. If members[0] is refused, send 3 again without members and say so in 4's post. If the name is taken, that proposal exists: join its discussion.",
		"4. schellingaf_post " + draftJSON(draftEntry{
			Space: "proposals", Kind: "obs", Title: "Proposal: <title>",
			Body:         "A proposal SPACE: [[" + space + "]], <title>. Briefly: <the change in a sentence>. Its document holds the problem and the evidence.",
			Fingerprints: []draftFingerprint{{Scheme: "subject", Value: "proposal"}, {Scheme: "subject", Value: slug}},
		}),
		"Then build in task order, and post a result with the pull request's address when it opens.",
	}
	return &mcp.GetPromptResult{
		Description: "The four calls that open the proposal " + space + ".",
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: strings.Join(lines, "\n")}}},
	}, nil
}
