package table

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/readmeter/readmeter/internal/escape"
)

// tablewriterWrite is how the tables were written before, through
// github.com/olekukonko/tablewriter: the oracle of the printer's output.
func (t *Table) tablewriterWrite(w io.Writer, f Format) error {
	cols := len(t.head)
	for _, r := range t.rows {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return nil
	}
	align := make([]tw.Align, cols)
	for i := range align {
		align[i] = tw.AlignLeft
		if t.right[i] {
			align[i] = tw.AlignRight
		}
	}
	cell := escape.Term
	if f == Markdown {
		cell = escape.MarkdownCell
	}
	fill := func(r []string) []string {
		out := make([]string, cols)
		for i, c := range r {
			out[i] = cell(c)
		}
		return out
	}
	opts := []tablewriter.Option{
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithTrimSpace(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	}
	var buf bytes.Buffer
	if f == Markdown {
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	} else {
		opts = append(opts,
			tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
				Borders: tw.BorderNone,
				Symbols: tw.NewSymbols(tw.StyleNone),
				Settings: tw.Settings{
					Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
					Lines:      tw.Lines{ShowHeaderLine: tw.Off},
				},
			})),
			tablewriter.WithPadding(tw.Padding{Left: "", Right: "  ", Overwrite: true}),
		)
	}
	tbl := tablewriter.NewTable(&buf, opts...)
	if len(t.head) > 0 {
		tbl.Header(fill(t.head))
	}
	for _, r := range t.rows {
		if err := tbl.Append(fill(r)); err != nil {
			return err
		}
	}
	if err := tbl.Render(); err != nil {
		return err
	}
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<30)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		bw.WriteString(strings.TrimRight(sc.Text(), " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// pieces are what cells are made of: ASCII, wide and ambiguous
// characters, box drawing, emoji with joiners and modifiers, combining
// marks, controls, what Markdown escapes, spaces at either end.
var pieces = []string{
	"", "a", "tool_name", "1,503", "-12.50%", "?", " ", "  lead", "trail  ",
	"日本語", "中文", "한국어", "ｆｕｌｌ", "é", "e\u0301", "±", "§", "°", "Ω", "Ä", "…",
	"─", "│┼", "👩\u200d👩\u200d👧", "👍🏽", "🇫🇷", "\u200b", "\u00ad", "\ufe0f",
	"|", "`", "<b>", "[x]", "\\", "*", "\x1b[31m", "\t", "\n", "\u202e", "\xff",
}

func randomCell(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(4) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// TestAgainstTablewriter holds the printer to tablewriter's output, the
// tables' form before the printer was written, on tables of random
// cells, shapes and alignments, in both forms; then again in processes
// of their own with the environments that change the width of ambiguous
// characters and box drawing (both read them once).
func TestAgainstTablewriter(t *testing.T) {
	if os.Getenv("TABLE_ORACLE_ENV") == "" {
		for _, env := range [][]string{
			{"RUNEWIDTH_EASTASIAN=1", "TERM=dumb"},
			{"RUNEWIDTH_EASTASIAN=on", "TERM=xterm-256color"},
			{"RUNEWIDTH_EASTASIAN=", "LC_ALL=", "LC_CTYPE=", "LANG=ja_JP.UTF-8", "TERM=dumb", "TERM_PROGRAM=", "VTE_VERSION=", "TERM_PROGRAM_WSL=", "ALACRITTY_LOG="},
			{"RUNEWIDTH_EASTASIAN=", "LC_ALL=en_HK.UTF-8", "TERM=linux", "TERM_PROGRAM=", "VTE_VERSION=", "TERM_PROGRAM_WSL=", "ALACRITTY_LOG="},
			{"RUNEWIDTH_EASTASIAN=", "LANG=zh_CN.UTF-8", "TERM=dumb", "TERM_PROGRAM=vscode"},
		} {
			cmd := exec.Command(os.Args[0], "-test.run=^TestAgainstTablewriter$")
			cmd.Env = append(append(os.Environ(), "TABLE_ORACLE_ENV=1"), env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", env, err, out)
			}
		}
	}
	n := 2000
	if os.Getenv("TABLE_ORACLE_ENV") != "" {
		n = 400
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		cols := 1 + r.IntN(5)
		tb := New()
		if r.IntN(5) > 0 {
			head := make([]string, 1+r.IntN(cols))
			for j := range head {
				head[j] = randomCell(r)
			}
			tb.Head(head...)
		}
		for j := range cols {
			if r.IntN(2) == 0 {
				tb.Right(j)
			}
		}
		for range r.IntN(6) {
			row := make([]string, r.IntN(cols+1))
			for j := range row {
				row[j] = randomCell(r)
			}
			tb.Add(row...)
		}
		for _, f := range []Format{Plain, Markdown} {
			if f == Markdown && len(tb.head) == 0 {
				continue // Markdown needs a header
			}
			var got, want strings.Builder
			if err := tb.Write(&got, f); err != nil {
				t.Fatal(err)
			}
			if err := tb.tablewriterWrite(&want, f); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Fatalf("table %d, form %d, header %q, rows %q, right %v:\n%s\ntablewriter:\n%s", i, f, tb.head, tb.rows, tb.right, got.String(), want.String())
			}
		}
	}
}
