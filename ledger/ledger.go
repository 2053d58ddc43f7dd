// Package ledger counts what a walk read: parts, bytes and tokens.
//
// The stance is the service's own: every byte an answer carries is counted
// as UTF-8 text (decoded as Node decodes it, each invalid sequence becoming
// U+FFFD), after the walk's normalisers rewrote what would otherwise change
// from run to run (times the database writes without trailing zeros).
// Tokens are floor(bytes/3): of the walk's total, and, for display, of each
// part.
//
// The steps: New a Ledger with the walk's name and normalisers; Add each
// counted answer or document as a named part; Check the ledger against its
// budget, which fails with an *OverBudget error that says part by part what
// the walk read. A Ledger marshals to JSON with exact integers.
//
// A Ledger belongs to one walk and is not safe for concurrent use.
package ledger

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/readmeter/readmeter/budgets"
	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/jsonjs"
)

// Part is one counted part of a walk: an answer or a document.
type Part struct {
	// Name is the part's name as the spec gives it ("take the next task").
	Name string `json:"name"`
	// Bytes is the part's UTF-8 bytes after normalisation.
	Bytes int64 `json:"bytes"`
	// Tokens is floor(Bytes/3), for display.
	Tokens int64 `json:"tokens"`
}

// Ledger is what one walk read, part by part, in the order read.
type Ledger struct {
	walk  string
	norm  Normalizer
	parts []Part
	bytes int64
}

// New returns an empty ledger for the walk named walk, whose answers are
// rewritten by the normalisers, in the order given, before they are counted.
func New(walk string, normalizers ...Normalizer) *Ledger {
	l := &Ledger{walk: walk}
	switch len(normalizers) {
	case 0:
	case 1:
		l.norm = normalizers[0]
	default:
		l.norm = Chain(normalizers...)
	}
	return l
}

// Walk returns the walk's name.
func (l *Ledger) Walk() string { return l.walk }

// Normalize returns body as the ledger counts it: decoded as UTF-8 text the
// way Node decodes it, then rewritten by the ledger's normalisers. It
// returns body itself when nothing changes.
func (l *Ledger) Normalize(body []byte) []byte {
	text, _ := jsonjs.Decode(body)
	if l.norm != nil {
		text = l.norm.Normalize(text)
	}
	return text
}

// Add counts body as the part named part and returns the bytes counted.
// Two parts may share a name; each is kept in the order added.
func (l *Ledger) Add(part string, body []byte) int64 {
	n := int64(len(l.Normalize(body)))
	l.AddBytes(part, n)
	return n
}

// AddBytes records a part whose byte count was computed elsewhere (what a
// model reads of a tool list, say), without normalising anything.
func (l *Ledger) AddBytes(part string, n int64) {
	l.parts = append(l.parts, Part{Name: part, Bytes: n, Tokens: cli.Tokens(n)})
	l.bytes += n
}

// Parts returns a copy of the parts, in the order added.
func (l *Ledger) Parts() []Part { return append([]Part(nil), l.parts...) }

// Part returns the first part named name.
func (l *Ledger) Part(name string) (Part, bool) {
	for _, p := range l.parts {
		if p.Name == name {
			return p, true
		}
	}
	return Part{}, false
}

// Bytes returns the total bytes of every part.
func (l *Ledger) Bytes() int64 { return l.bytes }

// Tokens returns floor(Bytes/3), the walk's tokens.
func (l *Ledger) Tokens() int64 { return cli.Tokens(l.bytes) }

// Measures a budget can hold, for OverBudget.Measure.
const (
	// MeasureTokens compares the walk's tokens, floor(total bytes/3).
	MeasureTokens = "tokens"
	// MeasureBytes compares bytes: the walk's total, or one part's.
	MeasureBytes = "bytes"
	// MeasureCalls compares a count of calls.
	MeasureCalls = "calls"
	// MeasureToolList compares the tokens of what a model reads of a tool
	// list (floor(model-read bytes/3)).
	MeasureToolList = "tool-list tokens"
)

// OverBudget is the error Check returns when a walk read more than its
// budget. Its text names the walk, what it read, the budget and where the
// budget is declared, then one line per part.
type OverBudget struct {
	// Walk is the walk's name.
	Walk string `json:"walk"`
	// Measure is what was compared: MeasureTokens, MeasureBytes or MeasureCalls.
	Measure string `json:"measure"`
	// Value is the measured value that passed the budget.
	Value int64 `json:"value"`
	// Part names the part when one part was compared (CheckPart,
	// CheckToolList).
	Part string `json:"part,omitempty"`
	// Tokens is the walk's tokens.
	Tokens int64 `json:"tokens"`
	// Bytes is the walk's total bytes.
	Bytes int64 `json:"bytes"`
	// Budget is the budget that was passed.
	Budget budgets.Budget `json:"budget"`
	// Parts is what the walk read, part by part.
	Parts []Part `json:"parts"`
}

// Over returns how far the value is past the budget.
func (e *OverBudget) Over() int64 { return e.Value - e.Budget.Value }

