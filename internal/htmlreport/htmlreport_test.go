package htmlreport_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/readmeter/readmeter/internal/browsertest"
	"github.com/readmeter/readmeter/internal/htmlreport"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/walk"
)

// hostile are texts that would act if a page took them for markup,
// script, template or terminal control.
var hostile = []string{
	`<img src=x onerror="window.pwned=1">`,
	`<script>window.pwned=2</script>`,
	`</script><script>window.pwned=3</script>`,
	`" onmouseover="window.pwned=4" x="`,
	`{{.Title}}{{template "page"}}`,
	"\x1b[31mred\x1b[0m \x1b]8;;http://example.com\x07link",
	"\u202egnp.exe\u202c <b>bold</b>",
	`<!-- <style>*{display:none}</style>`,
	`javascript:window.pwned=5`,
}

// tree returns a page's data: servers of tools with the given bytes.
func tree(servers ...[]int64) htmlreport.Tree {
	t := htmlreport.Tree{Units: []string{"o200k"}}
	for si, sizes := range servers {
		s := htmlreport.Server{Name: fmt.Sprintf("server%d", si), Path: fmt.Sprintf("tools-%d.json", si)}
		for i, b := range sizes {
			s.Tools = append(s.Tools, htmlreport.Tool{
				Name: fmt.Sprintf("tool_%d_%d", si, i), Bytes: b, Tokens: b / 3, Counts: []int64{b / 4},
				Description: "Does thing " + fmt.Sprint(i),
				Components: []htmlreport.Component{
					{Name: "description", Bytes: b / 2}, {Name: "schema", Bytes: b - b/2 - 20}, {Name: "name and framing", Bytes: 20},
				},
			})
		}
		t.Servers = append(t.Servers, s)
	}
	t.Findings = []htmlreport.Finding{{Text: "tool_0_0's description is over 2,048 characters", Tool: "tool_0_0", SavingBytes: 300}}
	t.Savings = []htmlreport.Saving{{Name: "lean", ModelReadBytes: 1234, WireBytes: 1500, Tools: 3}}
	return t
}

