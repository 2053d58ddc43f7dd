package main

import (
	"io"
	"strconv"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/toollist"
)

// reportHead is what a --json report holds before the figures.
type reportHead struct {
	Capture string `json:"capture"`
	Form    string `json:"form"`
}

// reportMiddle is what a --json report holds between the figures and the
// savings.
type reportMiddle struct {
	Toolsets     *[]toolsetJSON    `json:"toolsets,omitempty"`
	Instructions *instructionsJSON `json:"instructions,omitempty"`
}

type toolsetJSON struct {
	Name            string   `json:"name"`
	Tools           int      `json:"tools"`
	ToolNames       []string `json:"tool_names"`
	ModelReadBytes  int64    `json:"model_read_bytes"`
	ModelReadTokens int64    `json:"model_read_tokens"`
}

// instructionsJSON is the init answer's instructions; chars and bytes
// are null when it has none.
type instructionsJSON struct {
	Source string `json:"source"`
	Chars  *int   `json:"chars"`
	Bytes  *int64 `json:"bytes"`
}

// reportTail is what a --json report holds after the savings and the
// profile.
type reportTail struct {
	Ceilings ceilingsJSON    `json:"ceilings"`
	Lints    []lintJSON      `json:"lints"`
	Clients  jsonout.Object  `json:"clients,omitempty"`
	Marginal *[]marginalJSON `json:"marginal,omitempty"`
	Budgets  *[]budgetJSON   `json:"budgets,omitempty"`
	Warnings []string        `json:"warnings"`
	Notes    []string        `json:"notes"`
}

// ceilingsJSON holds the ceilings asked for (null when not) and what is
// over them.
type ceilingsJSON struct {
	MaxDescriptionChars  *int       `json:"max_description_chars"`
	MaxInstructionsChars *int       `json:"max_instructions_chars"`
	Over                 []overJSON `json:"over"`
}

// overJSON is a description (with its tool) or the instructions (with
// their source) over its ceiling.
type overJSON struct {
	What   string  `json:"what"`
	Tool   *string `json:"tool,omitempty"`
	Source *string `json:"source,omitempty"`
	Chars  int     `json:"chars"`
	Max    int     `json:"max"`
}

type lintJSON struct {
	Rule    string `json:"rule"`
	Tool    string `json:"tool,omitempty"`
	Message string `json:"message"`
}

// budgetJSON is a budget checked, in measure's and measure config's
// reports.
type budgetJSON struct {
	Name   string `json:"name"`
	What   string `json:"what"`
	Tokens int64  `json:"tokens"`
	Bytes  int64  `json:"bytes"`
	Budget int64  `json:"budget"`
	Where  string `json:"where"`
	Over   bool   `json:"over"`
}

func budgetsJSON(checks gate.Checks) []budgetJSON {
	bs := make([]budgetJSON, len(checks))
	for i, c := range checks {
		bs[i] = budgetJSON{c.Key, c.Subject, c.Read, c.Bytes, c.Budget.Value, c.Budget.Where(), c.Status == gate.Over}
	}
	return bs
}

// appendReport appends the compact --json object of one capture:
// "capture", "form", the figures (toollist.WriteFiguresJSON, written one
// tool at a time and handed to flush in pieces), then the sections asked
// for, the savings and the profile also in pieces.
func appendReport(dst []byte, r *report, o *options, flush func([]byte) []byte) ([]byte, error) {
	dst, err := jsonout.AppendMembers(append(dst, '{'), reportHead{r.capture.Path, r.capture.Form.String()})
	dst = toollist.WriteFiguresJSON(append(dst, ','), r.figures, flush)
	if err == nil {
		dst, err = jsonout.AppendMembers(dst, middle(r, o))
	}
	dst = appendSavings(dst, r.savings, flush)
	if r.profile != nil && err == nil {
		dst, err = appendProfile(append(dst, `,"profile":`...), r.profile, flush)
	}
	if err == nil {
		dst, err = jsonout.AppendMembers(dst, tail(r, o))
	}
	return append(dst, '}'), err
}

