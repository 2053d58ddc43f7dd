package budgets

import (
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	f := load(t, "testdata/first-task.ts")
	tmpl := "- a start over HTTP: start-tasks {{FIRST_TASK_TOKENS.start_tasks}}, start-research {{ FIRST_TASK_TOKENS.start_research }} and start-coordinate {{FIRST_TASK_TOKENS.start_coordinate|group}} tokens;\n" +
		"{{TOOL_LIST_TOKENS.mcp}} tokens at `/mcp`; raw {{SURVEY_BUDGET.bytes | raw}}; small {{PROPOSAL_ROUTINE.calls}}; literal {{\"{{\"}}x}}\n"
	want := "- a start over HTTP: start-tasks 2,846, start-research 2,885 and start-coordinate 2,902 tokens;\n" +
		"13,724 tokens at `/mcp`; raw 30291; small 4; literal {{x}}\n"
	got, err := RenderFile("README.tmpl", []byte(tmpl), f)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("RenderFile =\n%s\nwant\n%s", got, want)
	}
	plain := "no placeholders } { here\n"
	if got, _ := RenderFile("README.tmpl", []byte(plain), f); string(got) != plain {
		t.Errorf("RenderFile of plain text = %q", got)
	}
}

func TestRenderErrors(t *testing.T) {
	f := load(t, "testdata/first-task.ts")
	for _, tc := range []struct{ tmpl, want string }{
		{"line one\n{{FIRST_TASK_TOKENS.nope}}", "reference.md:2: {{FIRST_TASK_TOKENS.nope}}: testdata/first-task.ts: no budget FIRST_TASK_TOKENS.nope: block FIRST_TASK_TOKENS holds"},
		{"\n\n{{SURVEY_BUDGET.bytes | words}}", `reference.md:3: {{SURVEY_BUDGET.bytes | words}}: unknown format "words"; use group (2,450) or raw (2450)`},
		{"a {{SURVEY_BUDGET.bytes", "reference.md:1: a {{ placeholder is not closed with }}"},
		{`{{"x}}`, `reference.md:1: "x is not a quoted string`},
	} {
		_, err := RenderFile("reference.md", []byte(tc.tmpl), f)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("RenderFile(%q) = %v\nwant prefix %s", tc.tmpl, err, tc.want)
		}
	}
}
