package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/readmeter/readmeter/internal/browsertest"
	"github.com/readmeter/readmeter/toollist"
)

// runOK runs measure with args in-process and fails the test on an error.
func runOK(t *testing.T, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, args); err != nil {
		t.Fatalf("measure %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
}

// toolBytes returns the model-read bytes of each tool of a capture, by
// name, as toollist measures them.
func toolBytes(t *testing.T, path string) map[string]int64 {
	t.Helper()
	c, err := toollist.Open(path, toollist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f := c.Figures
	out := map[string]int64{}
	for _, tf := range f.PerTool {
		out[tf.Name] = tf.ModelReadBytes
	}
	return out
}

// TestHTMLPage draws a real capture: the twin's tool list, with a
// tokenizer. The page loads with no error and no request, draws one
// rectangle per tool sized by its bytes, shows a tool's exact figures on
// focus, and splits each tool into components that add up to it.
func TestHTMLPage(t *testing.T) {
	capture := filepath.Join("..", "..", "captures", "twin", "tools-mcp.json")
	page := filepath.Join(t.TempDir(), "report.html")
	runOK(t, "--html", page, "--tokenizer", "o200k", "--lean", capture)
	p := browsertest.Open(t, page)
	want := toolBytes(t, capture)
	browsertest.CheckTreemap(t, p, want)

	sums := browsertest.Eval[map[string]int64](p, `(function () { var d = JSON.parse(document.getElementById('report-data').textContent), out = {};
		d.servers[0].tools.forEach(function (t) { out[t.name] = t.components.reduce(function (s, c) { return s + c.bytes; }, 0); }); return out; })()`)
	if n := browsertest.Eval[int](p, `JSON.parse(document.getElementById('report-data').textContent).servers[0].tools[0].components.filter(function (c) { return c.name === 'framing' || c.name === 'property names'; }).length`); n != 2 {
		t.Errorf("the first tool's components hold %d of framing and property names, want both: the profile's components", n)
	}
	for name, b := range want {
		if sums[name] != b {
			t.Errorf("%s: components add up to %d bytes, the tool reads %d", name, sums[name], b)
		}
	}
	p.Run(chromedp.Focus(chromedp.CSS(`[data-tool="schellingaf_post"]`)))
	tip := browsertest.Eval[string](p, `document.getElementById('tip').textContent`)
	if w := fmt.Sprintf("%s bytes, %s tokens", group(want["schellingaf_post"]), group(want["schellingaf_post"]/3)); !strings.Contains(tip, w) {
		t.Errorf("focus on schellingaf_post shows %q, lacking %q", tip, w)
	}
	if s := browsertest.Eval[string](p, `document.getElementById('savings').textContent`); !strings.Contains(s, "lean") {
		t.Errorf("savings %q lack the lean what-if", s)
	}
	p.Check()
}

// TestHTMLDiffPage draws measure diff's page between two of the twin's
// lists: NEW's tools, the removed ones listed with their bytes.
func TestHTMLDiffPage(t *testing.T) {
	old := filepath.Join("..", "..", "captures", "twin", "tools-mcp.json")
	nw := filepath.Join("..", "..", "captures", "twin", "tools-tasks.json")
	page := filepath.Join(t.TempDir(), "diff.html")
	runOK(t, "diff", "--html", page, old, nw)
	p := browsertest.Open(t, page)
	want := toolBytes(t, nw)
	browsertest.CheckTreemap(t, p, want)
	before := toolBytes(t, old)
	changes := browsertest.Eval[string](p, `document.getElementById('changes').textContent`)
	n := 0
	for name, b := range before {
		if _, ok := want[name]; !ok {
			n++
			if s := fmt.Sprintf("removed: %s, %s bytes", name, group(b)); !strings.Contains(changes, s) {
				t.Errorf("the changes %q lack %q", changes, s)
			}
		}
	}
	if n == 0 {
		t.Fatal("the two captures hold the same tools: pick two that differ")
	}
	p.Check()
}

// quote returns s as a JSON string.
func quote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestHTMLHostile measures a capture whose names and descriptions hold
// markup, script, handlers, template syntax, terminal escapes and bidi
// overrides: the page shows them as text (escaped as the table escapes
// them), adds no element of theirs and runs nothing of theirs.
func TestHTMLHostile(t *testing.T) {
	names := []string{
		`<img src=x onerror="window.pwned=1">`,
		`<script>window.pwned=2</script>`,
		`</script><script>window.pwned=3</script>`,
		`" onmouseover="window.pwned=4" x="`,
		`{{.Title}}{{template "page"}}`,
		"red\x1b[31m\x1b]8;;http://example.com\x07link",
		"safe\u202egnp.exe <b>bold</b>",
	}
	var tools []string
	for i, n := range names {
		tools = append(tools, fmt.Sprintf(`{"name": %s, "description": %s, "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "description": %s}}}}`,
			quote(n), quote(names[(i+1)%len(names)]), quote(names[(i+2)%len(names)])))
	}
	dir := t.TempDir()
	capture := filepath.Join(dir, "<b onclick=x>hostile.json")
	if err := os.WriteFile(capture, []byte(`{"result": {"tools": [`+strings.Join(tools, ", ")+`]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	var stdout, stderr bytes.Buffer
	// the ceilings passed are findings: exit 1, and the page written
	if err := run(&stdout, &stderr, []string{"--html", page, "--max-description-chars", "10", capture}); err == nil || !strings.Contains(stderr.String(), "over the ceiling") {
		t.Fatalf("measure: %v, want the findings of the ceilings; stderr:\n%s", err, stderr.String())
	}
	p := browsertest.Open(t, page)
	p.CheckInert()
	if n := browsertest.Eval[int](p, `document.querySelectorAll('[data-tool]').length`); n != len(names) {
		t.Errorf("%d tools drawn, want %d", n, len(names))
	}
	text := browsertest.Eval[string](p, `document.body.textContent`)
	for _, raw := range []string{"\x1b", "\u202e", "\x07"} {
		if strings.Contains(text, raw) {
			t.Errorf("the page shows %q raw", raw)
		}
	}
	for _, shown := range []string{`<img src=x onerror="window.pwned=1">`, `\x1b[31m`, `\u202e`, `{{.Title}}`, "over the ceiling of 10"} {
		if !strings.Contains(text, shown) {
			t.Errorf("the page lacks the text %q", shown)
		}
	}
	p.Check()
}
