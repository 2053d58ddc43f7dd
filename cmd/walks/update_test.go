package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/walk"
)

// TestUpdateMovesTheFileAsItIsNow: a file changed while the walks ran
// (another run's --update) is updated as it is then, its change kept.
func TestUpdateMovesTheFileAsItIsNow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	if err := os.WriteFile(path, []byte(`{"FIRST_TASK_TOKENS": {"w": 10, "v": 1}}`), 0o666); err != nil {
		t.Fatal(err)
	}
	bf, err := budgets.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// Another run moves v while the walks run.
	if err := os.WriteFile(path, []byte(`{"FIRST_TASK_TOKENS": {"w": 11, "v": 2}}`), 0o666); err != nil {
		t.Fatal(err)
	}
	checks := gate.Checks{{Subject: "w", Key: "FIRST_TASK_TOKENS.w", Read: 42, Status: gate.Over}}
	moves, err := updateBudgets(bf, checks)
	if err != nil || len(moves) != 1 || moves[0].Old != 11 || moves[0].New != 42 {
		t.Fatalf("update: %v %+v", err, moves)
	}
	if got, _ := os.ReadFile(path); string(got) != `{"FIRST_TASK_TOKENS": {"w": 42, "v": 2}}` {
		t.Errorf("file: %s", got)
	}
}

// TestConcurrentUpdatesLoseNoMove races two --updates of one file, each
// moving its own budget, many times: every move either reports is in the
// file, and nothing is left beside it.
func TestConcurrentUpdatesLoseNoMove(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "first-task.ts")
	const start = "export const FIRST_TASK_TOKENS = {\n  a: 1,\n  b: 1,\n} as const;\n"
	for trial := range 200 {
		if err := os.WriteFile(path, []byte(start), 0o644); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var moved [2][]walk.MoveReport
		for i, key := range []string{"a", "b"} {
			bf, err := budgets.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			wg.Go(func() {
				checks := gate.Checks{{Subject: key, Key: "FIRST_TASK_TOKENS." + key, Read: int64(100 + trial), Status: gate.Over}}
				m, err := updateBudgets(bf, checks)
				if err != nil {
					t.Error(err)
				}
				moved[i] = m
			})
		}
		wg.Wait()
		got, _ := os.ReadFile(path)
		for i, key := range []string{"a", "b"} {
			if len(moved[i]) != 1 {
				t.Fatalf("trial %d: %s moves %+v", trial, key, moved[i])
			}
			if want := fmt.Sprintf("  %s: %d,", key, 100+trial); !strings.Contains(string(got), want) {
				t.Fatalf("trial %d: the move of %s reported (%+v) is not in the file:\n%s", trial, key, moved[i][0], got)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left beside the file: %v", ents)
	}
}

func TestUpdateRefusesTwoReadingsOfOneKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	os.WriteFile(path, []byte(`{"A": {"b": 1}}`), 0o666)
	bf, _ := budgets.Load(path)
	checks := gate.Checks{
		{Subject: "x", Key: "A.b", Read: 5, Status: gate.OK},
		{Subject: "y", Key: "A.b", Read: 6, Status: gate.OK},
	}
	if _, err := updateBudgets(bf, checks); err == nil {
		t.Fatal("two walks set one budget: no error")
	}
}
