package budgets_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/readmeter/readmeter/budgets"
)

func TestHistory(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	v := func(short string, d int, path, data string) budgets.Version {
		return budgets.Version{Commit: short + "000", Short: short, Date: day(d), Path: path, Data: []byte(data)}
	}
	versions := []budgets.Version{
		v("a", 1, "b.json", `{"W": {"x": 10, "y": 5}}`),
		v("b", 2, "b.json", `{"W": {"x": 10, "y": 5}}`),                     // nothing moved
		v("c", 3, "b.json", `{"W": {"x": 12, "y": 5}}`),                     // x moved
		v("d", 4, "b.json", `{"W": {"x": 12,}}`),                            // does not parse
		v("e", 5, "new/b.ts", "export const W = { x: 12 } as const;"),       // renamed, TypeScript; y removed
		v("f", 6, "new/b.ts", "export const W = { x: 12, y: 7 } as const;"), // y back
	}
	series, skipped := budgets.History(versions)
	var got []string
	for _, s := range series {
		var cs []string
		for _, c := range s.Changes {
			old := "-"
			if c.Old != nil {
				old = fmt.Sprint(*c.Old)
			}
			val := fmt.Sprint(c.Value)
			if c.Removed {
				val = "removed"
			}
			cs = append(cs, fmt.Sprintf("%s:%s>%s", c.Version.Short, old, val))
		}
		got = append(got, s.Name+" "+strings.Join(cs, " "))
	}
	want := []string{
		"W.x a:->10 c:10>12",
		"W.y a:->5 e:5>removed f:->7",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("History:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(skipped) != 1 || !strings.HasPrefix(skipped[0], "commit d: b.json:1: ") {
		t.Errorf("skipped: %q", skipped)
	}
	if series[0].Changes[1].Version.Data != nil {
		t.Error("a change keeps the version's bytes")
	}
}
