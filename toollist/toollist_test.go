package toollist

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/readmeter/readmeter/jsonjs"
)

// figuresMembers returns the members AppendFiguresJSON writes, parsed.
func figuresMembers(f *Figures) []jsonjs.Member {
	v, err := jsonjs.Parse(append(AppendFiguresJSON([]byte{'{'}, f), '}'))
	if err != nil {
		panic("toollist: AppendFiguresJSON: " + err.Error())
	}
	return v.Members()
}

func mustParse(t *testing.T, data string) *Capture {
	t.Helper()
	c, err := parseCapture("x", []byte(data))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func mustMeasure(t *testing.T, c *Capture) *Figures {
	t.Helper()
	f, err := measure(c, nil)
	if err != nil {
		t.Fatalf("Measure: %v", err)
	}
	return f
}

func TestForms(t *testing.T) {
	const tools = `[{"name":"a","description":"x"}]`
	const rpc = `{"jsonrpc":"2.0","id":1,"result":{"tools":` + tools + `}}`
	for _, tc := range []struct {
		name, data string
		form       Form
		wire       int64
	}{
		{"rpc", rpc, JSONRPC, int64(len(rpc))},
		{"rpc with final newline", rpc + "\n", JSONRPC, int64(len(rpc))},
		{"rpc with two final newlines", rpc + "\n\n", JSONRPC, int64(len(rpc) + 1)},
		{"rpc with CRLF", rpc + "\r\n", JSONRPC, int64(len(rpc) + 1)},
		{"bare result", `{"tools":` + tools + `}`, Result, int64(len(`{"tools":` + tools + `}`))},
		{"event stream", "event: message\ndata: " + rpc + "\n\n", EventStream, int64(len("event: message\ndata: " + rpc + "\n\n"))},
		{"priming event first", "id: 0\ndata:\n\nid: 1\ndata: " + rpc + "\n\n", EventStream, int64(len("id: 0\ndata:\n\nid: 1\ndata: " + rpc + "\n\n"))},
		{"no blank line at the end", "data: " + rpc, EventStream, int64(len("data: " + rpc))},
		{"multi-line data", "data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1,\"result\":{\"tools\":" + tools + "}}\n\n", EventStream, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, tc.data)
			if c.Form != tc.form {
				t.Errorf("form %v, want %v", c.Form, tc.form)
			}
			if tc.wire != 0 && c.WireBytes != tc.wire {
				t.Errorf("wire bytes %d, want %d", c.WireBytes, tc.wire)
			}
			f := mustMeasure(t, c)
			if f.Tools != 1 || f.ModelReadBytes != int64(len(`{"name":"a","description":"x"}`)) {
				t.Errorf("tools %d, model-read bytes %d", f.Tools, f.ModelReadBytes)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"empty", "", "x: empty file: a capture holds a tools/list answer"},
		{"blank", " \n", "x: holds only white space: a capture holds a tools/list answer"},
		{"malformed", "{\n \"tools\": [}", "x: line 2, column 12: unexpected character '}'"},
		{"not an object", `"tools"`, "x: the answer is a string, not a JSON object: a capture holds a tools/list answer"},
		{"no tools", `{"result":{}}`, "x: result has no tools array: a capture holds a tools/list answer"},
		{"bare without tools", `{"tool":[]}`, "x: the answer has no tools array: a capture holds a tools/list answer"},
		{"rpc without result", `{"jsonrpc":"2.0","id":1,"tools":[]}`, "x: a JSON-RPC message with no result: a capture holds a tools/list answer"},
		{"tools null", `{"tools":null}`, "x: tools is null, not an array"},
		{"tool an array", `{"result":{"tools":[{},[]]}}`, "x: result.tools[1] is an array, not an object"},
		{"error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad"}}`, "x: a JSON-RPC error response, not a tools/list answer: code -32600: bad"},
		{"stream without response", "data: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n", "x: the event stream holds no JSON-RPC response"},
		{"stream with bad data", "data: {\"a\":1}\n\ndata: {\n\n", "x: line 3, column 8: event 2's data: unexpected end of JSON input"},
		{"stream with bad later data", "data: {\"result\":{\"tools\":[]}}\n\ndata: nope\n\n", "x: line 3, column 8: event 2's data: unexpected character 'o'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseCapture("x", []byte(tc.data))
			var ie *Error
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if err.Error() != tc.want {
				t.Errorf("err = %q\n want %q", err, tc.want)
			}
		})
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := readCapture(dir); err == nil || !strings.HasSuffix(err.Error(), ": is a directory, not a capture file") {
		t.Errorf("directory: %v", err)
	}
	if _, err := readCapture(filepath.Join(dir, "none.json")); err == nil || !strings.HasSuffix(err.Error(), ": no such file") {
		t.Errorf("missing: %v", err)
	}
}

func TestFigures(t *testing.T) {
	c := mustParse(t, `{"tools":[
		{"name":"a","description":"héllo 😀","inputSchema":{"type":"object","description":"top","properties":{
			"description":{"type":"string","description":"a field named description"},
			"n":{"type":"array","items":{"description":"item"}}}}},
		{"name":"b","description":"12345678","inputSchema":{"properties":{}}},
		{"name":"c","description":7}
	]}`)
	f := mustMeasure(t, c)
	// "héllo 😀" is 8 UTF-16 units (the emoji counts 2), 11 bytes; "12345678"
	// ties at 8 and the first tool wins.
	if f.Longest.Tool != "a" || f.Longest.Chars != 8 {
		t.Errorf("longest = %+v", f.Longest)
	}
	if f.DescriptionBytes != 11+8 {
		t.Errorf("description bytes %d", f.DescriptionBytes)
	}
	if want := int64(len("top") + len("a field named description") + len("item")); f.FieldDescriptionBytes != want {
		t.Errorf("field description bytes %d, want %d", f.FieldDescriptionBytes, want)
	}
	if len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "tools[2]: description is a number, not a string") {
		t.Errorf("warnings %q", f.Warnings)
	}
	if got := f.PerTool[2].ModelReadBytes; got != int64(len(`{"name":"c","description":7}`)) {
		t.Errorf("c reads %d bytes", got)
	}
	var sum int64
	for _, tf := range f.PerTool {
		sum += tf.ModelReadBytes
		if tf.ModelReadTokens != tf.ModelReadBytes/3 {
			t.Errorf("%s: tokens %d of %d bytes", tf.Name, tf.ModelReadTokens, tf.ModelReadBytes)
		}
	}
	if sum != f.ModelReadBytes || f.ModelReadTokens != sum/3 {
		t.Errorf("total %d bytes %d tokens, per tool sum %d", f.ModelReadBytes, f.ModelReadTokens, sum)
	}
}

func TestNoDescriptions(t *testing.T) {
	f := mustMeasure(t, mustParse(t, `{"tools":[{"name":"a"}]}`))
	if f.Longest.Index != -1 || f.Longest.Tool != "" || f.Longest.Chars != 0 {
		t.Errorf("longest = %+v", f.Longest)
	}
	got := string(jsonjs.Stringify(jsonjs.ObjectValue(figuresMembers(f))))
	if !strings.Contains(got, `"longest_description":{"tool":"","chars":0}`) {
		t.Errorf("report %s", got)
	}
}

func TestInitPath(t *testing.T) {
	for in, want := range map[string]string{
		"captures/twin/tools-mcp.json": "captures/twin/tools-mcp.init.json",
		"tools.sse":                    "tools.init.sse",
		"dir.v2/tools":                 "dir.v2/tools.init",
		"a.b.json":                     "a.b.init.json",
	} {
		if got := InitPath(in); got != want {
			t.Errorf("InitPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadInit(t *testing.T) {
	in, err := ParseInit("i", []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"instructions\":\"a😀\"}}\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !in.HasInstructions || in.Chars != 3 || in.Bytes != 5 {
		t.Errorf("init %+v", in)
	}
	if _, err := ParseInit("i", []byte(`{"result":{"instructions":5}}`)); err == nil || err.Error() != "i: instructions is a number, not a string" {
		t.Errorf("err %v", err)
	}
	if OverInstructions(in, 3) != nil || len(OverInstructions(in, 2)) != 1 {
		t.Error("instructions ceiling")
	}
}

func TestToolsets(t *testing.T) {
	f := mustMeasure(t, mustParse(t, `{"tools":[{"name":"a"},{"name":"b"},{"name":"c"}]}`))
	sets, err := ParseToolsets("s", []byte(`{"one":["c","a"],"none":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := MeasureToolsets(f, "x", sets)
	if err != nil {
		t.Fatal(err)
	}
	want := []ToolsetFigures{
		{Name: "one", Tools: []string{"a", "c"}, ModelReadBytes: 24, ModelReadTokens: 8},
		{Name: "none", Tools: []string{}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("toolsets (-want +got):\n%s", d)
	}
	sets, _ = ParseToolsets("s", []byte(`{"two":["a","z"]}`))
	if _, err := MeasureToolsets(f, "x", sets); err == nil || err.Error() != `x: toolset "two" names z, which the capture lacks` {
		t.Errorf("err %v", err)
	}
	for data, want := range map[string]string{
		`[]`:              "s: is an array: a toolsets file is a JSON object from set name to an array of tool names",
		`{"a":"b"}`:       `s: "a" is a string, not an array of tool names`,
		`{"a":["b","b"]}`: `s: "a" names b twice`,
		``:                "s: empty file: want a JSON object from set name to an array of tool names",
	} {
		if _, err := ParseToolsets("s", []byte(data)); err == nil || err.Error() != want {
			t.Errorf("%s: err %v, want %s", data, err, want)
		}
	}
}

func TestLean(t *testing.T) {
	c := mustParse(t, `{"tools":[{"name":"a","inputSchema":{"$schema":"s","type":"object","properties":{
		"n":{"type":"integer","maximum":9007199254740991},
		"m":{"type":"integer","maximum":9.007199254740991e15},
		"k":{"type":"integer","maximum":9007199254740992},
		"j":{"type":"string","maximum":"9007199254740991"},
		"l":{"anyOf":[{"$schema":"t","maximum":9007199254740991}]}}},
		"outputSchema":{"$schema":"s","type":"object"}},
		{"name":"b","inputSchema":{"type":"object"}}]}`)
	savings, tools, err := whatIfTools(t, c, Lean())
	if err != nil {
		t.Fatal(err)
	}
	got := string(tools[0])
	want := `{"name":"a","inputSchema":{"type":"object","properties":{"n":{"type":"integer"},"m":{"type":"integer"},` +
		`"k":{"type":"integer","maximum":9007199254740992},"j":{"type":"string","maximum":"9007199254740991"},` +
		`"l":{"anyOf":[{}]}}},"outputSchema":{"type":"object"}}`
	if got != want {
		t.Errorf("lean tool\n got %s\nwant %s", got, want)
	}
	s := savings[0]
	if s.Changes != 6 || len(s.Tools) != 1 || s.Tools[0] != "a" {
		t.Errorf("saving %+v", s)
	}
	before, _ := jsonjs.Parse(c.Tools[0])
	if s.WireSavingBytes != int64(jsonjs.StringifyLen(before)-len(want)) {
		t.Errorf("wire saving %d", s.WireSavingBytes)
	}
	if s.ModelReadSavingBytes != ModelReadBytes(before)-ModelReadBytes(mustValue(t, tools[0])) || s.ModelReadSavingBytes >= s.WireSavingBytes {
		t.Errorf("model-read saving %d (wire %d)", s.ModelReadSavingBytes, s.WireSavingBytes)
	}
	// The second tool is untouched.
	if string(tools[1]) != `{"name":"b","inputSchema":{"type":"object"}}` {
		t.Errorf("b changed: %s", tools[1])
	}
}

func TestDropEmptyOutputSchemas(t *testing.T) {
	c := mustParse(t, `{"tools":[
		{"name":"none","outputSchema":{"type":"object"}},
		{"name":"empty","outputSchema":{"type":"object","properties":{}},"x":1},
		{"name":"full","outputSchema":{"type":"object","properties":{"a":{}}}},
		{"name":"absent"}]}`)
	savings, tools, err := whatIfTools(t, c, DropEmptyOutputSchemas())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"none", "empty"}, savings[0].Tools); d != "" {
		t.Errorf("dropped (-want +got):\n%s", d)
	}
	if got := string(tools[1]); got != `{"name":"empty","x":1}` {
		t.Errorf("empty: %s", got)
	}
	if savings[0].ModelReadSavingBytes != 0 || savings[0].WireSavingBytes != int64(len(`,"outputSchema":{"type":"object"}`)+len(`,"outputSchema":{"type":"object","properties":{}}`)) {
		t.Errorf("saving %+v", savings[0])
	}
}

func TestWords(t *testing.T) {
	c := mustParse(t, `{"tools":[{"name":"a","description":"old","inputSchema":{"properties":{"x/y":{"description":"d"},"l":{"items":[{"description":"e"}]}}}},{"name":"b"}]}`)
	w, err := ParseWords("w", []byte(`{"a":"new","a:/properties/x~1y/description":"D","a:/properties/l/items/0/description":"E","b":"B"}`))
	if err != nil {
		t.Fatal(err)
	}
	savings, tools, err := whatIfTools(t, c, w.Transform())
	if err != nil {
		t.Fatal(err)
	}
	if got := string(tools[0]); got != `{"name":"a","description":"new","inputSchema":{"properties":{"x/y":{"description":"D"},"l":{"items":[{"description":"E"}]}}}}` {
		t.Errorf("a: %s", got)
	}
	if got := string(tools[1]); got != `{"name":"b","description":"B"}` {
		t.Errorf("b: %s", got)
	}
	if s := savings[0]; s.Changes != 4 || s.ModelReadSavingBytes != int64(len("old")-len("new")-len(`,"description":"B"`)) || s.WireSavingBytes != s.ModelReadSavingBytes {
		t.Errorf("saving %+v", s)
	}
	for words, want := range map[string]string{
		`{"z":"x","y":"x"}`:                   `w: "y", "z" name no tool of the capture`,
		`{"a:/properties/q":"x"}`:             `w: "a:/properties/q": tool a's inputSchema has no /properties/q`,
		`{"a:/properties/l/items/1/d":"x"}`:   `w: "a:/properties/l/items/1/d": tool a's inputSchema has no /properties/l/items/1`,
		`{"a:/properties/l/items/01":"x"}`:    `w: "a:/properties/l/items/01": tool a's inputSchema has no /properties/l/items/01`,
		`{"b:/properties/x/description":"x"}`: `w: "b:/properties/x/description": tool b has no inputSchema`,
	} {
		w, err := ParseWords("w", []byte(words))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := whatIf(c, nil, []Transform{w.Transform()}, nil); err == nil || err.Error() != want {
			t.Errorf("%s: err %v\n want %s", words, err, want)
		}
	}
	for data, want := range map[string]string{
		`{"a":1}`:    `w: "a" is a number, not the new text`,
		`{":/x":""}`: `w: ":/x" names no tool`,
		`[]`:         `w: is an array: a words file is a JSON object from "TOOL" or "TOOL:/json/pointer" to the new text`,
	} {
		if _, err := ParseWords("w", []byte(data)); err == nil || err.Error() != want {
			t.Errorf("%s: err %v, want %s", data, err, want)
		}
	}
}

// TestEncode writes the transformed answer back in each form.
func TestEncode(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"rpc", "{ \"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"$schema\": \"s\"}}], \"nextCursor\": null}}\n",
			`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":null}}` + "\n"},
		{"bare", `{"tools":[{"name":"a","inputSchema":{"$schema":"s"}}],"x":"\u00e9"}`,
			`{"tools":[{"name":"a","inputSchema":{}}],"x":"é"}`},
		{"stream", "id: 0\r\ndata:\r\n\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\r\nid: 1\r\ndata: \"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":{\"$schema\":\"s\"}}]}}\r\n\r\n",
			"id: 0\r\ndata:\r\n\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":{}}]}}\r\nid: 1\r\n\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, tc.in)
			var buf bytes.Buffer
			if _, err := whatIf(c, nil, []Transform{Lean()}, &buf); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			if string(got) != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			again := mustParse(t, string(got))
			if again.Form != c.Form {
				t.Errorf("form %v, was %v", again.Form, c.Form)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	old := mustMeasure(t, mustParse(t, `{"tools":[{"name":"a"},{"name":"b"},{"name":"a"}]}`))
	nw := mustMeasure(t, mustParse(t, `{"tools":[{"name":"c"},{"name":"a","description":"x"}]}`))
	c := Compare(old, nw)
	want := []ToolRow{
		{Name: "c", New: 12, Added: true},
		{Name: "a", Old: 12, New: 30},
		{Name: "b", Old: 12, Removed: true},
		{Name: "a", Old: 12, Removed: true},
	}
	if d := cmp.Diff(want, c.Tools, cmpopts.IgnoreFields(ToolRow{}, "OldFig", "NewFig")); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
	if c.Tools[1].OldFig.Name != "a" || c.Tools[1].NewFig.ModelReadBytes != 30 || c.Tools[0].OldFig.Name != "" {
		t.Errorf("figures of the rows: %+v", c.Tools[:2])
	}
	if d := cmp.Diff([]string{"c"}, c.Added); d != "" {
		t.Error(d)
	}
	if d := cmp.Diff([]string{"b", "a"}, c.Removed); d != "" {
		t.Error(d)
	}
	if c.Total != (Row{"model_read_bytes", 36, 42}) {
		t.Errorf("total %+v", c.Total)
	}
}

