package main

import (
	"strings"
	"testing"

	"github.com/readmeter/readmeter/toollist"
)

// TestSetupCountLint holds measure config's whole-setup tool count: with
// --client, that client's cap of every server's tools together; without,
// the caps of every client and API.
func TestSetupCountLint(t *testing.T) {
	cursor, _ := toollist.ClientProfile("cursor")
	claude, _ := toollist.ClientProfile("claude-code")
	for _, tc := range []struct {
		name  string
		p     *toollist.Profile
		tools int
		want  string // "" for no lint
	}{
		{"cursor at its cap", cursor, 40, ""},
		{"cursor past its cap", cursor, 41, "Cursor sends only the first 40 tools to the agent: the servers list 41 tools together, 1 past the cap of 40"},
		{"a client with no cap", claude, 500, ""},
		{"no client: the caps of all", nil, 41, "41 tools: Cursor "},
		{"no client, few tools", nil, 3, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, ok := setupCountLint(tc.p, tc.tools)
			if ok != (tc.want != "") {
				t.Fatalf("lint %v (%q), want one: %v", ok, l.Text, tc.want != "")
			}
			if ok && !strings.HasPrefix(l.Text, tc.want) {
				t.Errorf("lint %q, want it to start %q", l.Text, tc.want)
			}
		})
	}
}
