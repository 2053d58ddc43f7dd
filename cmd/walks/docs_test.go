package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The complete example of docs/specs.md runs as written against the
// embedded twin: the start over HTTP, its KEY include, and the MCP walk.
func TestDocsSpecsExampleRuns(t *testing.T) {
	doc, err := os.ReadFile("../../docs/specs.md")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{ // a block's first line -> where it goes
		"walk: start_tasks":           "start_tasks.yaml",
		"about: A KEY and its token.": "shared/key.yaml",
		"walk: toolset_tasks":         "toolset_tasks.yaml",
	}
	dir := t.TempDir()
	found := 0
	for _, m := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1) {
		first, _, _ := strings.Cut(string(m[1]), "\n")
		first = strings.TrimSpace(regexp.MustCompile(`\s+#.*`).ReplaceAllString(first, ""))
		name, ok := files[first]
		if !ok {
			continue
		}
		found++
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, m[1], 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if found != len(files) {
		t.Fatalf("found %d of the example's %d files in docs/specs.md", found, len(files))
	}
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"run", "--json", "--progress=false", filepath.Join(dir, "start_tasks.yaml"), filepath.Join(dir, "toolset_tasks.yaml")}); err != nil {
		t.Fatalf("walks run: %v\n%s", err, stderr.String())
	}
	var rep struct {
		Walks []struct {
			Walk  string `json:"walk"`
			Bytes int64  `json:"bytes"`
			Parts []struct {
				Name string `json:"name"`
			} `json:"parts"`
		} `json:"walks"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Walks) != 2 || rep.Walks[0].Walk != "start_tasks" || rep.Walks[1].Walk != "toolset_tasks" {
		t.Fatalf("walks: %+v", rep.Walks)
	}
	for _, w := range rep.Walks {
		if w.Bytes == 0 || len(w.Parts) < 3 {
			t.Errorf("walk %s read %d bytes in %d parts", w.Walk, w.Bytes, len(w.Parts))
		}
	}
}
