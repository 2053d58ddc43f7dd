package walk_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/readmeter/readmeter/internal/walktest"
	"github.com/readmeter/readmeter/walk"
)

// TestMain lets the test binary be a stdio MCP server (the Go SDK's) when
// WALK_TEST_STDIO is set.
func TestMain(m *testing.M) {
	if os.Getenv("WALK_TEST_STDIO") == "1" {
		if err := walktest.NewMCPServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestStdioDocAndExecSteps(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	logPath := filepath.Join(dir, "stdout.log")
	t.Setenv("WALK_TEST_BIN", bin)
	t.Setenv("WALK_TEST_LOG", logPath)
	write(t, dir, "doc.md", "# A document\nWith a time 2026-10-02T07:57:40.25+00:00.\n")
	p := write(t, dir, "w.yaml", `walk: stdio
normalize: [ full-width-times ]
servers:
  local:
    command: [ sh, -c, "'{{env.WALK_TEST_BIN}}' | tee '{{env.WALK_TEST_LOG}}'" ]
    env: { WALK_TEST_STDIO: "1" }
steps:
  - part: init
    mcp: initialize
  - part: initialized
    mcp: { notify: notifications/initialized }
  - part: list
    mcp: list
  - part: call
    mcp: { call: task, args: { action: done } }
    expect: { json: { structuredContent.task.state: done } }
  - part: the document
    doc: { file: doc.md }
  - part: hook lines
    doc: { exec: [ sh, -c, "printf 'line one\\nline two\\n'" ] }
  - exec: [ sh, -c, "echo '{\"a\":{\"b\":42}}'" ]
    keep: { b: a.b }
  - part: echo
    doc: { exec: "printf %s {{b}}" }
`)
	s := load(t, p)
	res, err := walk.Run(context.Background(), s, walk.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(lines) != 3 {
		t.Fatalf("the server wrote %d lines, want 3:\n%s", len(lines), out)
	}
	want := map[string]int64{
		"init": int64(len(lines[0])), "initialized": 0, "list": int64(len(lines[1])), "call": int64(len(lines[2])),
		"the document": int64(len("# A document\nWith a time 2026-10-02T07:57:40.250000+00:00.\n")),
		"hook lines":   int64(len("line one\nline two\n")), "echo": 2,
	}
	parts := res.Ledger.Parts()
	if len(parts) != len(want) {
		t.Fatalf("parts %+v", parts)
	}
	for _, p := range parts {
		if p.Bytes != want[p.Name] {
			t.Errorf("%s: %d bytes, want %d", p.Name, p.Bytes, want[p.Name])
		}
	}
	if res.Calls != 4 {
		t.Errorf("calls %d, want 4 (documents are not calls)", res.Calls)
	}
}
