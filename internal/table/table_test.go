package table

import (
	"strings"
	"testing"
)

func render(t *testing.T, tb *Table, f Format) string {
	t.Helper()
	var b strings.Builder
	if err := tb.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestPlain(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    *Table
		want string
	}{
		{"header, numbers right", func() *Table {
			t := New("walk", "part", "bytes", "tokens").Right(2, 3)
			t.Add("start_tasks", "the primer", "82", "27")
			t.Add("", "total", "1,503", "501")
			return t
		}(), "" +
			"walk         part        bytes  tokens\n" +
			"start_tasks  the primer     82      27\n" +
			"             total       1,503     501\n"},
		{"no header, ragged rows, a left column after a right one", func() *Table {
			t := New().Right(1)
			t.Add("wire", "3,024", "bytes")
			t.Add("longest description", "1,200", "chars", "task")
			t.Add("", "7", "tokens")
			return t
		}(), "" +
			"wire                 3,024  bytes\n" +
			"longest description  1,200  chars   task\n" +
			"                         7  tokens\n"},
		{"wide characters take two columns", func() *Table {
			t := New("name", "n").Right(1)
			t.Add("日本語", "1")
			t.Add("abcdefg", "22")
			t.Add("é", "3")
			return t
		}(), "" +
			"name      n\n" +
			"日本語    1\n" +
			"abcdefg  22\n" +
			"é         3\n"},
		{"cells as given: no upper case, no trimming, no wrapping", func() *Table {
			t := New("key", "value")
			t.Add("a|b", strings.Repeat("x", 120))
			return t
		}(), "" +
			"key  value\n" +
			"a|b  " + strings.Repeat("x", 120) + "\n"},
		{"an empty header cell", func() *Table {
			t := New("", "a.json", "b.json").Right(1, 2)
			t.Add("tools", "3", "14")
			return t
		}(), "" +
			"       a.json  b.json\n" +
			"tools       3      14\n"},
	} {
		if got := render(t, tc.t, Plain); got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	tb := New("walk", "part", "bytes").Right(2)
	tb.Add("a|b", "the primer", "82")
	tb.Add("", "total", "1,503")
	want := "" +
		"| walk | part       | bytes |\n" +
		"|:-----|:-----------|------:|\n" +
		"| a\\|b | the primer |    82 |\n" +
		"|      | total      | 1,503 |\n"
	if got := render(t, tb, Markdown); got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
}

func TestEmpty(t *testing.T) {
	if got := render(t, New(), Plain); got != "" {
		t.Errorf("an empty table wrote %q", got)
	}
	if n := New("a").Len(); n != 0 {
		t.Errorf("Len = %d", n)
	}
}
