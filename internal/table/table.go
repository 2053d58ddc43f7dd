// Package table prints the commands' tables: plain text aligned in
// columns, or Markdown, both through github.com/olekukonko/tablewriter.
//
//	t := table.New("walk", "part", "bytes", "tokens").Right(2, 3)
//	t.Add("start_tasks", "the primer", "82", "27")
//	t.Add("", "total", "503", "167")
//	t.Write(os.Stdout, table.Plain)
//
// prints
//
//	walk         part        bytes  tokens
//	start_tasks  the primer     82      27
//	             total         503     167
//
// The stance is benchstat's: a table is built as data (its header, its
// rows of cells already formatted, each column's alignment), then written
// in one of two forms. Plain text puts two spaces between columns, pads by
// display width (a wide character takes two columns) and trims trailing
// spaces; Markdown marks each column's alignment in its separator line.
// Cells are written as given, never upper-cased or wrapped, but escaped
// for the form (package internal/escape): in plain text a control
// character, a line break or a bidi override in a tool name shows as
// \x1b, \n or \u202e and keeps the columns aligned; in Markdown a cell
// also keeps its "|", "`", "<" and "[" from being read as Markdown or
// HTML. Callers hand cells over raw, as a server or a file gave them.
//
// Only commands print: this package is for cmd/ and internal/ alone.
package table

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/readmeter/readmeter/internal/escape"
)

// Format is the form a table is written in.
type Format int

const (
	// Plain is text aligned in columns two spaces apart, for a terminal.
	Plain Format = iota
	// Markdown is a Markdown table, for a pull request or a CI step summary.
	Markdown
)

// Table is a header, rows of formatted cells and each column's alignment.
type Table struct {
	head  []string
	right map[int]bool
	rows  [][]string
}

// New returns a table with the header head. A table with no header is
// written without a header line in plain text (Markdown needs one: give
// it with Head).
func New(head ...string) *Table { return &Table{head: head, right: map[int]bool{}} }

// Head sets the header.
func (t *Table) Head(head ...string) *Table {
	t.head = head
	return t
}

// Right aligns the columns cols (0-based) right: the columns of numbers.
// The others are aligned left.
func (t *Table) Right(cols ...int) *Table {
	for _, c := range cols {
		t.right[c] = true
	}
	return t
}

// Add appends a row. A row may hold fewer cells than the widest: the rest
// are empty.
func (t *Table) Add(cells ...string) { t.rows = append(t.rows, cells) }

// Len returns the number of rows, the header not counted.
func (t *Table) Len() int { return len(t.rows) }

// Write writes the table to w in the form f.
func (t *Table) Write(w io.Writer, f Format) error {
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
	// Plain text ends each line at its last cell; Markdown lines end at
	// their "|" and lose nothing.
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<30)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		bw.WriteString(strings.TrimRight(sc.Text(), " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
