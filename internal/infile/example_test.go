package infile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/readmeter/readmeter/internal/infile"
)

func ExampleRead() {
	dir, _ := os.MkdirTemp("", "infile")
	defer os.RemoveAll(dir)
	_, err := infile.Read(dir, "budget file", infile.MaxText)
	fmt.Println(err.(*infile.Error).Msg)
	os.WriteFile(filepath.Join(dir, "b.json"), []byte(`{"A": {"x": 1}}`), 0o644)
	data, err := infile.Read(filepath.Join(dir, "b.json"), "budget file", infile.MaxText)
	fmt.Println(string(data), err)
	fmt.Println(infile.Size(infile.MaxText), infile.Size(infile.Max))
	// Output:
	// is a directory, not a budget file
	// {"A": {"x": 1}} <nil>
	// 64 MiB 2 GiB
}

func ExampleWebPage() {
	page := []byte("\n<!DOCTYPE html>\n<html><body>budgets.json</body></html>")
	fmt.Println(infile.WebPage("budgets.json", page, "budget file", "give the raw file, not its web page"))
	fmt.Println(infile.WebPage("budgets.json", []byte(`{"A": {"x": 1}}`), "budget file", "give the raw file, not its web page"))
	// Output:
	// budgets.json:2: an HTML or XML page, not a budget file: give the raw file, not its web page
	// <nil>
}
