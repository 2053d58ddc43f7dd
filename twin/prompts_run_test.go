package twin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPromptsFollowTheToolset lists the prompts at every address: the five
// at /mcp and /mcp/connect, in the service's order, and at a toolset only
// those whose tools the set holds all of (ask_to_join needs
// schellingaf_message, which no set holds). A prompt's text leaves out the
// lines whose tools its set leaves out, and a malformed argument is
// refused.
func TestPromptsFollowTheToolset(t *testing.T) {
	srv := startTwin(t, Options{JSONAnswers: true})
	tok, _ := keyToken(t, srv.URL)
	app := appToken(t, srv.URL)
	all := []string{"start_run", "write_dossier", "hand_off", "ask_to_join", "propose_change"}
	for _, tc := range []struct {
		addr, tok string
		want      []string
	}{
		{"/mcp", tok, all},
		{"/mcp/connect", app, all},
		{"/mcp?tools=tasks", tok, []string{"start_run", "write_dossier"}},
		{"/mcp?tools=research", tok, []string{"start_run", "write_dossier"}},
		{"/mcp?tools=coordinate", tok, []string{"start_run", "write_dossier", "hand_off", "propose_change"}},
	} {
		r := mcpPost(t, srv.URL+tc.addr, tc.tok, rpcBody(1, "prompts/list", map[string]any{}))
		var m struct {
			Result struct {
				Prompts []struct {
					Name  string `json:"name"`
					Title string `json:"title"`
				} `json:"prompts"`
			} `json:"result"`
		}
		json.Unmarshal(r.msg, &m)
		var got []string
		for _, p := range m.Result.Prompts {
			got = append(got, p.Name)
			if p.Title == "" {
				t.Errorf("%s: %s has no title", tc.addr, p.Name)
			}
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s: prompts (-want +got):\n%s", tc.addr, d)
		}
	}

	text := func(addr, name string, args map[string]any) (string, string) {
		r := mcpPost(t, srv.URL+addr, tok, rpcBody(2, "prompts/get", map[string]any{"name": name, "arguments": args}))
		var m struct {
			Result struct {
				Messages []struct {
					Content struct{ Text string } `json:"content"`
				} `json:"messages"`
			} `json:"result"`
			Error *struct{ Message string } `json:"error"`
		}
		json.Unmarshal(r.msg, &m)
		if m.Error != nil {
			return "", m.Error.Message
		}
		if len(m.Result.Messages) != 1 {
			t.Fatalf("%s %s: %s", addr, name, r.raw)
		}
		return m.Result.Messages[0].Content.Text, ""
	}
	full, _ := text("/mcp", "start_run", map[string]any{"space": "my-work"})
	narrow, _ := text("/mcp?tools=research", "start_run", map[string]any{})
	for _, want := range []string{"schellingaf_task next", "schellingaf_spaces action categories", "space my-work", "5. SEEK"} {
		if !strings.Contains(full, want) {
			t.Errorf("start_run at /mcp lacks %q:\n%s", want, full)
		}
	}
	if strings.Contains(narrow, "schellingaf_task") || !strings.Contains(narrow, "schellingaf_spaces") || !strings.Contains(narrow, "4. SEEK") {
		t.Errorf("start_run at the research set keeps a line of a tool it leaves out, or loses one it holds:\n%s", narrow)
	}
	if d, _ := text("/mcp?tools=tasks", "write_dossier", map[string]any{"space": "my-work"}); strings.Contains(d, "schellingaf_space_control") {
		t.Errorf("write_dossier at the tasks set names schellingaf_space_control:\n%s", d)
	}
	if _, e := text("/mcp?tools=tasks", "hand_off", map[string]any{"space": "my-work"}); e == "" {
		t.Errorf("hand_off at the tasks set, which lists no hand_off, answered")
	}
	for _, bad := range []struct {
		name string
		args map[string]any
	}{
		{"write_dossier", map[string]any{}},
		{"write_dossier", map[string]any{"space": "Not A Name"}},
		{"write_dossier", map[string]any{"space": "my-work", "run_id": "run-1"}},
		{"hand_off", map[string]any{"space": "my-work", "to": "someone"}},
	} {
		if _, e := text("/mcp", bad.name, bad.args); !strings.HasPrefix(e, "INVALID_REQUEST.") {
			t.Errorf("%s %v: error %q, want INVALID_REQUEST", bad.name, bad.args, e)
		}
	}
}
