// Package junittest validates JUnit reports in tests, against junit.xsd
// (the shape Jenkins, GitLab and Buildkite read) with xmllint, and by
// reading the counts back.
//
//	junittest.Validate(t, data)
//
// xmllint comes from Debian's libxml2-utils, which .ci/run installs; a
// machine without it skips the schema check, except under CI, where it
// fails.
package junittest

import (
	_ "embed"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/atomicfile"
)

//go:embed junit.xsd
var schema []byte

// Suites is a JUnit report read back: its suites and their cases.
type Suites struct {
	Tests    int     `xml:"tests,attr"`
	Failures int     `xml:"failures,attr"`
	Errors   int     `xml:"errors,attr"`
	Suites   []Suite `xml:"testsuite"`
}

// Suite is one testsuite read back.
type Suite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Cases    []Case `xml:"testcase"`
}

// Case is one testcase read back: how it came out and the text.
type Case struct {
	Name    string   `xml:"name,attr"`
	Class   string   `xml:"classname,attr"`
	Failure *Outcome `xml:"failure"`
	Error   *Outcome `xml:"error"`
	Skipped *Outcome `xml:"skipped"`
	Out     string   `xml:"system-out"`
}

// Outcome is a failure, error or skip read back.
type Outcome struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// Validate fails t unless data is valid against junit.xsd and its counts
// agree with its cases; it returns the report read back.
func Validate(t testing.TB, data []byte) Suites {
	t.Helper()
	if err := Schema(t, data); err != nil {
		t.Fatalf("JUnit report not valid: %v\n%s", err, data)
	}
	var s Suites
	if err := xml.Unmarshal(data, &s); err != nil {
		t.Fatalf("JUnit report: %v", err)
	}
	var tests, failures, errors int
	for _, su := range s.Suites {
		var f, e, sk int
		for _, c := range su.Cases {
			n := 0
			if c.Failure != nil {
				f, n = f+1, n+1
			}
			if c.Error != nil {
				e, n = e+1, n+1
			}
			if c.Skipped != nil {
				sk, n = sk+1, n+1
			}
			if n > 1 {
				t.Errorf("testcase %s: more than one of failure, error, skipped", c.Name)
			}
		}
		if su.Tests != len(su.Cases) || su.Failures != f || su.Errors != e || su.Skipped != sk {
			t.Errorf("testsuite %s says tests=%d failures=%d errors=%d skipped=%d; its cases: %d, %d, %d, %d",
				su.Name, su.Tests, su.Failures, su.Errors, su.Skipped, len(su.Cases), f, e, sk)
		}
		tests, failures, errors = tests+su.Tests, failures+su.Failures, errors+su.Errors
	}
	if s.Tests != tests || s.Failures != failures || s.Errors != errors {
		t.Errorf("testsuites says tests=%d failures=%d errors=%d; its suites: %d, %d, %d", s.Tests, s.Failures, s.Errors, tests, failures, errors)
	}
	return s
}

// Schema checks data against junit.xsd with xmllint, and returns what
// xmllint says when it is not valid. Without xmllint it skips t, or fails
// it under CI.
func Schema(t testing.TB, data []byte) error {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is not installed (apt-get install libxml2-utils; .ci/run does)")
		}
		t.Skip("xmllint is not installed (apt-get install libxml2-utils)")
	}
	dir := t.TempDir()
	xsd, doc := filepath.Join(dir, "junit.xsd"), filepath.Join(dir, "report.xml")
	if err := atomicfile.Write(xsd, schema); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(doc, data); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", xsd, doc).CombinedOutput()
	if err != nil {
		return &invalid{strings.TrimSpace(string(out))}
	}
	return nil
}

type invalid struct{ msg string }

func (e *invalid) Error() string { return e.msg }