func TestFixturesExist(t *testing.T) {
	for _, f := range []string{"testdata/demo.json", "testdata/demo.init.json", "testdata/demo.sse"} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
}

// TestReadMapped reads a capture mapped into memory, as Read does for large
// files, and checks it measures the same as one read whole.
func TestReadMapped(t *testing.T) {
	read, err := readCapture("testdata/demo.json")
	if err != nil {
		t.Fatal(err)
	}
	want := mustMeasure(t, read)
	old := mapAbove
	mapAbove = 0
	defer func() { mapAbove = old }()
	c, err := readCapture("testdata/demo.json")
	if err != nil {
		t.Fatal(err)
	}
	if c.unmap == nil {
		t.Skip("files are not mapped on this system")
	}
	got := mustMeasure(t, c)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("mapped capture measures differently (-read +mapped):\n%s", d)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := readCapture("testdata/adversarial/trailing-comma.json"); err == nil {
		t.Error("a mapped broken capture is accepted")
	}
}

// whatIfTools runs the transforms on c and returns the savings and the
// tools of the capture written after them, each as its text.
func whatIfTools(t *testing.T, c *Capture, ts ...Transform) ([]Saving, [][]byte, error) {
	t.Helper()
	var buf bytes.Buffer
	s, err := whatIf(c, nil, ts, &buf)
	if err != nil {
		return nil, nil, err
	}
	after, err := parseCapture("after", buf.Bytes())
	if err != nil {
		t.Fatalf("the capture written after the what-ifs: %v\n%s", err, buf.Bytes())
	}
	return s, after.Tools, nil
}

