package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the most lines a function of a command may take: a
// longer one is staged, as measure and walks stage their runs.
const maxFuncLines = 100

// TestFuncLength holds every function of the commands (cmd/*, tests
// aside) to maxFuncLines, its signature and closing brace counted.
func TestFuncLength(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "*", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files under cmd/: %v", err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			seen++
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
				t.Errorf("%s: %s is %d lines, over %d: stage it in functions of its steps", fset.Position(fd.Pos()), fd.Name.Name, n, maxFuncLines)
			}
		}
	}
	if seen < 100 {
		t.Fatalf("read only %d functions under cmd/: the glob missed the commands", seen)
	}
}