// middle returns the members of a report between the figures and the
// savings.
func middle(r *report, o *options) reportMiddle {
	var mid reportMiddle
	if o.toolsets != "" && r.sets != nil {
		sets := make([]toolsetJSON, len(r.sets))
		for i, s := range r.sets {
			sets[i] = toolsetJSON{s.Name, len(s.Tools), s.Tools, s.ModelReadBytes, s.ModelReadTokens}
		}
		mid.Toolsets = &sets
	}
	if r.init != nil {
		mid.Instructions = &instructionsJSON{Source: r.init.Path}
		if r.init.HasInstructions {
			mid.Instructions.Chars, mid.Instructions.Bytes = &r.init.Chars, &r.init.Bytes
		}
	}
	return mid
}

// appendSavings appends each what-if's member, handing long lists of the
// tools changed to flush in pieces.
func appendSavings(dst []byte, savings []toollist.Saving, flush func([]byte) []byte) []byte {
	for _, s := range savings {
		dst = append(jsonjs.AppendQuote(append(dst, ','), s.Name), `:{"wire_saving_bytes":`...)
		dst = strconv.AppendInt(dst, s.WireSavingBytes, 10)
		dst = strconv.AppendInt(append(dst, `,"model_read_saving_bytes":`...), s.ModelReadSavingBytes, 10)
		dst = strconv.AppendInt(append(dst, `,"changes":`...), int64(s.Changes), 10)
		dst = append(dst, `,"tools_changed":[`...)
		for i, t := range s.Tools {
			if i > 0 {
				dst = append(dst, ',')
				if len(dst) >= 64<<10 {
					dst = flush(dst)
				}
			}
			dst = jsonjs.AppendQuote(dst, t)
		}
		dst = append(dst, "]}"...)
	}
	return dst
}

// tail returns the members of a report after the savings and the
// profile.
func tail(r *report, o *options) reportTail {
	t := reportTail{Lints: make([]lintJSON, len(r.lints)), Warnings: r.allWarnings(), Notes: r.notes}
	if o.descCeiling {
		t.Ceilings.MaxDescriptionChars = &o.maxDescriptionChars
	}
	if o.instrCeiling {
		t.Ceilings.MaxInstructionsChars = &o.maxInstructionsChars
	}
	t.Ceilings.Over = make([]overJSON, len(r.over))
	for i, ov := range r.over {
		t.Ceilings.Over[i] = overJSON{What: ov.What, Chars: ov.Chars, Max: ov.Max}
		if ov.What == "description" {
			t.Ceilings.Over[i].Tool = ptr(ov.Tool)
		} else {
			t.Ceilings.Over[i].Source = ptr(r.init.Path)
		}
	}
	for i, l := range r.lints {
		t.Lints[i] = lintJSON{l.Rule, l.Tool, l.Text}
	}
	if len(r.clients) > 0 {
		t.Clients = clientsJSON(r)
	}
	if o.marginal {
		t.Marginal = ptr(marginalsJSON(r))
	}
	if len(o.budget) > 0 || o.budgetsFile != "" {
		t.Budgets = ptr(budgetsJSON(r.budgets))
	}
	return t
}

// ptr returns a pointer to v: a member that is null or left out when nil.
func ptr[T any](v T) *T { return &v }

// writeJSON prints one object for one capture, an array for several,
// indented as JSON.stringify(v, null, 2) writes it, a piece at a time.
func writeJSON(w io.Writer, reports []*report, o *options) error {
	j := jsonout.NewWriter(w)
	text := make([]byte, 0, 80<<10)
	array := len(reports) > 1 || o.jsonArray
	if array {
		text = append(text, '[')
	}
	for i, r := range reports {
		if i > 0 {
			text = append(text, ',')
		}
		var err error
		if text, err = appendReport(text, r, o, j.Put); err != nil {
			return err
		}
	}
	if array {
		text = append(text, ']')
	}
	j.Put(text)
	return j.End()
}
