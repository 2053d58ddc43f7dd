package walk

import (
	"slices"

	"github.com/readmeter/readmeter/mcpwire"
	"github.com/readmeter/readmeter/toollist"
)

// CallAnswer is one counted tools/call answer of a walk, as a client hands
// it to its model (toollist.ReadAnswer), with what the tool's tools/list
// entry said of it.
type CallAnswer struct {
	// Part is the step's part; Tool the tool called.
	Part, Tool string
	// File and Line say where the step is declared.
	File string
	Line int
	// Answer is the answer's rendered text, counted.
	Answer toollist.Answer
	// Meta are the numbers the tool's _meta gave the answer limits (nil
	// when the walk did not list the tool on that server first).
	Meta map[string]int64
	// ErrorText is the start of the answer's text when the tool result is
	// an error (isError true) that the step asserts nothing of: counted
	// all the same, and most likely not what the walk means to hold to a
	// budget (see ErrorAnswers).
	ErrorText string
}

// ErrorAnswerReport is a counted tools/call answer that is an error
// (isError true) and whose step asserts nothing of it: a warning, since a
// budget set from it holds the size of an error message.
type ErrorAnswerReport struct {
	// Part and Tool name the step; File and Line where it is declared.
	Part string `json:"part"`
	Tool string `json:"tool"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Text is the start of the error's text.
	Text string `json:"text"`
}

// ErrorAnswers returns the counted tools/call answers that are errors
// their steps assert nothing of, in the order they came, after those
// found already (HeldErrors).
func (r *Result) ErrorAnswers() []ErrorAnswerReport {
	out := slices.Clone(r.HeldErrors)
	for _, a := range r.Answers {
		if a.Answer.IsError && a.ErrorText != "" {
			out = append(out, ErrorAnswerReport{Part: a.Part, Tool: a.Tool, File: a.File, Line: a.Line, Text: a.ErrorText})
		}
	}
	return out
}

// AnswerLimitReport is a tools/call answer over one of a client's answer
// limits (toollist.AnswerLimits): a lint, printed as a warning, a finding
// with --strict.
type AnswerLimitReport struct {
	// Part and Tool name the step; File and Line where it is declared.
	Part string `json:"part"`
	Tool string `json:"tool"`
	File string `json:"file"`
	Line int    `json:"line"`
	// Client is the client's profile name; Limit names its rule.
	Client string `json:"client"`
	Limit  string `json:"limit"`
	// Unit is characters or tokens; Max the rule's figure for the tool;
	// Read what the answer counts.
	Unit string `json:"unit"`
	Max  int64  `json:"max"`
	Read int64  `json:"read"`
	// Estimate marks a rule the client does not document exactly.
	Estimate bool `json:"estimate,omitempty"`
	// Raised is true when the tool's _meta raised Max.
	Raised bool `json:"raised,omitempty"`
}

// AnswerLints holds every counted tools/call answer of the run to the
// clients' answer limits and returns those over one, in the order the
// answers came, after the lints held already (Held).
func (r *Result) AnswerLints() []AnswerLimitReport {
	out := slices.Clone(r.Held)
	for _, a := range r.Answers {
		for _, l := range toollist.CheckAnswer(a.Answer, a.Meta) {
			out = append(out, AnswerLimitReport{
				Part: a.Part, Tool: a.Tool, File: a.File, Line: a.Line,
				Client: l.Limit.Client, Limit: l.Limit.Name, Unit: l.Limit.Unit,
				Max: l.Max, Read: l.Read, Estimate: l.Limit.Estimate, Raised: l.Max != l.Limit.Max,
			})
		}
	}
	return out
}

// noteAnswer keeps what the answer limits need of an mcp step's answer:
// the _meta of the tools a list names, and each counted tools/call answer,
// rendered and counted.
func (r *runner) noteAnswer(st *Step, sv *Server, op MCPOp, tool string, pages []*mcpwire.Response, ex *exchange) {
	if ex.rpcError || ex.status >= 400 {
		return
	}
	switch op {
	case OpList:
		if r.meta == nil {
			r.meta = map[*Server]map[string]map[string]int64{}
		}
		for _, p := range pages {
			msg := p.Message
			if len(msg) == 0 {
				msg = p.Raw
			}
			for name, m := range toollist.ToolMeta(msg) {
				if r.meta[sv] == nil {
					r.meta[sv] = map[string]map[string]int64{}
				}
				r.meta[sv][name] = m
			}
		}
	case OpCall:
		if !st.Counted {
			return
		}
		a, err := toollist.ReadAnswer(ex.json)
		if err != nil {
			return // not a result a client renders; the step's expect says what must hold
		}
		c := CallAnswer{Part: st.Part, Tool: tool, File: st.File, Line: st.Line, Answer: a, Meta: r.meta[sv][tool]}
		if e := st.Expect; a.IsError && len(e.Text) == 0 && len(e.Paths) == 0 && len(e.Body) == 0 {
			// an error nothing in the step looks at: say so
			text, _ := toolText(ex)
			if c.ErrorText = clipTo(text, 100); c.ErrorText == "" {
				c.ErrorText = "(no text)"
			}
		}
		r.res.Answers = append(r.res.Answers, c)
	}
}
