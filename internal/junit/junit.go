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
// one line, a text keeps its line breaks; encoding/xml then writes <, &
// and quotes as references, so "</testcase>" in a tool name stays text.
package junit

import (
	"encoding/xml"
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

type xmlProblem struct {
	Type    string `xml:"type,attr,omitempty"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type xmlCase struct {
	XMLName   xml.Name    `xml:"testcase"`
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	Time      string      `xml:"time,attr"`
	Failure   *xmlProblem `xml:"failure"`
	Error     *xmlProblem `xml:"error"`
	Skipped   *xmlProblem `xml:"skipped"`
	Out       string      `xml:"system-out,omitempty"`
}

type xmlSuite struct {
	XMLName  xml.Name  `xml:"testsuite"`
	Name     string    `xml:"name,attr"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Skipped  int       `xml:"skipped,attr"`
	Time     string    `xml:"time,attr"`
	Cases    []xmlCase `xml:"testcase"`
}

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Time     string     `xml:"time,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

func problem(p *Problem) *xmlProblem {
	if p == nil {
		return nil
	}
	return &xmlProblem{Type: escape.Term(p.Type), Message: oneLine(p.Message), Text: escape.Lines(p.Text)}
}

// oneLine keeps the first line of s, escaped: a message attribute is one
// line.
func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return escape.Term(first)
}

// Marshal returns the report as XML, with its declaration and a final
// newline. Time is 0 throughout: the budgets are what is tested, not the
// clock.
func (r *Report) Marshal() ([]byte, error) {
	doc := xmlSuites{Name: escape.Term(r.Name), Time: "0", Suites: []xmlSuite{}}
	for _, s := range r.suites {
		xs := xmlSuite{Name: escape.Term(s.Name), Time: "0", Cases: []xmlCase{}}
		for _, c := range s.cases {
			xs.Cases = append(xs.Cases, xmlCase{Name: escape.Term(c.Name), Classname: escape.Term(c.Class), Time: "0",
				Failure: problem(c.Failure), Error: problem(c.Error), Skipped: problem(c.Skipped), Out: escape.Lines(c.Out)})
			xs.Tests++
			switch {
			case c.Failure != nil:
				xs.Failures++
			case c.Error != nil:
				xs.Errors++
			case c.Skipped != nil:
				xs.Skipped++
			}
		}
		doc.Tests += xs.Tests
		doc.Failures += xs.Failures
		doc.Errors += xs.Errors
		doc.Suites = append(doc.Suites, xs)
	}
	out, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), out...), '\n'), nil
}
