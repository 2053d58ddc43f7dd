package junit_test

import (
	"strings"
	"testing"

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
