package budgets

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestInsert(t *testing.T) {
	for _, tc := range []struct {
		name, path, in, want string
		values               map[string]int64
	}{{
		name:   "JSON: a key after the block's last",
		path:   "b.json",
		in:     "{\n  \"TOOL_LIST_TOKENS\": {\n    \"mcp\": 100\n  }\n}\n",
		values: map[string]int64{"TOOL_LIST_TOKENS.tasks": 20, "TOOL_LIST_TOKENS.mcp": 100},
		want:   "{\n  \"TOOL_LIST_TOKENS\": {\n    \"mcp\": 100,\n    \"tasks\": 20\n  }\n}\n",
	}, {
		name:   "JSON: a new block at the end",
		path:   "b.json",
		in:     "{\n    \"FIRST_TASK_TOKENS\": {\n        \"plugin\": 5\n    }\n}\n",
		values: map[string]int64{"TOOL_LIST_TOKENS.mcp": 11161},
		want:   "{\n    \"FIRST_TASK_TOKENS\": {\n        \"plugin\": 5\n    },\n    \"TOOL_LIST_TOKENS\": {\n        \"mcp\": 11161\n    }\n}\n",
	}, {
		name:   "TypeScript: a key after a trailing comma, separators kept",
		path:   "first-task.ts",
		in:     "// budgets\nexport const TOOL_LIST_TOKENS = {\n  mcp: 11_161, // the connector\n} as const;\n",
		values: map[string]int64{"TOOL_LIST_TOKENS.tasks": 2345, "TOOL_LIST_TOKENS.my-set": 7},
		want:   "// budgets\nexport const TOOL_LIST_TOKENS = {\n  mcp: 11_161, // the connector\n  \"my-set\": 7,\n  tasks: 2_345,\n} as const;\n",
	}, {
		name:   "TypeScript: a new block",
		path:   "first-task.ts",
		in:     "export const FIRST_TASK_TOKENS = {\n  plugin: 23_324\n} as const;\n",
		values: map[string]int64{"TOOL_LIST_TOKENS.mcp": 11161},
		want:   "export const FIRST_TASK_TOKENS = {\n  plugin: 23_324\n} as const;\n\nexport const TOOL_LIST_TOKENS = {\n  mcp: 11_161\n} as const;\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(tc.path, []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.Insert(tc.values)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			g, err := Parse(tc.path, got)
			if err != nil {
				t.Fatal(err)
			}
			for name, v := range tc.values {
				if b, ok := g.Get(name); !ok || b.Value != v {
					t.Errorf("%s: %v %v", name, b.Value, ok)
				}
			}
		})
	}
}

func TestNew(t *testing.T) {
	for path, want := range map[string]string{
		"budgets.json": "{\n  \"TOOL_LIST_TOKENS\": {\n    \"mcp\": 10,\n    \"total\": 30\n  }\n}\n",
		"budgets.ts":   "export const TOOL_LIST_TOKENS = {\n  mcp: 10,\n  total: 30,\n} as const;\n",
	} {
		got, err := New(path, "", map[string]int64{"TOOL_LIST_TOKENS.mcp": 10, "TOOL_LIST_TOKENS.total": 30})
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n%s\nwant\n%s", path, got, want)
		}
	}
}

func TestLockedWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "budgets.json")
	ctx := context.Background()
	set := func(values map[string]int64) (*Written, error) {
		l, err := Lock(ctx, path, nil)
		if err != nil {
			return nil, err
		}
		defer l.Unlock()
		return l.Write(values, "")
	}
	w, err := set(map[string]int64{"TOOL_LIST_TOKENS.mcp": 10})
	if err != nil || len(w.Moves) != 1 || len(w.Added) != 1 {
		t.Fatalf("create: %+v %v", w, err)
	}
	w, err = set(map[string]int64{"TOOL_LIST_TOKENS.mcp": 12, "FIRST_TASK_TOKENS.plugin": 5})
	if err != nil || len(w.Added) != 1 || w.Added[0] != "FIRST_TASK_TOKENS.plugin" {
		t.Fatalf("add: %+v %v", w, err)
	}
	if b, ok := w.File.Get("FIRST_TASK_TOKENS.plugin"); !ok || b.Value != 5 || b.Line != 6 {
		t.Errorf("the file as written holds %+v, %v; want plugin 5 at line 6", b, ok)
	}
	if w, err = set(map[string]int64{"TOOL_LIST_TOKENS.mcp": 12}); err != nil || w.File.Bytes() == nil {
		t.Fatalf("unchanged: %+v %v", w, err)
	} else if b, _ := w.File.Get("TOOL_LIST_TOKENS.mcp"); b.Value != 12 {
		t.Errorf("unchanged: the file holds mcp %d, want 12", b.Value)
	}
	got, _ := os.ReadFile(path)
	want := "{\n  \"TOOL_LIST_TOKENS\": {\n    \"mcp\": 12\n  },\n  \"FIRST_TASK_TOKENS\": {\n    \"plugin\": 5\n  }\n}\n"
	if string(got) != want {
		t.Errorf("file:\n%s\nwant\n%s", got, want)
	}
}

// WriteExisting moves the numbers a file has and adds no key, block or
// file.
func TestLockedWriteExisting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "budgets.json")
	ctx := context.Background()
	move := func(values map[string]int64) (*Written, error) {
		l, err := Lock(ctx, path, nil)
		if err != nil {
			return nil, err
		}
		defer l.Unlock()
		return l.WriteExisting(values)
	}
	if _, err := move(map[string]int64{"TOOL_LIST_TOKENS.mcp": 10}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no file: %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no file: a file was created: %v", err)
	}
	orig := "{\n  \"TOOL_LIST_TOKENS\": {\n    \"mcp\": 10\n  }\n}\n"
	if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := move(map[string]int64{"TOOL_LIST_TOKENS.mcp": 12, "TOOL_LIST_TOKENS.rest": 3, "FIRST_TASK_TOKENS.plugin": 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Added) != 0 || !slices.Equal(w.Left, []string{"FIRST_TASK_TOKENS.plugin", "TOOL_LIST_TOKENS.rest"}) {
		t.Errorf("added %v, left %v; want none added, plugin and rest left", w.Added, w.Left)
	}
	if len(w.Moves) != 1 || w.Moves[0].Old != 10 || w.Moves[0].New != 12 {
		t.Errorf("moves %+v, want mcp 10 to 12", w.Moves)
	}
	got, _ := os.ReadFile(path)
	if want := strings.Replace(orig, "10", "12", 1); string(got) != want {
		t.Errorf("file:\n%s\nwant\n%s", got, want)
	}
}

// A JSON block the file declares without a budget is not added again; a
// name written elsewhere in the file (a value, a nested key) is no block.
func TestInsertJSONBlocks(t *testing.T) {
	f, err := Parse("b.json", []byte("{\n  \"$note\": \"B\",\n  \"A\": {\n    \"B\": 1\n  },\n  \"C\": {}\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := f.Insert(map[string]int64{"C.x": 1}); err != nil || !strings.Contains(string(got), `"C": {"x": 1}`) {
		t.Errorf("Insert into an empty block = %s, %v", got, err)
	}
	got, err := f.Insert(map[string]int64{"B.x": 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"$note\": \"B\",\n  \"A\": {\n    \"B\": 1\n  },\n  \"C\": {},\n  \"B\": {\n    \"x\": 2\n  }\n}\n"; string(got) != want {
		t.Errorf("Insert B.x =\n%s\nwant\n%s", got, want)
	}
}
