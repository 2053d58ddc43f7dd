package nodeoracle_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/readmeter/readmeter/internal/nodeoracle"
)

func TestEval(t *testing.T) {
	tests := []struct {
		in      string
		status  nodeoracle.Status
		out     string // Stringified, or a substring of Err
		decoded string
		strs    []nodeoracle.StrLen
	}{
		{in: `{"b":1,"a":2,"10":3,"1":4,"b":5}`, out: `{"1":4,"10":3,"b":5,"a":2}`,
			strs: []nodeoracle.StrLen{{1, 1}, {2, 2}, {1, 1}, {1, 1}}},
		{in: `["\u00e9\/<>&\u2028", 1.0, 1e21, -0, 1e309]`, out: "[\"é/<>&\u2028\",1,1e+21,0,null]",
			strs: []nodeoracle.StrLen{{6, 9}}},
		{in: `"\ud800\ud83d\ude00"`, out: `"\ud800😀"`, strs: []nodeoracle.StrLen{{3, 7}}},
		{in: "\"a\xffb\xe2\x82\"", out: "\"a\uFFFDb\uFFFD\"", decoded: "\"a\uFFFDb\uFFFD\"",
			strs: []nodeoracle.StrLen{{4, 8}}},
		{in: "\ufeff{}", status: nodeoracle.ParseThrew, out: "is not valid JSON"},
		{in: `{"a":1,}`, status: nodeoracle.ParseThrew, out: "JSON"},
		{in: "", status: nodeoracle.ParseThrew, out: "Unexpected end of JSON input"},
		{in: strings.Repeat("[", 20000) + strings.Repeat("]", 20000), status: nodeoracle.StringifyThrew, out: "call stack"},
	}
	var ins [][]byte
	for _, tc := range tests {
		ins = append(ins, []byte(tc.in))
	}
	got := nodeoracle.Eval(t, ins...)
	if len(got) != len(tests) {
		t.Fatalf("Eval returned %d results for %d inputs", len(got), len(tests))
	}
	for i, tc := range tests {
		r := got[i]
		name := fmt.Sprintf("%d:%.30q", i, tc.in)
		if r.Status != tc.status {
			t.Errorf("%s: status %v, want %v (err %q)", name, r.Status, tc.status, r.Err)
			continue
		}
		want := tc.decoded
		if want == "" {
			want = tc.in
		}
		if string(r.Decoded) != want {
			t.Errorf("%s: decoded %q, want %q", name, r.Decoded, want)
		}
		if tc.status != nodeoracle.Parsed {
			if !strings.Contains(r.Err, tc.out) || r.Stringified != nil {
				t.Errorf("%s: err %q (stringified %q), want an error containing %q", name, r.Err, r.Stringified, tc.out)
			}
			continue
		}
		if string(r.Stringified) != tc.out {
			t.Errorf("%s: stringified %q, want %q", name, r.Stringified, tc.out)
		}
		if diff := cmp.Diff(tc.strs, r.Strings); diff != "" {
			t.Errorf("%s: strings (-want +got):\n%s", name, diff)
		}
	}
}

func TestEvalBatchesInOrder(t *testing.T) {
	var ins [][]byte
	for i := range 3000 {
		ins = append(ins, fmt.Appendf(nil, `{"n":%d,"s":"%s"}`, i, strings.Repeat("x", i%97)))
	}
	got := nodeoracle.Eval(t, ins...)
	for i, r := range got {
		if !bytes.Equal(r.Stringified, ins[i]) {
			t.Fatalf("result %d is %q, want %q", i, r.Stringified, ins[i])
		}
	}
}

func TestStringify(t *testing.T) {
	if got := string(nodeoracle.Stringify(t, []byte(` { "x" : [ 1E+2 , 0.000001, 1e-7 ] } `))); got != `{"x":[100,0.000001,1e-7]}` {
		t.Errorf("Stringify = %q", got)
	}
}

// The figures below were worked out by hand from testdata/tools-*.
func TestMeasure(t *testing.T) {
	tools := []nodeoracle.ToolReport{
		{Name: "alpha", ModelReadBytes: 329, ModelReadTokens: 109, DescriptionChars: 18},
		{Name: "beta", ModelReadBytes: 64, ModelReadTokens: 21, DescriptionChars: 0},
		{Name: "gamma", ModelReadBytes: 172, ModelReadTokens: 57, DescriptionChars: 14},
		{Name: "delta", ModelReadBytes: 85, ModelReadTokens: 28, DescriptionChars: 18},
	}
	for file, wire := range map[string]int64{
		"tools-rpc.json":        803, // 804 bytes less the final newline
		"tools-bare.json":       769, // no final newline
		"tools-stream.txt":      845, // every byte, priming event and framing included
		"tools-stream-crlf.txt": 953, // a notification before the answer
	} {
		t.Run(file, func(t *testing.T) {
			got := nodeoracle.MeasureReport(t, filepath.Join("testdata", file))
			want := nodeoracle.Report{
				WireBytes:             wire,
				Tools:                 4,
				ModelReadBytes:        650,
				ModelReadTokens:       216,
				DescriptionBytes:      56,
				FieldDescriptionBytes: 37,
				LongestDescription:    nodeoracle.Longest{Tool: "alpha", Chars: 18},
				PerTool:               tools,
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("measure.js (-want +got):\n%s", diff)
			}
		})
	}
}

