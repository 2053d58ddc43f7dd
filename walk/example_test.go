package walk_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

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