// write writes p into a temporary file and returns its path.
func write(t *testing.T, p htmlreport.Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := htmlreport.Write(&b, p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPolicy holds the page to its Content-Security-Policy without a
// browser: two scripts (the data and the program), one style, and the
// policy naming exactly their hashes.
func TestPolicy(t *testing.T) {
	var b bytes.Buffer
	if err := htmlreport.Write(&b, htmlreport.Page{Kind: htmlreport.KindMeasure, Title: hostile[2], Data: tree([]int64{100})}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d script elements, want 2 (the data and the program)", n)
	}
	if n := strings.Count(page, "<style"); n != 1 {
		t.Errorf("%d style elements, want 1", n)
	}
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if csp == nil {
		t.Fatal("no Content-Security-Policy meta")
	}
	policy := html.UnescapeString(csp[1])
	for _, el := range []string{"script", "style"} {
		m := regexp.MustCompile(`(?s)<` + el + `>(.*?)</` + el + `>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no inline %s", el)
		}
		sum := sha256.Sum256([]byte(m[1]))
		want := el + "-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		if !strings.Contains(policy, want) {
			t.Errorf("policy %q lacks %q", policy, want)
		}
	}
	if !strings.Contains(policy, "default-src 'none'") {
		t.Errorf("policy %q does not forbid by default", policy)
	}
}

func TestMeasurePage(t *testing.T) {
	sizes := []int64{9000, 4000, 3000, 2500, 1200, 800, 640, 400, 333, 120, 90, 61}
	path := write(t, htmlreport.Page{Kind: htmlreport.KindMeasure, Title: "tools-mcp.json", Data: tree(sizes)})
	p := browsertest.Open(t, path)
	want := map[string]int64{}
	for i, b := range sizes {
		want[fmt.Sprintf("tool_0_%d", i)] = b
	}
	browsertest.CheckTreemap(t, p, want)

	// hover shows the exact numbers
	p.Run(chromedp.MouseEvent("mouseMoved", 5, 5)) // away
	x := browsertest.Eval[float64](p, `(function(){var r=document.querySelector('[data-tool="tool_0_1"]').getBoundingClientRect();return r.left+r.width/2})()`)
	y := browsertest.Eval[float64](p, `(function(){var r=document.querySelector('[data-tool="tool_0_1"]').getBoundingClientRect();return r.top+r.height/2})()`)
	p.Run(chromedp.MouseEvent("mouseMoved", x, y))
	tip := browsertest.Eval[string](p, `document.getElementById('tip').hidden ? '' : document.getElementById('tip').textContent`)
	for _, s := range []string{"tool_0_1", "4,000 bytes", "1,333 tokens", "1,000 o200k tokens", "18.06% of bytes"} {
		if !strings.Contains(tip, s) {
			t.Errorf("hover tip %q lacks %q", tip, s)
		}
	}

	// the tokenizer switch sizes by its counts
	p.Run(chromedp.Click(chromedp.CSS("#unit-count0")))
	for name, v := range want {
		want[name] = v / 4
	}
	browsertest.CheckTreemap(t, p, want)

	// the table sorts, both ways
	column := `Array.from(document.querySelectorAll('#tools tbody tr')).map(function (r) { return r.cells[0].textContent; })`
	p.Run(chromedp.Click(chromedp.CSS("#tools thead th:nth-child(2) button"))) // Bytes: largest first
	if got := browsertest.Eval[[]string](p, column); got[0] != "tool_0_0" || got[len(got)-1] != "tool_0_11" {
		t.Errorf("sorted by bytes, largest first: %v", got)
	}
	p.Run(chromedp.Click(chromedp.CSS("#tools thead th:nth-child(2) button")))
	if got := browsertest.Eval[[]string](p, column); got[0] != "tool_0_11" || got[len(got)-1] != "tool_0_0" {
		t.Errorf("sorted by bytes, smallest first: %v", got)
	}
	if s := browsertest.Eval[string](p, `document.querySelector('#tools thead th:nth-child(2)').getAttribute('aria-sort')`); s != "ascending" {
		t.Errorf("aria-sort %q, want ascending", s)
	}

	// the keyboard zooms into a tool's components and out
	p.Run(chromedp.Focus(chromedp.CSS(`[data-tool="tool_0_2"]`)), chromedp.KeyEvent("\r"))
	if got := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll('[data-component]')).map(function (e) { return e.dataset.component; }).sort()`); strings.Join(got, ",") != "description,name and framing,schema" {
		t.Errorf("zoomed into tool_0_2: components %v", got)
	}
	if f := browsertest.Eval[string](p, `document.activeElement.dataset.component || ''`); f == "" {
		t.Error("after zooming in, no component has the focus")
	}
	p.Run(chromedp.KeyEvent("\x1b"))
	if n := browsertest.Eval[int](p, `document.querySelectorAll('[data-tool]').length`); n != len(sizes) {
		t.Errorf("after Escape, %d tools drawn, want %d", n, len(sizes))
	}
	if got := browsertest.Eval[string](p, `document.getElementById('findings').textContent`); !strings.Contains(got, "saves 300 bytes, 100 tokens") {
		t.Errorf("findings %q lack their saving", got)
	}
	p.Check()
}

// TestServers draws two captures: one rectangle per tool, areas as the
// bytes across both.
func TestServers(t *testing.T) {
	a, b := []int64{5000, 3000, 100}, []int64{7000, 2000, 1500, 700}
	path := write(t, htmlreport.Page{Kind: htmlreport.KindMeasure, Title: "two", Data: tree(a, b)})
	p := browsertest.Open(t, path)
	want := map[string]int64{}
	for si, sizes := range [][]int64{a, b} {
		for i, v := range sizes {
			want[fmt.Sprintf("tool_%d_%d", si, i)] = v
		}
	}
	browsertest.CheckTreemap(t, p, want)
	p.Check()
}

func TestDiffPage(t *testing.T) {
	d := tree([]int64{3000, 2000, 1000, 500})
	old := []int64{3000, 1000, 2000}
	for i := range old {
		d.Servers[0].Tools[i].Old = &old[i]
	}
	d.Removed = []htmlreport.Tool{{Name: "gone_tool", Old: &old[0]}}
	path := write(t, htmlreport.Page{Kind: htmlreport.KindDiff, Title: "diff", Data: d})
	p := browsertest.Open(t, path)
	classes := browsertest.Eval[map[string]string](p, `Object.fromEntries(Array.from(document.querySelectorAll('[data-tool]')).map(function (e) { return [e.dataset.tool, e.className]; }))`)
	for tool, want := range map[string]string{"tool_0_0": "same", "tool_0_1": "grew3", "tool_0_2": "shrank3", "tool_0_3": "added"} {
		if !strings.Contains(classes[tool], want) {
			t.Errorf("%s: class %q, want %s", tool, classes[tool], want)
		}
	}
	labels := browsertest.Eval[string](p, `document.getElementById('treemap').textContent`)
	for _, s := range []string{"tool_0_1 (+100.00%)", "tool_0_2 (-50.00%)", "tool_0_3 (new)"} {
		if !strings.Contains(labels, s) {
			t.Errorf("treemap labels %q lack %q (a change must read without colour)", labels, s)
		}
	}
	changes := browsertest.Eval[string](p, `document.getElementById('changes').textContent`)
	for _, s := range []string{"added: tool_0_3, 500 bytes", "removed: gone_tool, 3,000 bytes"} {
		if !strings.Contains(changes, s) {
			t.Errorf("changes %q lack %q", changes, s)
		}
	}
	p.Check()
}

func TestWalksPage(t *testing.T) {
	budget, slack := int64(1000), int64(-200)
	ok, okSlack := int64(5000), int64(4000)
	rep := walk.Report{Walks: []walk.WalkReport{
		{Walk: "start_tasks", Bytes: 3600, Tokens: 1200, Parts: []ledger.Part{{Name: "the start", Bytes: 3000, Tokens: 1000}, {Name: "join", Bytes: 600, Tokens: 200}},
			Budgets: []walk.BudgetReport{{Key: "FIRST_TASK_TOKENS.start_tasks", Measure: "total", Unit: "tokens", Read: 1200, Budget: &budget, Slack: &slack, Status: "over"}}},
		{Walk: "plugin", Bytes: 3000, Tokens: 1000, Parts: []ledger.Part{{Name: "skill", Bytes: 3000, Tokens: 1000}},
			Budgets: []walk.BudgetReport{{Key: "FIRST_TASK_TOKENS.plugin", Measure: "total", Unit: "tokens", Read: 1000, Budget: &ok, Slack: &okSlack, Status: "ok"}}},
	}}
	path := write(t, htmlreport.Page{Kind: htmlreport.KindWalks, Title: "walks", Data: rep})
	p := browsertest.Open(t, path)
	if n := browsertest.Eval[int](p, `document.querySelectorAll('[data-part]').length`); n != 3 {
		t.Errorf("%d part segments, want 3", n)
	}
	over := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll('[data-over]')).map(function (e) { return e.dataset.over; })`)
	if strings.Join(over, ",") != "start_tasks" {
		t.Errorf("marked over: %v, want start_tasks", over)
	}
	text := browsertest.Eval[string](p, `document.querySelector('[data-walk="start_tasks"]').textContent`)
	for _, s := range []string{"OVER BUDGET by 200 tokens", "budget 1,000 tokens"} {
		if !strings.Contains(text, s) {
			t.Errorf("start_tasks reads %q, lacks %q (over budget must read without colour)", text, s)
		}
	}
	// the budget line is at 3,000 bytes of a scale of 15,000 (the plugin's budget)
	left := browsertest.Eval[float64](p, `(function(){var b=document.querySelector('[data-walk="start_tasks"] .bar').getBoundingClientRect(), l=document.querySelector('[data-walk="start_tasks"] .budget-line').getBoundingClientRect(); return (l.left-b.left)/b.width})()`)
	if math.Abs(left-0.2) > 0.005 {
		t.Errorf("budget line at %.4f of the bar, want 0.2", left)
	}
	p.Check()
}

// TestHostile puts hostile text everywhere a server's text goes: it
// shows as text, adds no element, runs nothing.
func TestHostile(t *testing.T) {
	d := htmlreport.Tree{}
	s := htmlreport.Server{Name: hostile[0], Path: hostile[1]}
	for i, h := range hostile {
		s.Tools = append(s.Tools, htmlreport.Tool{Name: h, Description: hostile[(i+1)%len(hostile)], Bytes: int64(100 + i), Tokens: int64(100+i) / 3,
			Components: []htmlreport.Component{{Name: h, Bytes: int64(100 + i)}}})
		d.Findings = append(d.Findings, htmlreport.Finding{Text: h})
		d.Savings = append(d.Savings, htmlreport.Saving{Name: h})
	}
	d.Servers = []htmlreport.Server{s, {Name: hostile[3], Tools: []htmlreport.Tool{{Name: hostile[4], Bytes: 50}}}}
	d.Removed = []htmlreport.Tool{{Name: hostile[5]}}
	for _, kind := range []string{htmlreport.KindMeasure, htmlreport.KindDiff} {
		t.Run(kind, func(t *testing.T) {
			p := browsertest.Open(t, write(t, htmlreport.Page{Kind: kind, Title: strings.Join(hostile, " "), Data: d}))
			p.CheckInert()
			names := browsertest.Eval[[]string](p, `Array.from(document.querySelectorAll('[data-tool]')).map(function (e) { return e.dataset.tool; })`)
			if len(names) != len(hostile)+1 {
				t.Errorf("%d tools drawn, want %d", len(names), len(hostile)+1)
			}
			table := browsertest.Eval[string](p, `document.getElementById('tools').textContent`)
			for _, h := range hostile {
				if !strings.Contains(table, h) {
					t.Errorf("the table lacks the text %q", h)
				}
			}
			p.Check()
		})
	}
	t.Run("walks", func(t *testing.T) {
		rep := walk.Report{Warnings: hostile}
		for _, h := range hostile {
			rep.Walks = append(rep.Walks, walk.WalkReport{Walk: h, Bytes: 30, Tokens: 10, Error: h, Parts: []ledger.Part{{Name: h, Bytes: 30, Tokens: 10}}})
		}
		p := browsertest.Open(t, write(t, htmlreport.Page{Kind: htmlreport.KindWalks, Title: hostile[1], Data: rep}))
		p.CheckInert()
		p.Check()
	})
}

// TestPolicyRefuses shows the policy at work in the browser: a script
// or style added to the page is refused (and says so on the console).
func TestPolicyRefuses(t *testing.T) {
	p := browsertest.Open(t, write(t, htmlreport.Page{Kind: htmlreport.KindMeasure, Title: "x", Data: tree([]int64{10})}))
	p.Check()
	browsertest.Eval[any](p, `(function(){var s=document.createElement('script'); s.textContent='window.ran=1'; document.body.appendChild(s); var d=document.createElement('div'); d.id='styled'; d.setAttribute('style','width:123px'); document.body.appendChild(d); return null})()`)
	if v := browsertest.Eval[any](p, `window.ran === undefined ? null : window.ran`); v != nil {
		t.Error("an added inline script ran")
	}
	if w := browsertest.Eval[float64](p, `document.getElementById('styled').getBoundingClientRect().width`); w == 123 {
		t.Error("a style attribute applied")
	}
	if len(p.Errors()) == 0 {
		t.Error("the refusals were not reported")
	}
}
