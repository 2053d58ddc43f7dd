package main

import (
	"context"
	"errors"
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

func lock(t *testing.T, path string) *budgets.Locked {
	t.Helper()
	l, err := budgets.Lock(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestUpdateRefusesAFileChangedDuringTheRun: a file edited by hand, or
// deleted, while the walks ran (a hand does not take the lock) is not
// written: the edit stays, the deleted file stays deleted.
func TestUpdateRefusesAFileChangedDuringTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	start := `{"$server": "twin", "FIRST_TASK_TOKENS": {"w": 10, "v": 1}}`
	checks := gate.Checks{{Subject: "w", Key: "FIRST_TASK_TOKENS.w", Read: 42, Status: gate.Over}}
	for _, tc := range []struct {
		name   string
		change func() error
		want   string // the file after, "" for none
	}{
		{"edited", func() error { return os.WriteFile(path, []byte(`{"FIRST_TASK_TOKENS": {"w": 11, "v": 2}}`), 0o666) }, `{"FIRST_TASK_TOKENS": {"w": 11, "v": 2}}`},
		{"deleted", func() error { return os.Remove(path) }, ""},
		{"touched to the same bytes", func() error { return os.WriteFile(path, []byte(start), 0o666) }, `{"$server": "twin", "FIRST_TASK_TOKENS": {"w": 42, "v": 1}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(path, []byte(start), 0o666); err != nil {
				t.Fatal(err)
			}
			l := lock(t, path)
			defer l.Unlock()
			if err := tc.change(); err != nil {
				t.Fatal(err)
			}
			_, _, err := updateBudgets(l, "twin", checks, false)
			got, rerr := os.ReadFile(path)
			if tc.want == "" {
				if !errors.Is(err, budgets.ErrChanged) || !errors.Is(rerr, os.ErrNotExist) {
					t.Fatalf("update = %v; file: %s %v", err, got, rerr)
				}
				return
			}
			if string(got) != tc.want {
				t.Errorf("file: %s\nwant %s", got, tc.want)
			}
			if changed := tc.want != strings.Replace(start, `"w": 10`, `"w": 42`, 1); changed != errors.Is(err, budgets.ErrChanged) {
				t.Errorf("update = %v", err)
			}
			if err != nil && err.Error() != path+" changed during the run; nothing written" {
				t.Errorf("update = %q", err)
			}
		})
	}
}

// TestConcurrentUpdatesLoseNoMove races two --updates of one file, each
// moving its own budget, many times: each takes the lock before it reads
// the file, as walks run does at its start, and holds it to its write, so
// the second reads the first's move and keeps it. Every move either
// reports is in the file, and nothing is left beside it.
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
			wg.Go(func() {
				l, err := budgets.Lock(context.Background(), path, nil)
				if err != nil {
					t.Error(err)
					return
				}
				defer l.Unlock()
				checks := gate.Checks{{Subject: key, Key: "FIRST_TASK_TOKENS." + key, Read: int64(100 + trial), Status: gate.Over}}
				m, _, err := updateBudgets(l, "", checks, false)
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
	l := lock(t, path)
	defer l.Unlock()
	checks := gate.Checks{
		{Subject: "x", Key: "A.b", Read: 5, Status: gate.OK},
		{Subject: "y", Key: "A.b", Read: 6, Status: gate.OK},
	}
	if _, _, err := updateBudgets(l, "", checks, false); err == nil {
		t.Fatal("two walks set one budget: no error")
	}
}
