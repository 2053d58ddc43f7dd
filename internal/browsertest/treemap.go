package browsertest

import (
	"math"
	"testing"
)

// treemapCells is every element of the page that stands for a tool
// (data-tool), with the area it is drawn at.
const treemapCells = `Array.from(document.querySelectorAll('[data-tool]')).map(function (e) { var r = e.getBoundingClientRect(); return {tool: e.dataset.tool, area: r.width * r.height}; })`

// CheckTreemap holds the page's treemap to want (each tool's bytes): one
// rectangle per tool, each with an area within 1% of the tool's share.
func CheckTreemap(t testing.TB, p *Page, want map[string]int64) {
	t.Helper()
	type cell struct {
		Tool string  `json:"tool"`
		Area float64 `json:"area"`
	}
	got := Eval[[]cell](p, treemapCells)
	if len(got) != len(want) {
		t.Fatalf("%d rectangles, want one per tool: %d", len(got), len(want))
	}
	var area float64
	var total int64
	for _, c := range got {
		area += c.Area
	}
	for _, b := range want {
		total += b
	}
	for _, c := range got {
		b, ok := want[c.Tool]
		if !ok {
			t.Errorf("a rectangle for %q, which is no tool", c.Tool)
			continue
		}
		share := float64(b) / float64(total)
		if math.Abs(c.Area/area-share) > 0.01*share {
			t.Errorf("%s: area share %.5f, byte share %.5f: off by more than 1%%", c.Tool, c.Area/area, share)
		}
	}
}
