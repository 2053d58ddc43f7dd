package budgets

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUpdateStyle(t *testing.T) {
	ts := load(t, "testdata/first-task.ts")
	js := load(t, "testdata/budgets.json")
	for _, tc := range []struct {
		name string
		f    *File
		key  string
		v    int64
		want string // the literal written
	}{
		{"separators kept", ts, "FIRST_TASK_TOKENS.plugin", 20730, "20_730"},
		{"grows a group", ts, "FIRST_TASK_TOKENS.start_tasks", 12450, "12_450"},
		{"shrinks below a thousand", ts, "FIRST_TASK_TOKENS.http", 999, "999"},
		{"millions", ts, "FIRST_TASK_TOKENS.http", 1234567, "1_234_567"},
		{"no separators kept", ts, "PROPOSAL_ROUTINE.http.create", 12345, "12345"},
		{"small follows its block (none)", ts, "PROPOSAL_ROUTINE.calls", 1000, "1000"},
		{"small follows its block (separators)", ts, "SURVEY_BUDGET.spaces", 1000, "1_000"},
		{"zero", ts, "SURVEY_BUDGET.calls", 0, "0"},
		{"json", js, "FIRST_TASK_TOKENS.start_tasks", 2512, "2512"},
		{"json grows", js, "PROPOSAL_ROUTINE.calls", 1000, "1000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := tc.f.Get(tc.key)
			data, moves, err := tc.f.Update(map[string]int64{tc.key: tc.v})
			if err != nil {
				t.Fatal(err)
			}
			want := []Move{{Name: tc.key, Old: b.Value, New: tc.v, File: b.File, Line: b.Line}}
			if diff := cmp.Diff(want, moves); diff != "" {
				t.Errorf("moves (-want +got):\n%s", diff)
			}
			e := tc.f.entries[tc.f.index[tc.key]]
			got := string(data[e.s : len(data)-(len(tc.f.data)-e.e)])
			if got != tc.want {
				t.Errorf("literal = %q, want %q", got, tc.want)
			}
			again, err := Parse(tc.f.Path, data)
			if err != nil {
				t.Fatal(err)
			}
			if nb, _ := again.Get(tc.key); nb.Value != tc.v || nb.Line != b.Line {
				t.Errorf("re-read = %+v", nb)
			}
		})
	}
}

func TestUpdateSmallBlockFollowsFile(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"export const A = { a: 12_000 };\nexport const B = { b: 5 };", "export const A = { a: 12_000 };\nexport const B = { b: 5_000 };"},
		{"export const A = { a: 12000 };\nexport const B = { b: 5 };", "export const A = { a: 12000 };\nexport const B = { b: 5000 };"},
		{"export const B = { b: 5 };", "export const B = { b: 5000 };"},
	} {
		f, err := Parse("x.ts", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		data, _, err := f.Update(map[string]int64{"B.b": 5000})
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != tc.want {
			t.Errorf("Update(%q) = %q, want %q", tc.src, data, tc.want)
		}
	}
}

func TestUpdateErrors(t *testing.T) {
	f := load(t, "testdata/first-task.ts")
	_, _, err := f.Update(map[string]int64{"FIRST_TASK_TOKENS.nope": 1, "A.b": 2, "FIRST_TASK_TOKENS.plugin": 3})
	if err == nil || err.Error() != "testdata/first-task.ts: no budget A.b, FIRST_TASK_TOKENS.nope to update; add the entry to the file first" {
		t.Errorf("unknown names: %v", err)
	}
	_, _, err = f.Update(map[string]int64{"FIRST_TASK_TOKENS.plugin": -1})
	if err == nil || err.Error() != "testdata/first-task.ts:11: cannot set FIRST_TASK_TOKENS.plugin to -1: a budget is a non-negative integer" {
		t.Errorf("negative: %v", err)
	}
}

func TestUpdateUnchangedRoundTrips(t *testing.T) {
	for _, path := range []string{"testdata/first-task.ts", "testdata/budgets.json"} {
		f := load(t, path)
		same := map[string]int64{}
		for _, b := range f.Budgets() {
			same[b.Name] = b.Value
		}
		for _, values := range []map[string]int64{nil, same} {
			data, moves, err := f.Update(values)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, readFile(t, path)) {
				t.Errorf("%s: an update that changes nothing changed bytes", path)
			}
			for _, m := range moves {
				if m.Delta() != 0 {
					t.Errorf("%s: move %+v", path, m)
				}
			}
		}
	}
}

