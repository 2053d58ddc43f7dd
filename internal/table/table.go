// Package table prints the commands' tables: plain text aligned in
// columns, or Markdown.
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
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/clipperhouse/displaywidth"

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
	cell := escape.Term
	if f == Markdown {
		cell = escape.MarkdownCell
	}
	// lines: the header (when there is one) and the rows, every cell
	// escaped, each line as wide as the table.
	lines := make([][]string, 0, len(t.rows)+1)
	fill := func(r []string) []string {
		out := make([]string, cols)
		for i, c := range r {
			out[i] = cell(c)
		}
		return out
	}
	if len(t.head) > 0 {
		lines = append(lines, fill(t.head))
	}
	for _, r := range t.rows {
		lines = append(lines, fill(r))
	}
	widths := make([]int, cols)
	cells := make([][]int, len(lines))
	for i, l := range lines {
		cells[i] = make([]int, cols)
		for j, c := range l {
			cells[i][j] = width(c)
			widths[j] = max(widths[j], cells[i][j])
		}
	}
	bw := bufio.NewWriter(w)
	pad := func(j int, c string, cw int) {
		if t.right[j] {
			bw.WriteString(strings.Repeat(" ", widths[j]-cw))
			bw.WriteString(c)
			return
		}
		bw.WriteString(c)
		bw.WriteString(strings.Repeat(" ", widths[j]-cw))
	}
	if f == Markdown {
		for j := range widths {
			widths[j] = max(widths[j], 1) // a column is at least "--:" wide
		}
		for i, l := range lines {
			bw.WriteByte('|')
			for j, c := range l {
				bw.WriteByte(' ')
				pad(j, c, cells[i][j])
				bw.WriteString(" |")
			}
			bw.WriteByte('\n')
			if i == 0 && len(t.head) > 0 {
				bw.WriteByte('|')
				for j := range cols {
					if !t.right[j] {
						bw.WriteByte(':')
					}
					bw.WriteString(strings.Repeat("-", widths[j]+1))
					if t.right[j] {
						bw.WriteByte(':')
					}
					bw.WriteByte('|')
				}
				bw.WriteByte('\n')
			}
		}
		return bw.Flush()
	}
	// Plain text: two spaces after each cell, each line ended at its last
	// cell.
	var b strings.Builder
	for i, l := range lines {
		b.Reset()
		for j, c := range l {
			if t.right[j] {
				b.WriteString(strings.Repeat(" ", widths[j]-cells[i][j]))
				b.WriteString(c)
			} else {
				b.WriteString(c)
				b.WriteString(strings.Repeat(" ", widths[j]-cells[i][j]))
			}
			b.WriteString("  ")
		}
		bw.WriteString(strings.TrimRight(b.String(), " "))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// width is the display width of an escaped cell, the sum of its
// characters' widths (a wide character takes two columns; a character of
// ambiguous width, two where the terminal's locale is East Asian), as
// github.com/olekukonko/tablewriter, which printed the tables before,
// counts it.
func width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			opts := widthOptions()
			for _, r := range s[i:] {
				if r >= 0x2500 && r <= 0x257f && opts.narrowBoxes {
					n++
					continue
				}
				n += opts.Rune(r)
			}
			return n
		}
		n += displaywidth.Rune(rune(s[i]))
	}
	return n
}

// options are the width rules of this terminal.
type options struct {
	displaywidth.Options
	// narrowBoxes: box-drawing characters take one column, even where
	// ambiguous characters take two
	narrowBoxes bool
}

// widthOptions reads the terminal's width rules from the environment
// once, the first time a cell outside ASCII is measured: as
// tablewriter did, RUNEWIDTH_EASTASIAN=1 (0) says that characters of
// ambiguous width take two columns (one); otherwise a terminal known to
// draw them narrow (VS Code, iTerm2, an xterm, ...) takes one, and any
// other takes two in an East Asian locale.
var widthOptions = sync.OnceValue(func() options {
	ea := eastAsian()
	return options{Options: displaywidth.Options{EastAsianWidth: ea}, narrowBoxes: ea && modernTerminal()}
})

func eastAsian() bool {
	switch strings.ToLower(os.Getenv("RUNEWIDTH_EASTASIAN")) {
	case "0", "off", "false", "no":
		return false
	case "1", "on", "true", "yes":
		return true
	}
	if modernTerminal() {
		return false
	}
	return cjkLocale(locale())
}

// modernTerminal tells a terminal that draws ambiguous characters in
// one column, by its environment.
func modernTerminal() bool {
	switch strings.ToLower(os.Getenv("TERM_PROGRAM")) {
	case "vscode", "visual studio code", "iterm.app", "iterm2", "windows terminal", "windowsterminal",
		"alacritty", "kitty", "hyper", "tabby", "terminus", "fluentterminal", "warp", "ghostty", "rio",
		"jetbrains-jediterm", "xterm-kitty", "xterm-ghostty", "wezterm":
		return true
	}
	if os.Getenv("TERM_PROGRAM_WSL") != "" {
		return true
	}
	term := strings.ToLower(os.Getenv("TERM"))
	if runtime.GOOS == "windows" && (os.Getenv("WT_PROFILE_ID") != "" || os.Getenv("ConEmuANSI") == "ON" ||
		term != "" && (strings.Contains(term, "xterm") || strings.Contains(term, "vt"))) {
		return true
	}
	if os.Getenv("VTE_VERSION") != "" || os.Getenv("ALACRITTY_LOG") != "" {
		return true
	}
	switch term {
	case "vscode", "visual studio code", "iterm.app", "iterm2", "windows terminal", "windowsterminal",
		"alacritty", "kitty", "hyper", "tabby", "terminus", "fluentterminal", "warp", "ghostty", "rio",
		"jetbrains-jediterm", "xterm-kitty", "xterm-ghostty", "wezterm":
		return true
	}
	return strings.Contains(term, "xterm") && !strings.Contains(term, "xterm-mono") ||
		strings.Contains(term, "screen") || strings.Contains(term, "tmux")
}

// locale is the locale of LC_ALL, LC_CTYPE or LANG, the first set, in
// lower case without its encoding and modifier; "" for C and POSIX.
func locale() string {
	l := os.Getenv("LC_ALL")
	if l == "" {
		l = os.Getenv("LC_CTYPE")
	}
	if l == "" {
		l = os.Getenv("LANG")
	}
	if l == "C" || l == "POSIX" {
		return ""
	}
	if i := strings.IndexByte(l, '.'); i >= 0 {
		l = l[:i]
	}
	if i := strings.IndexByte(l, '@'); i >= 0 {
		l = l[:i]
	}
	return strings.ToLower(l)
}

// cjkLocale tells a Chinese, Japanese or Korean locale, by its language
// or its region.
func cjkLocale(l string) bool {
	if l == "" {
		return false
	}
	for _, p := range []string{"zh", "ja", "ko", "chi", "zho", "jpn", "kor", "chinese", "japanese", "korean"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	parts := strings.Split(l, "_")
	for _, r := range parts[1:] {
		switch r {
		case "cn", "tw", "hk", "mo", "jp", "kr", "kp", "sg":
			return true
		}
	}
	return false
}
