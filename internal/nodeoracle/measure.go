package nodeoracle

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

//go:embed measure.js
var measureJS string

// MeasureScript returns the source of measure.js, the Node reference for
// the figures of `measure --json`.
func MeasureScript() string { return measureJS }

// TryMeasure runs measure.js on the captures and returns its standard
// output, its standard error and its exit code (0, or 2 when it refuses a
// capture). It fails the test only when Node cannot be run.
func TryMeasure(t testing.TB, captures ...string) (stdout []byte, stderr string, code int) {
	t.Helper()
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{"-"}, captures...)...)
	cmd.Stdin = strings.NewReader(measureJS)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), errb.String(), 0
	case errors.As(err, &ee):
		return out.Bytes(), errb.String(), ee.ExitCode()
	}
	t.Fatalf("nodeoracle: running measure.js: %v", err)
	return nil, "", 0
}

// Measure returns what measure.js prints for one capture: a JSON object
// with wire_bytes, tools, model_read_bytes, model_read_tokens,
// description_bytes, field_description_bytes, longest_description
// {tool, chars} and per_tool [{name, model_read_bytes, model_read_tokens,
// description_chars}]. It fails the test when Node refuses the capture.
func Measure(t testing.TB, capturePath string) []byte {
	t.Helper()
	out, stderr, code := TryMeasure(t, capturePath)
	if code != 0 {
		t.Fatalf("nodeoracle: measure.js %s: exit %d: %s", capturePath, code, strings.TrimSpace(stderr))
	}
	return out
}

// MeasureJSON returns Measure's output decoded: numbers are json.Number,
// so integers stay exact and compare as their decimal text.
func MeasureJSON(t testing.TB, capturePath string) map[string]any {
	t.Helper()
	out := Measure(t, capturePath)
	m, err := decodeReport(out)
	if err != nil {
		t.Fatalf("nodeoracle: measure.js %s: %v", capturePath, err)
	}
	return m
}

// Report is the typed form of measure.js's output for one capture.
type Report struct {
	WireBytes             int64        `json:"wire_bytes"`
	Tools                 int64        `json:"tools"`
	ModelReadBytes        int64        `json:"model_read_bytes"`
	ModelReadTokens       int64        `json:"model_read_tokens"`
	DescriptionBytes      int64        `json:"description_bytes"`
	FieldDescriptionBytes int64        `json:"field_description_bytes"`
	LongestDescription    Longest      `json:"longest_description"`
	PerTool               []ToolReport `json:"per_tool"`
}

// Longest is the tool with the longest description and its length in
// UTF-16 code units; the first such tool on ties, "" and 0 when no tool has
// a description.
type Longest struct {
	Tool  string `json:"tool"`
	Chars int64  `json:"chars"`
}

// ToolReport is one tool's figures, in the capture's order.
type ToolReport struct {
	Name             string `json:"name"`
	ModelReadBytes   int64  `json:"model_read_bytes"`
	ModelReadTokens  int64  `json:"model_read_tokens"`
	DescriptionChars int64  `json:"description_chars"`
}

// MeasureReport returns Measure's output as a Report.
func MeasureReport(t testing.TB, capturePath string) Report {
	t.Helper()
	var r Report
	dec := json.NewDecoder(bytes.NewReader(Measure(t, capturePath)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("nodeoracle: measure.js %s: %v", capturePath, err)
	}
	return r
}

func decodeReport(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("output is not one JSON object: %v", err)
	}
	return m, nil
}
