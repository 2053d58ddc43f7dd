package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readmeter/readmeter/budgets"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestUpdateWaitsForTheLock: while another run holds the budget file,
// measure --update waits, says so once on stderr, and then reads the file
// as the other run left it, keeping its budget.
func TestUpdateWaitsForTheLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.json")
	if err := os.WriteFile(path, []byte(`{"TOOL_LIST_TOKENS": {"other": 1}}`), 0o666); err != nil {
		t.Fatal(err)
	}
	held, err := budgets.Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(new(bytes.Buffer), &stderr, []string{"--budgets", path, "--update", "--budget-key", "mcp", "../../captures/twin/tools-mcp.json"})
	}()
	want := "measure: waiting for another run's --update of " + path + "\n"
	for deadline := time.Now().Add(time.Minute); !strings.Contains(stderr.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("no waiting line; stderr: %q", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The other run moves its budget and lets go.
	if _, err := held.Write(map[string]int64{"TOOL_LIST_TOKENS.other": 2}, ""); err != nil {
		t.Fatal(err)
	}
	held.Unlock()
	if err := <-done; err != nil {
		t.Fatalf("measure: %v\n%s", err, stderr.String())
	}
	if n := strings.Count(stderr.String(), "waiting"); n != 1 {
		t.Errorf("the waiting line %d times:\n%s", n, stderr.String())
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), `"other": 2`) || !strings.Contains(string(got), `"mcp": 14386`) {
		t.Errorf("file: %s", got)
	}
}
