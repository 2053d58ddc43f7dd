// Package budgets reads budget files and rewrites them in place.
//
//	f, err := budgets.Load("specs/twin/budgets.json")
//	b, err := f.Lookup("FIRST_TASK_TOKENS.start_tasks") // b.Value; b.Where(): file:line
//
//	l, err := budgets.Lock(ctx, "first-task.ts", waiting) // at the start of an --update run
//	defer l.Unlock()
//	// ... run, holding what is read to l.File() ...
//	w, err := l.Write(map[string]int64{"PROPOSAL_ROUTINE.connector.entry": 1508}, "twin")
//	// w.Moves, w.Added; w.File is the file as written, to check against
//
// A budget is a non-negative integer with a dotted name
// ("FIRST_TASK_TOKENS.plugin", "PROPOSAL_ROUTINE.http.create") and the place
// it is declared (file and line). Two file forms hold budgets:
//
//   - JSON: one object whose members are objects or non-negative integers,
//     nested to any depth: {"FIRST_TASK_TOKENS": {"plugin": 23324}}.
//     Members whose key starts with "$" (such as "$comment") are skipped.
//     The file is read through jsonjs, as JSON.parse reads it: text it
//     refuses is an error at its line, keys are decoded from every JSON
//     escape, and a key written twice is an error at the second.
//   - TypeScript: the objects the file exports, as the service declares
//     them in src/surface/first-task.ts: `export const|let|var NAME = {...}`
//     (with a type annotation, `as const`, `satisfies T`), `const NAME =
//     {...}` exported by `export { NAME }` or `export { NAME as OTHER }` (the
//     block takes the exported name), `export default {...}` (the block
//     "default"), with comments, nested objects, quoted keys, trailing
//     commas and `_` digit separators. The file is split by a real
//     JavaScript lexer (github.com/tdewolff/parse/v2/js; lexTS tells a
//     regular expression from a division), with no TypeScript toolchain.
//
// A TypeScript block is a budget block when it holds at least one plain
// integer literal and nothing but numbers. A block with no number, or with
// a string, an array, a boolean, a function or a method in it, is not one
// and is skipped (Lookup says so). What cannot be read for sure is an
// error naming the file and line: in a budget block, a number that is not
// a plain literal (1e3, 0x10, 2.5, -1, 10n, 2 * 1_000, a reference to
// another constant), a spread, a computed key or a shorthand; a name
// declared twice, even when one of the two holds no budget. A key with a
// dot ("http.create") is one key, which no dotted name can address: Lookup
// refuses the name it spells.
//
// The steps: Load or Parse a file; Get or Lookup a budget by name; after a
// run, Update computes the new file bytes, where only the digits of the
// named entries change, and Insert adds the budgets the file lacks (a key
// at any depth, an object, a block) in the file's own style; Lock holds a
// file for a whole --update run and its Write does both, writes the
// file, refusing (ErrChanged) when the file on disk is no longer what was
// read, and returns the file as written. A file may say whose numbers it holds (ServerMember); CheckServer
// is the one rule that keeps another server's numbers out of it.
// RenderFile writes text from the budgets with en-US digit grouping, as the
// service's reference prints them.
//
// The package never prints; every error is one line that names the file
// and line and says what to do.
package budgets

import (
	"fmt"
	"strings"
)

// Budget is one budget entry: its dotted name, its value and where it is
// declared.
type Budget struct {
	// Name is the dotted full name, "FIRST_TASK_TOKENS.plugin".
	Name string `json:"name"`
	// Value is the budget, a non-negative integer.
	Value int64 `json:"value"`
	// File is the path of the file that declares it, as given to Load or Parse.
	File string `json:"file"`
	// Line is the 1-based line of the entry's key; 0 for a budget given
	// outside a file.
	Line int `json:"line"`
}

// Where returns "file:line", the place the budget is declared, or File
// alone for a budget not read from a file (Line 0: a command-line flag).
func (b Budget) Where() string {
	if b.Line == 0 {
		return b.File
	}
	return fmt.Sprintf("%s:%d", b.File, b.Line)
}

// Block returns the first element of the budget's dotted name, the
// top-level block or object that holds it ("FIRST_TASK_TOKENS").
func (b Budget) Block() string {
	if i := strings.IndexByte(b.Name, '.'); i >= 0 {
		return b.Name[:i]
	}
	return b.Name
}

// Key returns the budget's name without its block ("plugin",
// "http.create").
func (b Budget) Key() string {
	if i := strings.IndexByte(b.Name, '.'); i >= 0 {
		return b.Name[i+1:]
	}
	return ""
}
