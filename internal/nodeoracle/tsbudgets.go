package nodeoracle

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

//go:embed tsbudgets.js
var tsBudgetsJS string

// TSFile is one TypeScript file for TSBudgets: its name and its text.
type TSFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// TSDiagnostic is one syntax error the TypeScript parser reports.
type TSDiagnostic struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// TSBudgets is what the TypeScript compiler's parser (the typescript
// package pinned in testdata/npm) sees in a budget file.
type TSBudgets struct {
	// Diagnostics are the file's syntax errors: none for a file TypeScript
	// reads.
	Diagnostics []TSDiagnostic `json:"diagnostics"`
	// Refused says why a reader must refuse the file ("" when it need
	// not): a budget block that also holds a spread, a shorthand, a
	// computed key or a number that is not a plain literal, a block name
	// exported twice, a key written twice.
	Refused string `json:"refused"`
	// Budgets maps each budget's dotted name to its value and the line of
	// its key; keys with a dot are left out.
	Budgets map[string][2]int64 `json:"budgets"`
	// Module is the file's value as a module: what Node computes when it
	// runs the file, transpiled by the TypeScript compiler.
	Module TSModule `json:"module"`
}

// TSModule is what a budget file's module exports when Node runs it.
type TSModule struct {
	// Error is what the module threw when it ran ("" when it did not): a
	// name declared twice, a const assigned.
	Error string `json:"error"`
	// Values maps the dotted name of every number the module's exported
	// objects hold (own enumerable properties, deep) to its value.
	Values map[string]float64 `json:"values"`
	// Blocks are the names of the exports whose value is an object.
	Blocks []string `json:"blocks"`
}

// ParseTS runs tsbudgets.js on the files in one Node process and returns
// what TypeScript sees in each, in order. It fails the test when Node or
// the typescript package cannot be run.
func ParseTS(t testing.TB, files ...TSFile) []TSBudgets {
	t.Helper()
	res, err := ParseTSFiles(files...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// ParseTSFiles is ParseTS for a caller that is not a test (a testscript
// command): it returns the error.
func ParseTSFiles(files ...TSFile) ([]TSBudgets, error) {
	node, err := NodePath()
	if err != nil {
		return nil, err
	}
	mods, err := npmModules()
	if err != nil {
		return nil, err
	}
	in, err := json.Marshal(files)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, "-e", tsBudgetsJS)
	cmd.Env = append(os.Environ(), "READMETER_NPM_MODULES="+mods)
	cmd.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("nodeoracle: tsbudgets.js: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	var res []TSBudgets
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res) != len(files) {
		return nil, fmt.Errorf("nodeoracle: tsbudgets.js: %d results for %d files (%v)", len(res), len(files), err)
	}
	return res, nil
}
