package main

import (
	"fmt"

	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
	"github.com/readmeter/readmeter/walk"
)

// answerLimitText says, in one line, which answer is over which client's
// limit, by how much, and what the client does with it.
func answerLimitText(walkName string, l walk.AnswerLimitReport) string {
	title := l.Client
	var rule *toollist.AnswerLimit
	for i := range toollist.AnswerLimits {
		r := &toollist.AnswerLimits[i]
		if r.Client == l.Client && r.Name == l.Limit {
			rule = r
		}
	}
	if p, ok := toollist.ClientProfile(l.Client); ok {
		title = p.Title
	}
	est := ""
	if l.Estimate {
		est = " (an estimate)"
	}
	s := fmt.Sprintf("walk %s: part %q (tool %s): %s %s: the answer is %s %s, over %s%s: %s",
		walkName, l.Part, l.Tool, l.Client, l.Limit, units.Group(l.Read), l.Unit, units.Group(l.Max), est, title)
	if rule != nil {
		s += " " + rule.Effect
		switch {
		case l.Raised:
			s += fmt.Sprintf(" (the tool's _meta %s sets %s)", rule.MetaKey, units.Group(l.Max))
		case rule.MetaKey != "":
			s += fmt.Sprintf(" (the tool's _meta %s raises it, up to %s)", rule.MetaKey, units.Group(rule.MetaMax))
		case rule.Setting != "":
			s += fmt.Sprintf(" (%s moves it)", rule.Setting)
		}
	}
	return s
}

// errorAnswerText says, in one line, that a counted tools/call answer is
// an error its step asserts nothing of, what it says, and what to do: a
// budget set from it holds the size of an error message.
func errorAnswerText(walkName string, e walk.ErrorAnswerReport) string {
	return fmt.Sprintf("walk %s: part %q (tool %s, %s:%d): the answer is an error (isError true), counted as any other: %q; give the call arguments it takes, or add expect: { not_error: true } to fail on it",
		walkName, e.Part, e.Tool, e.File, e.Line, e.Text)
}
