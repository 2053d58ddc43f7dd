package walk

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/ledger"
)

// Report is the JSON form of a run of walks, with exact integers: what
// `walks run --json` writes and `--base` reads.
type Report struct {
	// Walks holds each walk, in the order run.
	Walks []WalkReport `json:"walks"`
	// Over are the failure texts of the budgets exceeded: the walk, what it
	// read, the budget and where it is declared, then part by part.
	Over []string `json:"over"`
	// Warnings are what the reader should know: unbudgeted walks, stale
	// budgets.
	Warnings []string `json:"warnings"`
	// Moves are the budgets --update rewrote.
	Moves []MoveReport `json:"moves,omitempty"`
	// Shard, in the report of a share of a run (walks run --shard), says
	// which share it is and names every walk of the whole run; a merged
	// report has none.
	Shard *ShardReport `json:"shard,omitempty"`
}

// ShardReport is which share of a run a report holds.
type ShardReport struct {
	// Index is the share, 1 to Count.
	Index int `json:"index"`
	// Count is how many shares the run was split into.
	Count int `json:"count"`
	// Walks names every walk of the whole run, in the order an unsharded
	// run would report them.
	Walks []string `json:"walks"`
	// Shared names the walks of the whole run that read lists other walks
	// write (isolation: shared), which every share deals together.
	Shared []string `json:"shared,omitempty"`
	// Specs is the SHA-256 (hex) of the whole run's spec files: each walk's
	// name, its spec file's bytes and its includes' bytes, in the order of
	// Walks.
	Specs string `json:"specs"`
	// Server is where the share ran: "twin" for the embedded twin (no
	// --url, so walks merge --update writes its numbers only into a twin's
	// file), else the --url given, without any user or password.
	Server string `json:"server"`
	// Budgets is the budget file the share was given (--budgets), if any.
	Budgets *FileHash `json:"budgets,omitempty"`
	// Toolkit is the version of the walks command that ran the share.
	Toolkit string `json:"toolkit"`
}

// FileHash names a file and the SHA-256 (hex) of its bytes.
type FileHash struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// WalkReport is one walk in a Report.
type WalkReport struct {
	// Walk is the walk's name.
	Walk string `json:"walk"`
	// Spec is the spec file.
	Spec string `json:"spec"`
	// Bytes and Tokens are the walk's totals.
	Bytes  int64 `json:"bytes"`
	Tokens int64 `json:"tokens"`
	// Calls is the number of counted http and mcp steps.
	Calls int64 `json:"calls"`
	// Parts is what the walk read, part by part.
	Parts []ledger.Part `json:"parts"`
	// ToolLists are the model-read bytes of the walk's tools/list answers.
	ToolLists []ToolListReport `json:"tool_lists,omitempty"`
	// Budgets are the walk's budgets and what it read of each.
	Budgets []BudgetReport `json:"budgets"`
	// Unbudgeted is true when the spec names no budget at all.
	Unbudgeted bool `json:"unbudgeted,omitempty"`
	// Runs is how many times the walk ran (--repeat).
	Runs int `json:"runs"`
	// Error is the failure, when the walk failed against the server.
	Error string `json:"error,omitempty"`
	// SpecFault is true when the spec, not the server, is at fault for
	// Error (a keep path or header that finds nothing in the answer).
	SpecFault bool `json:"spec_fault,omitempty"`
	// Differ says how a repeated run counted differently.
	Differ string `json:"differ,omitempty"`
	// AnswerLimits are the walk's tools/call answers over a client's
	// answer limit, one entry per answer and rule.
	AnswerLimits []AnswerLimitReport `json:"answer_limits,omitempty"`
	// ErrorAnswers are the walk's counted tools/call answers that are
	// errors (isError true) their steps assert nothing of.
	ErrorAnswers []ErrorAnswerReport `json:"error_answers,omitempty"`
	// OrderDependent is true for a walk that reads lists other walks write
	// (isolation: shared) and ran on a server they share (--url): what it
	// read depends on what ran there before it.
	OrderDependent bool `json:"order_dependent,omitempty"`
}

// ToolListReport is the model-read count of one tools/list step.
type ToolListReport struct {
	Part   string `json:"part"`
	Bytes  int64  `json:"bytes"`
	Tokens int64  `json:"tokens"`
}

// BudgetReport is one budget of a walk: the key, what is measured, what
// the walk read and the budget, when the budget file holds it.
type BudgetReport struct {
	// Key is the budget key.
	Key string `json:"key"`
	// Measure is what is measured: "total", "calls", "step:<part>"...
	Measure string `json:"measure"`
	// Unit is tokens, bytes or calls.
	Unit gate.Unit `json:"unit"`
	// Read is what the walk read.
	Read int64 `json:"read"`
	// Budget is the budget's value; absent when no budget file holds it.
	Budget *int64 `json:"budget,omitempty"`
	// Slack is Budget - Read (negative when over).
	Slack *int64 `json:"slack,omitempty"`
	// Where is "file:line" of the budget.
	Where string `json:"where,omitempty"`
	// Status is ok, over, unbudgeted or unchecked (no budget file).
	Status gate.Status `json:"status"`
}

// BudgetOf returns the report of a check.
func BudgetOf(c gate.Check) BudgetReport {
	br := BudgetReport{Key: c.Key, Measure: c.Measure.String(), Unit: c.Unit(), Read: c.Read, Status: c.Status}
	if c.Budgeted() {
		budget, slack := c.Budget.Value, c.Slack()
		br.Budget, br.Slack, br.Where = &budget, &slack, c.Budget.Where()
	}
	return br
}

