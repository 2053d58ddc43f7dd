// Package budgets reads budget files and rewrites them in place.
//
//	f, err := budgets.Load("specs/twin/budgets.json")
//	b, err := f.Lookup("FIRST_TASK_TOKENS.start_tasks") // b.Value; b.Where(): file:line
//	data, moves, err := f.Update(map[string]int64{"FIRST_TASK_TOKENS.start_tasks": 2450})
//	err = budgets.WriteAtomic(f.Path, f.Bytes(), data) // refused if the file changed since Load
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
//   - TypeScript: `export const NAME = { key: 23_324, ... } as const;`
//     blocks, as the service declares them in src/surface/first-task.ts,
//     with comments, nested objects, quoted keys, trailing commas and `_`
//     digit separators. The reader lexes the file (strings, template
//     literals, comments, regular expressions) without a TypeScript
//     toolchain and steps over everything else: imports, functions, other
//     constants, and `export const` blocks that are not budget blocks.
//
// A TypeScript block is a budget block when it holds at least one plain
// integer literal and nothing but numbers. A block with a string, an array,
// a boolean, a function, a spread or a method in it is not one and is
// skipped (Lookup says so). In a budget block, a number that is not a plain
// literal (1e3, 0x10, 2.5, -1, 10n, 2 * 1_000, a reference to another
// constant) is an error naming the file and line: a budget the toolkit
// cannot rewrite in place must not pass unnoticed.
//
// The steps: Load or Parse a file; Get or Lookup a budget by name; after a
// run, Update computes the new file bytes, where only the digits of the
// named entries change; WriteAtomic writes them, refusing when the file
// changed on disk since it was read. RenderFile writes text from the budgets
// with en-US digit grouping, as the service's reference prints them.
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
