package junit_test

import (
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/internal/junit"
	"github.com/readmeter/readmeter/internal/junit/junittest"
)

func TestMarshalIsValidJUnit(t *testing.T) {
	r := junit.Report{Name: "walks"}
	s := r.Suite("walks")
	s.Add(junit.Case{Name: "FIRST_TASK_TOKENS.plugin", Class: "plugin"})
	s.Add(junit.Case{Name: "FIRST_TASK_TOKENS.http", Class: "http", Failure: &junit.Problem{Type: "over budget",
		Message: "walk http read 12 tokens, over its budget of 10 <&>\nsecond line", Text: "walk http read 12 tokens\n  the page: 36 bytes, 12 tokens \x1b]\"'"}})
	s.Add(junit.Case{Name: "walk connector", Class: "connector", Error: &junit.Problem{Type: "walk failed", Message: "status 500", Text: "status 500\n  request: GET /"}})
	s.Add(junit.Case{Name: "DOCUMENT_TOKENS.primer", Class: "primer", Skipped: &junit.Problem{Message: "no budget DOCUMENT_TOKENS.primer"}, Out: "a warning"})
	r.Suite("empty")
	data, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got := junittest.Validate(t, data)
	if got.Tests != 4 || got.Failures != 1 || got.Errors != 1 || len(got.Suites) != 2 || got.Suites[0].Skipped != 1 {
		t.Errorf("counts: %+v", got)
	}
	f := got.Suites[0].Cases[1].Failure
	if f == nil || f.Message != "walk http read 12 tokens, over its budget of 10 <&>" || !strings.HasPrefix(f.Text, "walk http read 12 tokens\n  the page: 36 bytes, 12 tokens ") {
		t.Errorf("failure read back: %+v", f)
	}
}

// TestSchemaRejects shows the schema check can fail: a testsuite without
// its counts is not a JUnit report the consumers read.
func TestSchemaRejects(t *testing.T) {
	bad := []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<testsuites><testsuite name="x"><testcase name="a"/></testsuite></testsuites>` + "\n")
	if err := junittest.Schema(t, bad); err == nil {
		t.Error("a testsuite without tests, failures and errors passed the schema")
	}
}

// TestHostileText holds a report of names and texts a server or a file
// controls to valid XML with one test case each, every character XML 1.0
// forbids or a viewer would act on shown as an escape, and each text read
// back as the terminal shows it.
func TestHostileText(t *testing.T) {
	hostile := []string{
		"\x1b[2J\x1b[Hwipe",
		"ok\rFAILED",
		"x\n::error file=x::forged",
		`</testcase><testcase name="forged">`,
		"</failure>]]><![CDATA[x",
		"<img src=x onerror=alert(1)>",
		"| a | b |",
		"safe\u202egnp.exe",
		"bad\xff\xfeutf8",
		"nul\x00byte",
		"tab\tand cr\r in an attribute",
		"non\ufffe\uffffchar",
		"&amp; &#0; &#x1b;",
	}
	r := junit.Report{Name: "walks"}
	s := r.Suite("walks")
	for _, h := range hostile {
		s.Add(junit.Case{Name: h, Class: h, Failure: &junit.Problem{Type: h, Message: h + "\nsecond line", Text: h + "\n  " + h}, Out: h})
	}
	data, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\x1b", "\r", "\x00", "\ufffe", "\uffff", "\u202e", "\t", "<img", "</testcase><testcase"} {
		if strings.Contains(string(data), bad) {
			t.Errorf("the report holds %q raw:\n%s", bad, data)
		}
	}
	got := junittest.Validate(t, data)
	if len(got.Suites) != 1 || len(got.Suites[0].Cases) != len(hostile) {
		t.Fatalf("read back %+v, want one suite of %d cases", got, len(hostile))
	}
	for i, h := range hostile {
		c := got.Suites[0].Cases[i]
		term, first := escape.Term(h), escape.Term(strings.SplitN(h, "\n", 2)[0])
		if c.Name != term || c.Class != term || c.Failure == nil || c.Failure.Type != term || c.Failure.Message != first ||
			c.Failure.Text != escape.Lines(h+"\n  "+h) || c.Out != escape.Lines(h) {
			t.Errorf("case %d (%q) read back as %+v %+v", i, h, c, c.Failure)
		}
	}
}