// OverText returns the failure text of a check that is over, then, for a
// measure of the whole walk or of one part, what the walk read part by
// part:
//
//	walk start_tasks read 2,512 tokens (bytes/3) of 7,538 bytes, over its budget of 2,450 (FIRST_TASK_TOKENS.start_tasks, specs/budgets.json:4)
//	  the start: 2,070 bytes, 690 tokens (bytes/3)
//	  ...
//
// Tokens are named with their rule (units.TokensLabel), as every table of
// walks names them: a walk's budgets count floor(bytes/3), never a
// tokenizer's tokens.
func OverText(c gate.Check, parts []ledger.Part) string {
	var b strings.Builder
	where := fmt.Sprintf("(%s, %s)", c.Budget.Name, c.Budget.Where())
	tokens := units.TokensLabel
	budget := units.Group(c.Budget.Value)
	switch c.Measure.Kind {
	case gate.ToolList:
		fmt.Fprintf(&b, "walk %s: what a model reads of the tool list %q is %s %s of %s bytes, over its budget of %s %s",
			c.Subject, c.Measure.Part, units.Group(c.Read), tokens, units.Group(c.Bytes), budget, where)
		return b.String()
	case gate.Step:
		fmt.Fprintf(&b, "walk %s: part %q read %s bytes, over its budget of %s %s", c.Subject, c.Measure.Part, units.Group(c.Read), budget, where)
	case gate.Total:
		fmt.Fprintf(&b, "walk %s read %s %s of %s bytes, over its budget of %s %s", c.Subject, units.Group(c.Read), tokens, units.Group(c.Bytes), budget, where)
	case gate.ItemCount:
		fmt.Fprintf(&b, "walk %s: part %q held %s items, over its budget of %s %s", c.Subject, c.Measure.Part, units.Group(c.Read), budget, where)
	case gate.TotalBytes:
		fmt.Fprintf(&b, "walk %s read %s bytes, %s %s, over its budget of %s %s", c.Subject, units.Group(c.Read), units.Group(units.Tokens(c.Read)), tokens, budget, where)
	default:
		fmt.Fprintf(&b, "walk %s made %s %s, over its budget of %s %s", c.Subject, units.Group(c.Read), units.Label(string(c.Unit())), budget, where)
	}
	for _, p := range parts {
		fmt.Fprintf(&b, "\n  %s: %s bytes, %s %s", p.Name, units.Group(p.Bytes), units.Group(p.Tokens), tokens)
	}
	return b.String()
}

// MoveReport is one budget moved by --update.
type MoveReport struct {
	Key   string `json:"key"`
	Old   int64  `json:"old"`
	New   int64  `json:"new"`
	Where string `json:"where"`
	// Added is true for a budget the file lacked, added at New (Old 0).
	Added bool `json:"added,omitempty"`
}

// ReadReport reads a Report from a JSON file (a base to compare with, a
// share to merge): a regular file of at most infile.MaxText bytes.
func ReadReport(path string) (*Report, error) {
	data, err := infile.Read(path, "report", infile.MaxText)
	if err != nil {
		return nil, err
	}
	if err := infile.WebPage(path, data, "walks report", "give a report written by walks run --json or --report (the raw file, not its web page)"); err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: not a walks report: %v", path, err)
	}
	var probe struct {
		Walks json.RawMessage `json:"walks"`
	}
	if json.Unmarshal(data, &probe); len(probe.Walks) == 0 || probe.Walks[0] != '[' {
		return nil, fmt.Errorf("%s: not a walks report: no \"walks\" list; give a report written by walks run --json or --report", path)
	}
	for i, w := range r.Walks {
		// A count is never negative: a report that says so was not
		// written by walks run.
		neg := func(field string, v int64) error {
			if v < 0 {
				return fmt.Errorf("%s: walks[%d] (%s): %s is %d; a count is 0 or more: give a report written by walks run --json or --report", path, i, w.Walk, field, v)
			}
			return nil
		}
		checks := []error{neg("bytes", w.Bytes), neg("tokens", w.Tokens), neg("calls", w.Calls)}
		for j, p := range w.Parts {
			checks = append(checks, neg(fmt.Sprintf("parts[%d].bytes", j), p.Bytes), neg(fmt.Sprintf("parts[%d].tokens", j), p.Tokens))
		}
		for j, t := range w.ToolLists {
			checks = append(checks, neg(fmt.Sprintf("tool_lists[%d].bytes", j), t.Bytes), neg(fmt.Sprintf("tool_lists[%d].tokens", j), t.Tokens))
		}
		for j, b := range w.Budgets {
			checks = append(checks, neg(fmt.Sprintf("budgets[%d].read", j), b.Read))
			if b.Budget != nil {
				checks = append(checks, neg(fmt.Sprintf("budgets[%d].budget", j), *b.Budget))
			}
		}
		for _, err := range checks {
			if err != nil {
				return nil, err
			}
		}
		var sum int64
		for _, p := range w.Parts {
			sum += p.Bytes
		}
		if sum != w.Bytes {
			return nil, fmt.Errorf("%s: walk %s: its parts sum to %d bytes, the report says %d", path, w.Walk, sum, w.Bytes)
		}
	}
	return &r, nil
}
