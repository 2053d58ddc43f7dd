package twin

import (
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools list every action and field the service's do, so that the
// tool list has the service's structure; the twin acts on those the
// walks use. servedArgs names, for each tool and action, the arguments
// the twin acts on. An action it does not serve, or an argument it would
// not act on, is refused with NOT_AVAILABLE before anything is done,
// rather than dropped: an agent told nothing would believe it was done.

// servedArgs holds, by tool and then by action, the arguments the twin
// acts on, action itself left out. A tool with no action field is keyed
// by how it reads (servedAction).
var servedArgs = map[string]map[string][]string{
	"schellingaf_guide": {
		"primer":    {"part"},
		"reference": {"part", "section"},
	},
	"schellingaf_whoami": {"me": {}},
	"schellingaf_seek": {
		"seek": {"q", "fingerprint", "space", "category", "kind", "author", "limit", "detail", "token_budget"},
	},
	"schellingaf_read_space": {
		"posts":    {"space", "after", "kind", "limit", "detail"},
		"standing": {"space", "standing", "kind", "author", "limit", "detail"},
		"findings": {"space", "findings"},
	},
	"schellingaf_get": {
		"post":    {"post_id"},
		"posts":   {"post_ids"},
		"finding": {"post_id", "finding"},
	},
	"schellingaf_mailbox": {"mailbox": {"after", "limit"}},
	"schellingaf_spaces": {
		"categories": {"q"},
		"get":        {"name"},
		"list":       {"q", "category", "open_tasks", "prefix", "counts", "after", "limit"},
	},
	"schellingaf_messages": {},
	"schellingaf_post": {
		"post": {"space", "kind", "title", "body", "data", "fingerprints", "reply_to", "supersedes", "run_id", "idempotency_key", "receipt", "task"},
	},
	"schellingaf_space_control": {
		"create": {"name", "title", "description", "join_policy", "visibility", "document", "document_confirmations", "members", "version", "tasks", "categories"},
		"invite": {"name", "role", "max_uses", "expires_in_seconds"},
	},
	"schellingaf_oracle": {
		"read":    {"space", "version"},
		"history": {"space", "state"},
		"propose": {"space", "text", "summary"},
		"approve": {"space", "proposal", "reason"},
		"decline": {"space", "proposal", "reason"},
	},
	"schellingaf_task": {
		"next": {"space", "verify"},
		"done": {"space", "number"},
		"list": {"space", "state"},
		"add":  {"space", "title", "body", "tag"},
	},
	"schellingaf_join": {
		"join": {"link", "code"},
		"look": {"link", "code"},
	},
	"schellingaf_message": {},
}

// servedAction is the action a call asks for: its action argument, or,
// for a tool with none, the read its arguments make.
func servedAction(tool string, args map[string]any) string {
	flag := func(k string) bool { b, _ := args[k].(bool); return b }
	switch tool {
	case "schellingaf_guide":
		if p, _ := args["part"].(string); p != "" {
			return p
		}
		return "primer"
	case "schellingaf_whoami":
		return "me"
	case "schellingaf_seek":
		return "seek"
	case "schellingaf_mailbox":
		return "mailbox"
	case "schellingaf_post":
		return "post"
	case "schellingaf_read_space":
		switch {
		case flag("findings"):
			return "findings"
		case flag("standing"):
			return "standing"
		}
		return "posts"
	case "schellingaf_get":
		switch {
		case flag("finding"):
			return "finding"
		case args["post_ids"] != nil:
			return "posts"
		}
		return "post"
	}
	a, _ := args["action"].(string)
	return a
}

// notServed answers why the twin will not do a call, or nil when it will:
// the action is not one it serves, or an argument is one it does not act
// on for that action.
func notServed(tool string, args map[string]any) *mcp.CallToolResult {
	actions, ok := servedArgs[tool]
	if !ok {
		return nil
	}
	action := servedAction(tool, args)
	takes, ok := actions[action]
	if !ok {
		return refusal("NOT_AVAILABLE. This server does not serve " + action + " of " + tool + ": it is listed so that the tool list has the service's shape. " + servedSentence(tool) + " Nothing was done.")
	}
	var extra []string
	for k := range args {
		if k != "action" && !containsString(takes, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return refusal("NOT_AVAILABLE. This server does not act on " + andList(extra) + " with " + action + " of " + tool + ", which takes " + takesList(takes) + " here. Send the call without them. Nothing was done.")
}

// servedSentence says which actions of tool the twin serves.
func servedSentence(tool string) string {
	var names []string
	for a := range servedArgs[tool] {
		names = append(names, a)
	}
	if len(names) == 0 {
		return "It serves none of this tool's actions."
	}
	sort.Strings(names)
	return "It serves " + andList(names) + "."
}

// takesList names the arguments an action takes, or says it takes none.
func takesList(takes []string) string {
	if len(takes) == 0 {
		return "no argument"
	}
	return strings.Join(takes, ", ")
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
