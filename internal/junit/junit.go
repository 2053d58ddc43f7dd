// Package junit writes JUnit XML reports, the test report every CI system
// reads (GitLab, Jenkins, Buildkite, GitHub test reporters), for the
// commands that gate numbers: one test case per budget.
//
//	r := junit.Report{Name: "walks"}
//	s := r.Suite("walks")
//	s.Add(junit.Case{Name: "FIRST_TASK_TOKENS.plugin", Class: "plugin"})
//	s.Add(junit.Case{Name: "FIRST_TASK_TOKENS.http", Class: "http", Failure: &junit.Problem{Message: "over by 12 tokens", Text: "walk http read ..."}})
//	data, _ := r.Marshal()
//
// The shape is the one the Ant JUnit task wrote and its consumers read: a
// testsuites root with totals, testsuite elements with required name,
// tests, failures and errors counts, testcase elements with name and
// classname, holding at most one failure, error or skipped element whose
// message attribute is one line and whose text is the whole story.
//
// Names, messages and texts come raw, as a server or a file gave them;
// Marshal escapes them (package internal/escape): a character XML 1.0
// forbids (NUL, ESC and the other C0 controls, U+FFFE, U+FFFF, invalid
// UTF-8) and one a report viewer would act on or hide (CR, a bidi
// override) shows as \x1b, \r, \u202e; a name, a class and a message are
// one line, a text keeps its line breaks; Marshal then writes <, &
// and quotes as references, so "</testcase>" in a tool name stays text.
package junit

import (
	"fmt"
	"strings"

	"github.com/readmeter/readmeter/internal/escape"
)

// Report is a JUnit document: its suites, in order.
type Report struct {
	// Name names the whole report (the command).
	Name   string
	suites []*Suite
}

// Suite is one testsuite.
type Suite struct {
	// Name names the suite.
	Name  string
	cases []Case
}

// Case is one test case: one budget held.
type Case struct {
	// Name is the test's name: the budget key.
	Name string
	// Class is the test's class: the walk, capture or address that read it.
	Class string
	// Failure, Error and Skipped say how the case came out; all nil is a
	// pass. At most one is set.
	Failure, Error, Skipped *Problem
	// Out is text for the case's system-out (a warning), when not empty.
	Out string
}

// Problem is a failure, an error or a skip: a one-line message and the
// text behind it.
type Problem struct {
	// Type names the kind of problem ("over budget").
	Type string
	// Message is one line.
	Message string
	// Text is the full text: the part lines, the request and answer.
	Text string
}

// Suite adds a suite named name to the report and returns it.
func (r *Report) Suite(name string) *Suite {
	s := &Suite{Name: name}
	r.suites = append(r.suites, s)
	return s
}

// Add adds a test case to the suite.
func (s *Suite) Add(c Case) { s.cases = append(s.cases, c) }

// oneLine keeps the first line of s, escaped: a message attribute is one
// line.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return escape.Term(first)
}

// Marshal returns the report as XML, with its declaration and a final
// newline, indented by two spaces as encoding/xml's MarshalIndent writes
// it. Time is 0 throughout: the budgets are what is tested, not the
// clock.
func (r *Report) Marshal() ([]byte, error) {
	var tests, failures, errs int
	counts := make([][4]int, len(r.suites)) // tests, failures, errors, skipped
	for i, s := range r.suites {
		for _, c := range s.cases {
			counts[i][0]++
			switch {
			case c.Failure != nil:
				counts[i][1]++
			case c.Error != nil:
				counts[i][2]++
			case c.Skipped != nil:
				counts[i][3]++
			}
		}
		tests += counts[i][0]
		failures += counts[i][1]
		errs += counts[i][2]
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, `<testsuites name="%s" tests="%d" failures="%d" errors="%d" time="0">`, text(escape.Term(r.Name)), tests, failures, errs)
	for i, s := range r.suites {
		fmt.Fprintf(&b, "\n  "+`<testsuite name="%s" tests="%d" failures="%d" errors="%d" skipped="%d" time="0">`,
			text(escape.Term(s.Name)), counts[i][0], counts[i][1], counts[i][2], counts[i][3])
		for _, c := range s.cases {
			fmt.Fprintf(&b, "\n    "+`<testcase name="%s" classname="%s" time="0">`, text(escape.Term(c.Name)), text(escape.Term(c.Class)))
			inner := false
			for _, p := range []struct {
				name string
				p    *Problem
			}{{"failure", c.Failure}, {"error", c.Error}, {"skipped", c.Skipped}} {
				if p.p == nil {
					continue
				}
				inner = true
				b.WriteString("\n      <" + p.name)
				if t := escape.Term(p.p.Type); t != "" {
					fmt.Fprintf(&b, ` type="%s"`, text(t))
				}
				fmt.Fprintf(&b, ` message="%s">%s</%s>`, text(oneLine(p.p.Message)), text(escape.Lines(p.p.Text)), p.name)
			}
			if out := escape.Lines(c.Out); out != "" {
				inner = true
				fmt.Fprintf(&b, "\n      <system-out>%s</system-out>", text(out))
			}
			if inner {
				b.WriteString("\n    ")
			}
			b.WriteString("</testcase>")
		}
		if len(s.cases) > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString("</testsuite>")
	}
	if len(r.suites) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("</testsuites>\n")
	return []byte(b.String()), nil
}

// text is s as XML text or an attribute value.
func text(s string) string { return escape.XMLText(s) }