// Wire bytes and the longest description of the other capture forms,
// worked out from the files' sizes and texts.
func TestMeasureForms(t *testing.T) {
	for _, tc := range []struct {
		file    string
		wire    int64
		tools   int64
		longest nodeoracle.Longest
	}{
		{"two-final-newlines.json", 60, 1, nodeoracle.Longest{Tool: "a", Chars: 1}},   // one newline dropped, not two
		{"crlf-final-newline.json", 60, 1, nodeoracle.Longest{Tool: "a", Chars: 1}},   // the \r stays
		{"no-final-newline-rpc.json", 93, 1, nodeoracle.Longest{Tool: "a", Chars: 1}}, // nothing to drop
		{"leading-whitespace.json", 63, 1, nodeoracle.Longest{Tool: "a", Chars: 1}},
		{"stream-multiline-data.txt", 143, 1, nodeoracle.Longest{Tool: "a", Chars: 21}}, // data lines joined
		{"stream-two-events.txt", 294, 1, nodeoracle.Longest{Tool: "a", Chars: 10}},     // the first response wins
		{"stream-no-final-blank.txt", 146, 1, nodeoracle.Longest{Tool: "a", Chars: 10}},
		{"tie-longest.json", 163, 4, nodeoracle.Longest{Tool: "x", Chars: 2}}, // x, y and w tie: the first
	} {
		got := nodeoracle.MeasureReport(t, filepath.Join("testdata", tc.file))
		if got.WireBytes != tc.wire || got.Tools != tc.tools || got.LongestDescription != tc.longest {
			t.Errorf("%s: wire %d, tools %d, longest %+v; want %d, %d, %+v",
				tc.file, got.WireBytes, got.Tools, got.LongestDescription, tc.wire, tc.tools, tc.longest)
		}
	}
}

func TestMeasureJSON(t *testing.T) {
	m := nodeoracle.MeasureJSON(t, filepath.Join("testdata", "tools-rpc.json"))
	if got := fmt.Sprint(m["model_read_bytes"]); got != "650" {
		t.Errorf("model_read_bytes = %s, want 650", got)
	}
	if got := fmt.Sprint(m["longest_description"]); got != "map[chars:18 tool:alpha]" {
		t.Errorf("longest_description = %s", got)
	}
}

func TestMeasureRefuses(t *testing.T) {
	for file, msg := range map[string]string{
		"no-tools.json":           "no tools array",
		"tool-not-object.json":    "tools[1] is not an object",
		"empty.json":              "empty file",
		"broken.json":             "not JSON",
		"bom.json":                "not JSON",
		"rpc-error.json":          "a JSON-RPC error",
		"stream-error.txt":        "a JSON-RPC error",
		"stream-only-priming.txt": "event stream with no data",
		"tools-not-array.json":    "no tools array",
		"top-array.json":          "not a JSON object",
		"result-null.json":        "no tools array",
		"whitespace-only.json":    "not JSON",
		".":                       "is a directory",
		"missing.json":            "no such file",
	} {
		t.Run(file, func(t *testing.T) {
			path := filepath.Join("testdata", file)
			out, stderr, code := nodeoracle.TryMeasure(t, path)
			if code != 2 || len(out) != 0 {
				t.Errorf("exit %d, stdout %q; want exit 2 and nothing", code, out)
			}
			if want := "measure.js: " + path + ": "; !strings.HasPrefix(stderr, want) || !strings.Contains(stderr, msg) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting %q containing %q", stderr, want, msg)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	if d := nodeoracle.Diff([]byte("abc"), []byte("abc")); d != "" {
		t.Errorf("Diff of equal inputs = %q", d)
	}
	for _, tc := range []struct{ got, want, has string }{
		{"abcX", "abcY", "at byte 3 (got 4 bytes, Node 4)"},
		{"abc", "abcd", "at byte 3 (got 3 bytes, Node 4)"},
		{strings.Repeat("x", 100) + "1", strings.Repeat("x", 100) + "2", `"` + strings.Repeat("x", 40) + `1"`},
	} {
		if d := nodeoracle.Diff([]byte(tc.got), []byte(tc.want)); !strings.Contains(d, tc.has) {
			t.Errorf("Diff(%q, %q) = %q, want it to contain %q", tc.got, tc.want, d, tc.has)
		}
	}
}
