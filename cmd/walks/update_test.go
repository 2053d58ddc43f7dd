package main

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/gate"
)

func TestUpdateRefusesAFileChangedDuringTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	if err := os.WriteFile(path, []byte(`{"FIRST_TASK_TOKENS": {"w": 10}}`), 0o666); err != nil {
		t.Fatal(err)
	}
	bf, err := budgets.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// Someone edits the file while the walks run.
	changed := []byte(`{"FIRST_TASK_TOKENS": {"w": 11}}`)
	if err := os.WriteFile(path, changed, 0o666); err != nil {
		t.Fatal(err)
	}
	checks := gate.Checks{{Subject: "w", Key: "FIRST_TASK_TOKENS.w", Read: 42, Status: gate.Over}}
	_, err = updateBudgets(bf, checks)
	if !errors.Is(err, budgets.ErrChanged) {
		t.Fatalf("update: %v, want ErrChanged", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(changed) {
		t.Errorf("the file was overwritten: %s", got)
	}
	// Unchanged, it is written.
	bf, _ = budgets.Load(path)
	moves, err := updateBudgets(bf, checks)
	if err != nil || len(moves) != 1 || moves[0].Old != 11 || moves[0].New != 42 {
		t.Fatalf("update: %v %+v", err, moves)
	}
	if got, _ := os.ReadFile(path); string(got) != `{"FIRST_TASK_TOKENS": {"w": 42}}` {
		t.Errorf("file: %s", got)
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
