package walk_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/walk"
)

func Example() {
	// A server that answers the primer and a task.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			io.WriteString(w, "# Primer\nStart with the next task.\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"task":{"number":7,"state":"open"}}`)
	}))
	defer srv.Close()

	dir, _ := os.MkdirTemp("", "walk")
	defer os.RemoveAll(dir)
	spec := filepath.Join(dir, "first.yaml")
	os.WriteFile(spec, []byte(`walk: first
budget: FIRST_TASK_TOKENS.first
steps:
  - part: the primer
    http: GET /
  - part: the next task
    http: POST /tasks/next
    expect: { status: 200, json: { task.number: 7 } }
`), 0o644)

	s, err := walk.Load(spec)
	if err != nil {
		panic(err)
	}
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
	if err != nil {
		panic(err)
	}
	for _, p := range res.Ledger.Parts() {
		fmt.Printf("%s: %d bytes, %d tokens\n", p.Name, p.Bytes, p.Tokens)
	}
	fmt.Println("total:", res.Ledger.Bytes(), "bytes,", res.Ledger.Tokens(), "tokens,", res.Calls, "calls")

	// Hold the walk to its budget.
	bf, _ := budgets.Parse("budgets.json", []byte(`{"FIRST_TASK_TOKENS": {"first": 20}}`))
	checks, _ := res.Checks(bf)
	for _, c := range checks {
		fmt.Println(c.Key, c.Status, "slack", c.Slack())
	}
	// Output:
	// the primer: 35 bytes, 11 tokens
	// the next task: 36 bytes, 12 tokens
	// total: 71 bytes, 23 tokens, 2 calls
	// FIRST_TASK_TOKENS.first over slack -3
}

// ExampleLoad reads a spec and looks at its steps: each step's Action is a
// type of its kind, *walk.HTTPRequest, *walk.MCPRequest and the like.
func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "walk")
	defer os.RemoveAll(dir)
	spec := filepath.Join(dir, "tools.yaml")
	os.WriteFile(spec, []byte(`walk: tools
servers:
  api: { url: /mcp }
setup:
  - pkce: login
steps:
  - part: the primer
    http: GET /
  - part: the tool list
    mcp: list
  - together:
      - part: one
        mcp: { call: next_task }
      - part: two
        http: GET /tasks
`), 0o644)

	s, err := walk.Load(spec)
	if err != nil {
		panic(err)
	}
	for _, st := range append(s.Setup, s.Flat()...) {
		switch a := st.Action.(type) {
		case *walk.HTTPRequest:
			fmt.Println(st.Title(), "-", a.Kind(), a.Method, a.URL)
		case *walk.MCPRequest:
			fmt.Println(st.Title(), "-", a.Kind(), strings.TrimSpace(string(a.Op)+" "+a.Name))
		default:
			fmt.Println(st.Title(), "-", a.Kind())
		}
	}
	// Output:
	// set-up pkce step - pkce
	// the primer - http GET /
	// the tool list - mcp list
	// one - mcp call next_task
	// two - http GET /tasks
}
