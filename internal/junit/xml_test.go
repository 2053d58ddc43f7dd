package junit

import (
	"encoding/xml"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/escape"
)

// The report's shape as encoding/xml wrote it before: the oracle of
// Marshal's output.
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

func xmlProblemOf(p *Problem) *xmlProblem {
	if p == nil {
		return nil
	}
	return &xmlProblem{Type: escape.Term(p.Type), Message: oneLine(p.Message), Text: escape.Lines(p.Text)}
}

// marshalXML is Marshal as it was, through encoding/xml.
func (r *Report) marshalXML() ([]byte, error) {
	doc := xmlSuites{Name: escape.Term(r.Name), Time: "0", Suites: []xmlSuite{}}
	for _, s := range r.suites {
		xs := xmlSuite{Name: escape.Term(s.Name), Time: "0", Cases: []xmlCase{}}
		for _, c := range s.cases {
			xs.Cases = append(xs.Cases, xmlCase{Name: escape.Term(c.Name), Classname: escape.Term(c.Class), Time: "0",
				Failure: xmlProblemOf(c.Failure), Error: xmlProblemOf(c.Error), Skipped: xmlProblemOf(c.Skipped), Out: escape.Lines(c.Out)})
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

// TestMarshalAgainstEncodingXML holds Marshal to what encoding/xml wrote
// of the same report, on reports of random shape and text.
func TestMarshalAgainstEncodingXML(t *testing.T) {
	pieces := []string{"", "a", "FIRST_TASK_TOKENS.http", " ", "é", "<", "&", "'", "\"", ">", "\t", "\n", "\r\n", "\x1b[2J", "\x00", "\u202e", "\xff", "]]>", "\ufffe"}
	r := rand.New(rand.NewPCG(9, 10))
	str := func() string {
		var b strings.Builder
		for range r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	prob := func() *Problem {
		if r.IntN(2) == 0 {
			return nil
		}
		return &Problem{Type: str(), Message: str(), Text: str()}
	}
	for range 2000 {
		rep := Report{Name: str()}
		for range r.IntN(4) {
			s := rep.Suite(str())
			for range r.IntN(4) {
				c := Case{Name: str(), Class: str(), Out: str()}
				switch r.IntN(5) {
				case 0:
					c.Failure = prob()
				case 1:
					c.Error = prob()
				case 2:
					c.Skipped = prob()
				case 3: // more than one, which Marshal writes in this order
					c.Failure, c.Error, c.Skipped = prob(), prob(), prob()
				}
				s.Add(c)
			}
		}
		got, err := rep.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		want, err := rep.marshalXML()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("Marshal:\n%s\nencoding/xml:\n%s", got, want)
		}
	}
}
