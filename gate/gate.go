// Package gate holds what was read to budgets: the toolkit's one budget
// check, used by every command that gates a number.
//
//	file, _ := budgets.Load("specs/twin/budgets.json")
//	checks := gate.Checks{
//		gate.Hold("start_tasks", "FIRST_TASK_TOKENS.start_tasks", gate.Measure{Kind: gate.Total}, 167, 503, file),
//	}
//	for _, c := range checks.With(gate.Over) {
//		fmt.Println(c.Key, "over by", -c.Slack())
//	}
//	err := checks.Err() // a *gate.Exceeded when any check is over
//
// The stance: a check is data. Hold looks a budget up and compares once;
// everything after (the table, the JSON report, the exit code, the text of
// a failure, --update's new numbers) is derived from the checks, never
// compared again. A budget is passed only when what was read is greater
// than it: a value equal to its budget holds.
//
// The steps: measure what was read (a walk's ledger, a tool list's
// figures); Hold each reading against its budget key; gate on Checks.Err;
// to move the budgets to what was read, Checks.Values gives the numbers
// budgets.File.Update rewrites, and Checks.Settled the checks as they hold
// afterwards.
package gate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/budgets"
)

// Unit is what a measure's value counts.
type Unit string

// The units a measure reads in.
const (
	// Tokens are floor(bytes/3).
	Tokens Unit = "tokens"
	// Bytes are UTF-8 bytes.
	Bytes Unit = "bytes"
	// Calls are requests and notifications sent to a server.
	Calls Unit = "calls"
	// Items counts the entries of list answers.
	Items Unit = "items"
)

// Kind is what a measure reads, as a walk spec names it.
type Kind string

// The kinds of measure.
const (
	// Total is a walk's tokens, floor(total bytes/3).
	Total Kind = "total"
	// TotalBytes is a walk's total bytes.
	TotalBytes Kind = "bytes"
	// CallCount is the number of counted calls a walk made.
	CallCount Kind = "calls"
	// Step is the bytes of one part (Measure.Part).
	Step Kind = "step"
	// ToolList is the tokens of what a model reads of one tool list:
	// floor(model-read bytes/3).
	ToolList Kind = "tool_list"
	// ItemCount is how many entries the `items` lists of one part's
	// answers hold, summed over every answer counted under it
	// (Measure.Part): the SPACEs a paged list read.
	ItemCount Kind = "items"
)

// Measure is what a check compares: a kind, and the part it names for Step
// and ToolList.
type Measure struct {
	// Kind is what is read.
	Kind Kind
	// Part names the part a Step or ToolList measure reads; empty for the
	// others, and for a tool list measured on its own (a capture).
	Part string
}

// ParseMeasure reads a measure as a walk spec writes it: total, bytes,
// calls, step:PART or tool_list:PART.
func ParseMeasure(s string) (Measure, bool) {
	kind, part, _ := strings.Cut(s, ":")
	m := Measure{Kind: Kind(kind), Part: part}
	switch {
	case (m.Kind == Total || m.Kind == TotalBytes || m.Kind == CallCount) && part == "":
		return m, true
	case (m.Kind == Step || m.Kind == ToolList || m.Kind == ItemCount) && part != "":
		return m, true
	}
	return Measure{}, false
}

// String returns the measure as a walk spec writes it: "calls", "step:create".
func (m Measure) String() string {
	if m.Part != "" {
		return string(m.Kind) + ":" + m.Part
	}
	return string(m.Kind)
}

// Unit returns the unit the measure reads in.
func (m Measure) Unit() Unit {
	switch m.Kind {
	case TotalBytes, Step:
		return Bytes
	case CallCount:
		return Calls
	case ItemCount:
		return Items
	}
	return Tokens
}

// Status is how a check came out.
type Status string

// The statuses of a check.
const (
	// OK means what was read is within the budget.
	OK Status = "ok"
	// Over means what was read passed the budget.
	Over Status = "over"
	// Unbudgeted means the budgets hold no budget under the check's key.
	Unbudgeted Status = "unbudgeted"
	// Unchecked means there were no budgets to hold the reading to.
	Unchecked Status = "unchecked"
)

// Check is one reading held to one budget.
type Check struct {
	// Subject names what read the value: a walk, a capture, a toolset.
	Subject string
	// Key is the budget's dotted name, "FIRST_TASK_TOKENS.start_tasks".
	Key string
	// Measure is what was read.
	Measure Measure
	// Read is the value read, in Measure.Unit().
	Read int64
	// Bytes is the bytes behind Read when the unit is tokens (the walk's
	// total bytes, a tool list's model-read bytes); else Read itself.
	Bytes int64
	// Budget is the budget, with the file and line that declare it; set
	// when Status is OK or Over.
	Budget budgets.Budget
	// Status is how the check came out.
	Status Status
	// Missing says why the budget was not found, when Status is Unbudgeted.
	Missing error
}