// Error returns the failure text:
//
//	walk start_tasks read 2,512 tokens (7,538 bytes), over its budget of 2,450 (FIRST_TASK_TOKENS.start_tasks, specs/budgets.json:4)
//	  the start: 2070 bytes, 690 tokens
//	  ...
func (e *OverBudget) Error() string {
	var b strings.Builder
	where := fmt.Sprintf("(%s, %s)", e.Budget.Name, e.Budget.Where())
	switch {
	case e.Measure == MeasureToolList:
		fmt.Fprintf(&b, "walk %s: the tool list %q reads %s tokens as a model reads it, over its budget of %s %s", e.Walk, e.Part, cli.Group(e.Value), cli.Group(e.Budget.Value), where)
	case e.Part != "":
		fmt.Fprintf(&b, "walk %s: part %q read %s bytes, over its budget of %s %s", e.Walk, e.Part, cli.Group(e.Value), cli.Group(e.Budget.Value), where)
	case e.Measure == MeasureTokens:
		fmt.Fprintf(&b, "walk %s read %s tokens (%s bytes), over its budget of %s %s", e.Walk, cli.Group(e.Tokens), cli.Group(e.Bytes), cli.Group(e.Budget.Value), where)
	case e.Measure == MeasureBytes:
		fmt.Fprintf(&b, "walk %s read %s bytes (%s tokens), over its budget of %s %s", e.Walk, cli.Group(e.Bytes), cli.Group(e.Tokens), cli.Group(e.Budget.Value), where)
	default:
		fmt.Fprintf(&b, "walk %s made %s %s, over its budget of %s %s", e.Walk, cli.Group(e.Value), e.Measure, cli.Group(e.Budget.Value), where)
	}
	for _, p := range e.Parts {
		fmt.Fprintf(&b, "\n  %s: %d bytes, %d tokens", p.Name, p.Bytes, p.Tokens)
	}
	return b.String()
}

func (l *Ledger) over(measure string, value int64, part string, b budgets.Budget) error {
	if value <= b.Value {
		return nil
	}
	return &OverBudget{Walk: l.walk, Measure: measure, Value: value, Part: part, Tokens: l.Tokens(), Bytes: l.bytes, Budget: b, Parts: l.Parts()}
}

// Check returns nil when the walk's tokens are within b (at most b.Value),
// else an *OverBudget error.
func (l *Ledger) Check(b budgets.Budget) error { return l.over(MeasureTokens, l.Tokens(), "", b) }

// CheckBytes returns nil when the walk's total bytes are within b, else an
// *OverBudget error (SURVEY_BUDGET.bytes is held this way).
func (l *Ledger) CheckBytes(b budgets.Budget) error { return l.over(MeasureBytes, l.bytes, "", b) }

// CheckPart returns nil when the bytes of the first part named part are
// within b, else an *OverBudget error (PROPOSAL_ROUTINE.http.create is held
// this way). A part the ledger lacks is an error.
func (l *Ledger) CheckPart(part string, b budgets.Budget) error {
	p, ok := l.Part(part)
	if !ok {
		return fmt.Errorf("walk %s has no part %q to hold to %s (%s)", l.walk, part, b.Name, b.Where())
	}
	return l.over(MeasureBytes, p.Bytes, part, b)
}

// CheckCalls returns nil when calls is within b, else an *OverBudget error
// (PROPOSAL_ROUTINE.calls is held this way).
func (l *Ledger) CheckCalls(calls int64, b budgets.Budget) error {
	return l.over(MeasureCalls, calls, "", b)
}

// CheckToolList returns nil when the tokens of what a model reads of the
// tool list answered by part (modelBytes, counted elsewhere: each tool's
// JSON.stringify({name, description, input_schema}), summed) are within b,
// else an *OverBudget error whose one part line is that count
// (TOOL_LIST_TOKENS.tasks is held this way).
func (l *Ledger) CheckToolList(part string, modelBytes int64, b budgets.Budget) error {
	tokens := cli.Tokens(modelBytes)
	if tokens <= b.Value {
		return nil
	}
	return &OverBudget{Walk: l.walk, Measure: MeasureToolList, Value: tokens, Part: part, Tokens: l.Tokens(), Bytes: l.bytes, Budget: b,
		Parts: []Part{{Name: part + " (what a model reads)", Bytes: modelBytes, Tokens: tokens}}}
}

// Slack returns b.Value minus the walk's tokens: what the budget has to
// spare (negative when over).
func (l *Ledger) Slack(b budgets.Budget) int64 { return b.Value - l.Tokens() }

// Report is the JSON form of a ledger, with exact integers.
type Report struct {
	// Walk is the walk's name.
	Walk string `json:"walk"`
	// Bytes is the total bytes.
	Bytes int64 `json:"bytes"`
	// Tokens is floor(Bytes/3).
	Tokens int64 `json:"tokens"`
	// Parts is what the walk read, part by part.
	Parts []Part `json:"parts"`
}

// Report returns the ledger's JSON form.
func (l *Ledger) Report() Report {
	parts := l.Parts()
	if parts == nil {
		parts = []Part{}
	}
	return Report{Walk: l.walk, Bytes: l.bytes, Tokens: l.Tokens(), Parts: parts}
}

// MarshalJSON writes the ledger as its Report.
func (l *Ledger) MarshalJSON() ([]byte, error) { return json.Marshal(l.Report()) }

// UnmarshalJSON reads a ledger from its Report form (an earlier run's
// report, used as a base). Totals are recomputed from the parts; a report
// whose totals disagree with its parts is an error.
func (l *Ledger) UnmarshalJSON(data []byte) error {
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	fresh := FromReport(r)
	if fresh.bytes != r.Bytes || fresh.Tokens() != r.Tokens {
		return fmt.Errorf("walk %s: report says %d bytes, %d tokens, but its parts sum to %d bytes, %d tokens", r.Walk, r.Bytes, r.Tokens, fresh.bytes, fresh.Tokens())
	}
	*l = *fresh
	return nil
}

// FromReport returns a ledger holding a report's parts, with no normalisers.
func FromReport(r Report) *Ledger {
	l := New(r.Walk)
	for _, p := range r.Parts {
		l.AddBytes(p.Name, p.Bytes)
	}
	return l
}
