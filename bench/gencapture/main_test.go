package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/internal/nodeoracle"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		tools, words int
	}{{14, 280}, {200, 24}} {
		path := filepath.Join(dir, fmt.Sprintf("tools-%d.json", tc.tools))
		var stdout, stderr bytes.Buffer
		if err := run(&stdout, &stderr, []string{"--tools", fmt.Sprint(tc.tools), "--words", fmt.Sprint(tc.words), "-o", path}); err != nil {
			t.Fatalf("run: %v (%s)", err, stderr.String())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%s: %d tools, %d bytes\n", path, tc.tools, len(data)); stdout.String() != want {
			t.Errorf("stdout %q, want %q", stdout.String(), want)
		}
		again, err := benchcap.Generate(tc.tools, tc.words, 1)
		if err != nil || !bytes.Equal(again, data) {
			t.Errorf("generate is not deterministic (err %v)", err)
		}
		r := nodeoracle.MeasureReport(t, path)
		if r.Tools != int64(tc.tools) || r.WireBytes != int64(len(data)-1) || r.ModelReadBytes <= r.DescriptionBytes+r.FieldDescriptionBytes {
			t.Errorf("Node measures %+v", r)
		}
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"--tools", "-1", "-o", "x"}, {"--nope"}, {"-o", "x", "extra"}} {
		var stdout, stderr bytes.Buffer
		if err := run(&stdout, &stderr, args); err == nil {
			t.Errorf("run(%q) accepted", args)
		}
	}
}
