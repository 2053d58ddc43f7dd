package gate

import (
	"errors"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/budgets"
)

func TestParseMeasure(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Measure
		ok   bool
		unit Unit
	}{
		{"total", Measure{Kind: Total}, true, Tokens},
		{"bytes", Measure{Kind: TotalBytes}, true, Bytes},
		{"calls", Measure{Kind: CallCount}, true, Calls},
		{"step:post the result", Measure{Kind: Step, Part: "post the result"}, true, Bytes},
		{"tool_list:the tool list", Measure{Kind: ToolList, Part: "the tool list"}, true, Tokens},
		{"step", Measure{}, false, ""},
		{"tool_list:", Measure{}, false, ""},
		{"calls:x", Measure{}, false, ""},
		{"tokens", Measure{}, false, ""},
	} {
		got, ok := ParseMeasure(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseMeasure(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
			continue
		}
		if ok && (got.String() != tc.in || got.Unit() != tc.unit) {
			t.Errorf("%q: String %q, Unit %s; want %s", tc.in, got.String(), got.Unit(), tc.unit)
		}
	}
}

func TestHold(t *testing.T) {
	file, err := budgets.Parse("b.json", []byte("{\n  \"A\": {\"total\": 100, \"calls\": 6}\n}"))
	if err != nil {
		t.Fatal(err)
	}
	total := Measure{Kind: Total}
	for _, tc := range []struct {
		name   string
		key    string
		read   int64
		bs     Budgets
		status Status
		slack  int64
		where  string
	}{
		{"under", "A.total", 99, file, OK, 1, "b.json:2"},
		{"at the budget holds", "A.total", 100, file, OK, 0, "b.json:2"},
		{"one over", "A.total", 101, file, Over, -1, "b.json:2"},
		{"no such key", "A.nope", 5, file, Unbudgeted, 0, ""},
		{"no budgets", "A.total", 5, nil, Unchecked, 0, ""},
		{"given on the command line", "A.total", 7, Given{{Name: "A.total", Value: 5, File: "--budget total=5"}}, Over, -2, "--budget total=5"},
	} {
		c := Hold("w", tc.key, total, tc.read, tc.read*3, tc.bs)
		if c.Status != tc.status || c.Slack() != tc.slack || c.Read != tc.read || c.Bytes != tc.read*3 || c.Subject != "w" || c.Key != tc.key {
			t.Errorf("%s: %+v; want %s, slack %d", tc.name, c, tc.status, tc.slack)
		}
		if c.Budgeted() && c.Budget.Where() != tc.where {
			t.Errorf("%s: Where = %q, want %q", tc.name, c.Budget.Where(), tc.where)
		}
		if (c.Status == Unbudgeted) != (c.Missing != nil) {
			t.Errorf("%s: Missing = %v with status %s", tc.name, c.Missing, c.Status)
		}
	}
	if c := Hold("w", "A.nope", total, 5, 15, file); !strings.Contains(c.Missing.Error(), "block A holds total, calls") {
		t.Errorf("Missing = %v", c.Missing)
	}
}

func TestChecks(t *testing.T) {
	given := Given{{Name: "A.x", Value: 10, File: "f", Line: 1}, {Name: "A.y", Value: 10, File: "f", Line: 2}}
	m := Measure{Kind: Total}
	cs := Checks{
		Hold("w1", "A.x", m, 12, 36, given),
		Hold("w1", "A.y", m, 3, 9, given),
		Hold("w2", "A.z", m, 3, 9, given),
		Hold("w2", "A.y", m, 11, 33, given),
	}
	if cs.Count(Over) != 2 || cs.Count(OK) != 1 || cs.Count(Unbudgeted) != 1 {
		t.Fatalf("counts: %+v", cs)
	}
	var ex *Exceeded
	if err := cs.Err(); !errors.As(err, &ex) || len(ex.Checks) != 2 || err.Error() != "2 budgets exceeded" {
		t.Errorf("Err = %v", err)
	}
	if err := cs[:1].Err(); err == nil || err.Error() != "1 budget exceeded" {
		t.Errorf("Err of one = %v", err)
	}
	if err := cs[1:3].Err(); err != nil {
		t.Errorf("Err within = %v", err)
	}
	// A.y is read 3 by w1 and 11 by w2: which sets it?
	if _, err := cs.Values(); err == nil || !strings.Contains(err.Error(), "A.y is read by two walks, 3 and 11") {
		t.Errorf("Values with two readings = %v", err)
	}
	values, err := cs[:3].Values()
	if err != nil || len(values) != 2 || values["A.x"] != 12 || values["A.y"] != 3 {
		t.Errorf("Values = %v, %v", values, err)
	}
	settled := cs.Settled()
	if settled.Count(Over) != 0 || settled[0].Budget.Value != 12 || settled[0].Slack() != 0 || settled[0].Budget.Where() != "f:1" || settled[2].Status != Unbudgeted {
		t.Errorf("Settled = %+v", settled)
	}
	if cs[0].Status != Over {
		t.Error("Settled changed the checks it was given")
	}
}

func TestStale(t *testing.T) {
	given := Given{{Name: "A.x", Value: 111, File: "f", Line: 1}}
	c := Hold("w", "A.x", Measure{Kind: Total}, 100, 300, given)
	if !c.Stale(10) || c.Stale(11) || c.Stale(20) {
		t.Errorf("a budget of 111 over a reading of 100: Stale(10) %v, Stale(11) %v", c.Stale(10), c.Stale(11))
	}
	over := Hold("w", "A.x", Measure{Kind: Total}, 200, 600, given)
	if over.Stale(0) {
		t.Error("an exceeded budget is stale")
	}
}
