package toollist

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestNameLint(t *testing.T) {
	for _, tc := range []struct {
		name          string
		openAI, gemin bool // refused by
	}{
		{"echo", false, false},
		{"get_file-v2", false, false},
		{"_private", false, false},
		{strings.Repeat("a", 64), false, false},
		{strings.Repeat("a", 65), true, true},
		{"", true, true},
		{"ns.search", true, false},
		{"ns:search", true, false},
		{"1st", false, true},
		{"-x", false, true},
		{"has space", true, true},
		{"café", true, true},
	} {
		l, ok := NameLint(tc.name)
		if ok != (tc.openAI || tc.gemin) {
			t.Errorf("NameLint(%q): lint %v, want %v", tc.name, ok, tc.openAI || tc.gemin)
			continue
		}
		if strings.Contains(l.Text, "OpenAI") != tc.openAI || strings.Contains(l.Text, "Gemini") != tc.gemin {
			t.Errorf("NameLint(%q) = %q: OpenAI %v, Gemini %v wanted", tc.name, l.Text, tc.openAI, tc.gemin)
		}
	}
}

func TestCountLint(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{40, ""},
		{41, "41 tools: Cursor sends only the first 40 tools to the agent"},
		{65, "65 tools: Cursor sends only the first 40 tools to the agent; Gemini API takes at most 64 function declarations"},
		{101, "101 tools: Cursor sends only the first 40 tools to the agent; Gemini API takes at most 64 function declarations; Windsurf takes at most 100 tools in all"},
		{129, "129 tools: Cursor sends only the first 40 tools to the agent; Gemini API takes at most 64 function declarations; Windsurf takes at most 100 tools in all; OpenAI API refuses a request with more than 128 tools; VS Code fails a chat request with more than 128 tools"},
	} {
		l, ok := CountLint(tc.n)
		if ok != (tc.want != "") || l.Text != tc.want {
			t.Errorf("CountLint(%d) = %q, want %q", tc.n, l.Text, tc.want)
		}
	}
}

func TestLintsCuts(t *testing.T) {
	f := &Figures{Tools: 2, PerTool: []ToolFigures{
		{Name: "a", HasName: true, HasInputSchema: true, DescriptionChars: ClaudeCodeCutChars},
		{Name: "b", HasName: true, HasInputSchema: true, DescriptionChars: ClaudeCodeCutChars + 1},
	}}
	in := &Init{HasInstructions: true, Chars: 5000}
	ls := Lints(f, in)
	if len(ls) != 2 || ls[0].Rule != "description-cut" || ls[0].Tool != "b" || ls[1].Rule != "instructions-cut" {
		t.Fatalf("Lints = %+v", ls)
	}
	if ls[1].Text != "the instructions are 5,000 characters: Claude Code cuts instructions at 2,048" {
		t.Errorf("instructions lint: %q", ls[1].Text)
	}
}

// TestLintsInputSchema: a tool without the inputSchema MCP requires is a
// lint, whichever path measured it (the plain pass, the what-if walk, the
// tokenizer pass).
func TestLintsInputSchema(t *testing.T) {
	const capture = `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","description":"no schema"}]}`
	for _, opts := range []struct {
		name string
		ts   []Transform
		tk   bool
	}{{"plain", nil, false}, {"what-if", []Transform{Lean()}, false}, {"tokenizer", nil, true}} {
		t.Run(opts.name, func(t *testing.T) {
			f := measureForLint(t, capture, opts.ts, opts.tk)
			var got []string
			for _, l := range Lints(f, nil) {
				got = append(got, l.Rule+" "+l.Tool)
			}
			if len(got) != 1 || got[0] != "input-schema b" {
				t.Errorf("Lints = %q, want [input-schema b]", got)
			}
		})
	}
}

// TestNameRules holds the byte-by-byte name rules to the regular
// expressions they stand for, on every one- and two-byte name and on
// lengths around the limit.
func TestNameRules(t *testing.T) {
	openAI := regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	gemini := regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
	var names []string
	for a := range 256 {
		names = append(names, string([]byte{byte(a)}))
		for b := range 256 {
			names = append(names, string([]byte{byte(a), byte(b)}))
		}
	}
	for _, n := range []int{63, 64, 65} {
		names = append(names, strings.Repeat("a", n), "_"+strings.Repeat("9", n-1), strings.Repeat("é", n/2))
	}
	names = append(names, "", "a\n", "a:b.c-d_e")
	for _, name := range names {
		if got, want := openAIName(name), openAI.MatchString(name); got != want {
			t.Errorf("openAIName(%q) = %v, want %v", name, got, want)
		}
		if got, want := geminiName(name), gemini.MatchString(name); got != want {
			t.Errorf("geminiName(%q) = %v, want %v", name, got, want)
		}
	}
}

// measureForLint measures capture as read from a file: with the what-ifs
// ts applied while reading, or counted by a tokenizer when tk.
func measureForLint(t *testing.T, capture string, ts []Transform, tk bool) *Figures {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(path, []byte(capture), 0o666); err != nil {
		t.Fatal(err)
	}
	o := Options{Transforms: ts}
	if tk {
		o = Options{Counters: []Counter{textCounter{"a", 1000}}}
	}
	c, err := Open(path, o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f := c.Figures
	return f
}