func mustValue(t *testing.T, text []byte) jsonjs.Value {
	t.Helper()
	v, err := jsonjs.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMappedGivesBackPages reads a capture of several megabytes mapped,
// whose passes give back the pages they have read, and in the heap: the
// figures, the savings and the capture written after the what-ifs are the
// same, though every pass reads pages given back before.
func TestMappedGivesBackPages(t *testing.T) {
	data := genCapture(4000)
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	mapped, err := readCapture(path)
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.Close()
	if mapped.unmap == nil {
		t.Skip("files are not mapped on this system")
	}
	heap, err := parseCapture(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(mustMeasure(t, heap), mustMeasure(t, mapped)); d != "" {
		t.Errorf("mapped capture measures differently (-heap +mapped):\n%s", d)
	}
	ts := func() []Transform { return []Transform{Lean(), DropEmptyOutputSchemas()} }
	var hb, mb bytes.Buffer
	hs, err := whatIf(heap, nil, ts(), &hb)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := whatIf(mapped, nil, ts(), &mb)
	if err != nil {
		t.Fatal(err)
	}
	par, err := whatIf(mapped, nil, ts(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(hs, ms); d != "" {
		t.Errorf("savings differ (-heap +mapped):\n%s", d)
	}
	if d := cmp.Diff(hs, par); d != "" {
		t.Errorf("savings differ (-heap +mapped, parallel):\n%s", d)
	}
	if !bytes.Equal(hb.Bytes(), mb.Bytes()) {
		t.Error("the capture written after the what-ifs differs")
	}
}