// TestUpdateChangesOnlyDigits sets random values and checks that, outside
// the rewritten literals, every byte stays, and the literals hold only
// digits and separators; the file reads back with the new values at the
// same lines.
func TestUpdateChangesOnlyDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, path := range []string{"testdata/first-task.ts", "testdata/budgets.json"} {
		f := load(t, path)
		all := f.Budgets()
		for range 200 {
			values := map[string]int64{}
			for _, b := range all {
				if rng.IntN(2) == 0 {
					continue
				}
				switch rng.IntN(4) {
				case 0:
					values[b.Name] = rng.Int64N(1000)
				case 1:
					values[b.Name] = rng.Int64N(100_000)
				case 2:
					values[b.Name] = rng.Int64N(1 << 40)
				default:
					values[b.Name] = b.Value
				}
			}
			data, _, err := f.Update(values)
			if err != nil {
				t.Fatal(err)
			}
			// Walk old and new together, entry by entry.
			old, i, j := f.data, 0, 0
			for _, k := range f.sortedEntries() {
				e := f.entries[k]
				if !bytes.Equal(old[i:e.s], data[j:j+e.s-i]) {
					t.Fatalf("%s: bytes before %s changed", path, e.Name)
				}
				j += e.s - i
				lit := j
				for j < len(data) && (isDigit(data[j]) || data[j] == '_') {
					j++
				}
				if _, changed := values[e.Name]; !changed && !bytes.Equal(data[lit:j], old[e.s:e.e]) {
					t.Fatalf("%s: %s changed though not named", path, e.Name)
				}
				i = e.e
			}
			if !bytes.Equal(old[i:], data[j:]) {
				t.Fatalf("%s: bytes after the last budget changed", path)
			}
			again, err := Parse(path, data)
			if err != nil {
				t.Fatalf("%s: the updated file does not read: %v", path, err)
			}
			for _, b := range again.Budgets() {
				ob, _ := f.Get(b.Name)
				want := ob.Value
				if v, ok := values[b.Name]; ok {
					want = v
				}
				if b.Value != want || b.Line != ob.Line {
					t.Fatalf("%s: %s reads back as %+v, want %d at line %d", path, b.Name, b, want, ob.Line)
				}
			}
		}
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "first-task.ts")
	old := []byte("export const A = { a: 1 };\n")
	if err := os.WriteFile(path, old, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, old, []byte("export const A = { a: 2 };\n")); err != nil {
		t.Fatal(err)
	}
	if got := string(readFile(t, path)); got != "export const A = { a: 2 };\n" {
		t.Errorf("file = %q", got)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", st.Mode().Perm())
	}
	// The file changed since it was read: refused, untouched.
	err := WriteAtomic(path, old, []byte("x"))
	if !errors.Is(err, ErrChanged) || err.Error() != path+" changed during the run; nothing written" {
		t.Errorf("stale write = %v", err)
	}
	if got := string(readFile(t, path)); got != "export const A = { a: 2 };\n" {
		t.Errorf("file after a refused write = %q", got)
	}
	// A new file, and no temporary files left behind.
	fresh := filepath.Join(dir, "new.json")
	if err := WriteAtomic(fresh, nil, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(fresh, nil, []byte("{}")); !errors.Is(err, ErrChanged) {
		t.Errorf("a nil expectOld over an existing file = %v", err)
	}
	// A file deleted since it was read is not written again.
	gone := filepath.Join(dir, "gone.json")
	if err := WriteAtomic(gone, []byte("{}"), []byte("{}")); !errors.Is(err, ErrChanged) {
		t.Errorf("a write over a deleted file = %v", err)
	}
	// A link stays a link; its target changes.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("new.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(link, []byte("{}"), []byte(`{"A": {"a": 1}}`)); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if got := string(readFile(t, fresh)); got != `{"A": {"a": 1}}` {
		t.Errorf("link target = %q", got)
	}
	if err := WriteAtomic(filepath.Join(dir, "no", "such.json"), nil, []byte("{}")); err == nil {
		t.Error("a write into a missing directory gave no error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("dir holds %d entries, want 3 (no temporary file left)", len(entries))
	}
}
