package table

import (
	"fmt"
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

// TestHostileCells holds cells a server or a file controls to one line
// each, escaped for the form: nothing reaches the terminal or the
// Markdown as it came.
func TestHostileCells(t *testing.T) {
	for _, tc := range []struct {
		cell, plain, markdown string
	}{
		{"\x1b[2Jwipe", `\x1b[2Jwipe`, `\\x1b\[2Jwipe`},
		{"ok\rFAILED", `ok\rFAILED`, `ok\\rFAILED`},
		{"x\n::error file=x::forged", `x\n::error file=x::forged`, `x\\n::error file=x::forged`},
		{"::error::forged", `\x3a:error::forged`, `\\x3a:error::forged`},
		{"a ##[error]b", `a ##\x5berror]b`, `a ##\\x5berror\]b`},
		{"</testcase>", "</testcase>", "&lt;/testcase>"},
		{"<img src=x onerror=alert(1)>", "<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)>"},
		{"| a | b |", "| a | b |", `\| a \| b \|`},
		{"safe\u202egnp.exe", `safe\u202egnp.exe`, `safe\\u202egnp.exe`},
		{"bad\xffutf8", `bad\xffutf8`, `bad\\xffutf8`},
		{"nul\x00byte", `nul\x00byte`, `nul\\x00byte`},
		{"tab\there", `tab\there`, `tab\\there`},
	} {
		tb := New("name", "n").Right(1)
		tb.Add(tc.cell, "1")
		tb.Add("", "22")
		want := fmt.Sprintf("%-*s   n\n%s   1\n%*s  22\n", len(tc.plain), "name", tc.plain, len(tc.plain), "")
		if got := render(t, tb, Plain); got != want {
			t.Errorf("plain %q:\n%s\nwant:\n%s", tc.cell, got, want)
		}
		md := render(t, tb, Markdown)
		if lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[2], "| "+tc.markdown+" ") {
			t.Errorf("markdown %q:\n%s\nwant the cell %s", tc.cell, md, tc.markdown)
		}
	}
}