// Unit returns the unit Read is in.
func (c Check) Unit() Unit { return c.Measure.Unit() }

// Budgeted reports whether the check found its budget (Status OK or Over).
func (c Check) Budgeted() bool { return c.Status == OK || c.Status == Over }

// Slack returns the budget minus what was read: what the budget has to
// spare, negative when over. It is 0 for a check without a budget.
func (c Check) Slack() int64 {
	if !c.Budgeted() {
		return 0
	}
	return c.Budget.Value - c.Read
}

// Stale reports whether the budget is more than pct percent above what was
// read: a budget left behind when the reading fell.
func (c Check) Stale(pct float64) bool {
	return c.Status == OK && float64(c.Budget.Value) > float64(c.Read)*(1+pct/100)
}

// Budgets is where Hold finds budgets: a *budgets.File, or Given budgets.
type Budgets interface {
	// Lookup returns the budget with the dotted name, or an error that
	// says why there is none.
	Lookup(name string) (budgets.Budget, error)
}

// Hold returns the check of read (with the bytes behind it) against the
// budget named key in bs. With bs nil the check is Unchecked; with no such
// budget, Unbudgeted, the reason in Missing.
func Hold(subject, key string, m Measure, read, bytes int64, bs Budgets) Check {
	c := Check{Subject: subject, Key: key, Measure: m, Read: read, Bytes: bytes, Status: Unchecked}
	if bs == nil {
		return c
	}
	b, err := bs.Lookup(key)
	if err != nil {
		c.Status, c.Missing = Unbudgeted, err
		return c
	}
	c.Budget, c.Status = b, OK
	if read > b.Value {
		c.Status = Over
	}
	return c
}

// Given are budgets given on a command line, not read from a file: each
// one's File is the flag that gave it and its Line 0, so Where names the
// flag.
type Given []budgets.Budget

// Lookup returns the first budget with the dotted name.
func (g Given) Lookup(name string) (budgets.Budget, error) {
	for _, b := range g {
		if b.Name == name {
			return b, nil
		}
	}
	return budgets.Budget{}, fmt.Errorf("no budget %s given", name)
}

// Checks are the checks of one run, in the order held.
type Checks []Check

// With returns the checks whose status is s, in order.
func (cs Checks) With(s Status) Checks {
	var out Checks
	for _, c := range cs {
		if c.Status == s {
			out = append(out, c)
		}
	}
	return out
}

// Count returns how many checks have status s.
func (cs Checks) Count(s Status) int { return len(cs.With(s)) }

// Err returns nil when no check is over, else an *Exceeded holding the
// checks that are.
func (cs Checks) Err() error {
	over := cs.With(Over)
	if len(over) == 0 {
		return nil
	}
	return &Exceeded{Checks: over}
}

// Values returns, by budget key, what each budgeted check read: the numbers
// to move the budgets to. Two checks that read the same key differently
// are an error, since either could set it.
func (cs Checks) Values() (map[string]int64, error) {
	values := map[string]int64{}
	for _, c := range cs {
		if !c.Budgeted() {
			continue
		}
		if old, dup := values[c.Key]; dup && old != c.Read {
			return nil, fmt.Errorf("%s is read by two walks, %d and %d: which one sets it?", c.Key, old, c.Read)
		}
		values[c.Key] = c.Read
	}
	return values, nil
}

// Settled returns the checks as they hold once every budgeted one was
// moved to what it read: budget equal to the reading, status OK.
func (cs Checks) Settled() Checks {
	out := make(Checks, len(cs))
	for i, c := range cs {
		if c.Budgeted() {
			c.Budget.Value, c.Status = c.Read, OK
		}
		out[i] = c
	}
	return out
}

// Exceeded is the error of checks that are over their budgets. A command
// ends with exit 1 on it: a finding, not a crash.
type Exceeded struct {
	// Checks are the checks that are over, in order.
	Checks Checks
}

// Error returns "1 budget exceeded" or "N budgets exceeded".
func (e *Exceeded) Error() string {
	if len(e.Checks) == 1 {
		return "1 budget exceeded"
	}
	return strconv.Itoa(len(e.Checks)) + " budgets exceeded"
}
