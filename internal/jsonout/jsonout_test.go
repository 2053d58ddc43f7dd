package jsonout_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/nodeoracle"
)

type doc struct {
	Name  string         `json:"name"`
	Bytes int64          `json:"bytes"`
	Parts []string       `json:"parts"`
	None  []int          `json:"none"`
	Empty map[string]int `json:"empty"`
	Inner *doc           `json:"inner,omitempty"`
}

var hostile = []string{
	"plain", "</testcase><img src=x onerror=alert(1)> & more",
	"line\u2028sep\u2029par", `\u2028 as text`, `back\slash "quoted"`,
	"\x00\x01\b\f\n\r\t\x1b\x7f", "caf\u00e9 \u202eexe \U0001F600",
}

// TestMarshalAsStringify holds Marshal's text to Node's: what
// JSON.stringify writes of it parsed is the same text, byte for byte.
func TestMarshalAsStringify(t *testing.T) {
	for _, s := range hostile {
		v := doc{Name: s, Bytes: 1<<53 - 1, Parts: []string{s, ""}, None: []int{}, Empty: map[string]int{}, Inner: &doc{Name: s}}
		got, err := jsonout.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if want := nodeoracle.Stringify(t, got); !bytes.Equal(got, want) {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want)
		}
	}
}

// TestIndent holds Indent to encoding/json's Indent with two spaces,
// which writes what JSON.stringify(value, null, 2) writes, for text with
// every kind of value, empty containers and strings with brackets,
// commas and colons in them.
func TestIndent(t *testing.T) {
	texts := []string{
		`{}`, `[]`, `"a,b:{c}[d]"`, `12`, `null`,
		`{"a":[],"b":{},"c":[1,2,{"d":null,"e":true,"f":"x\"y,z"}],"g":-1.5e+21}`,
		`[[[[]]],{"":{"":[0]}}]`,
	}
	for _, s := range hostile {
		text, _ := jsonout.Marshal(doc{Name: s, Parts: []string{s}, Inner: &doc{}})
		texts = append(texts, string(text))
	}
	for _, text := range texts {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(text), "", "  "); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := jsonout.Indent(nil, []byte(text), nil); string(got) != want.String() {
			t.Errorf("%s:\n got %s\nwant %s", text, got, want.String())
		}
	}
}

// TestWriterPieces writes one long array handed over in pieces, as
// measure writes a report of many tools, and checks it is the text
// indented at once, written in more than one write.
func TestWriterPieces(t *testing.T) {
	var whole strings.Builder
	whole.WriteString(`{"tools":[`)
	for i := range 20000 {
		if i > 0 {
			whole.WriteString(",")
		}
		whole.WriteString(`{"name":"tool","bytes":123}`)
	}
	whole.WriteString(`]}`)
	text := []byte(whole.String())
	var out countingWriter
	w := jsonout.NewWriter(&out)
	for i := 0; i < len(text); {
		j := min(i+1000, len(text))
		for j < len(text) && text[j-1] != ',' { // a piece ends just after a comma
			j++
		}
		w.Put(append([]byte(nil), text[i:j]...))
		i = j
	}
	if err := w.End(); err != nil {
		t.Fatal(err)
	}
	want := append(jsonout.Indent(nil, text, nil), '\n')
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("pieces differ from the text indented at once")
	}
	if out.writes < 2 {
		t.Errorf("%d writes of %d bytes: want pieces of about 64 KiB", out.writes, out.Len())
	}
}

type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// TestTypesAsStringify holds String, Strings, Number and Object to
// Node's JSON.stringify: a lone surrogate (held as WTF-8, as jsonjs holds
// it) written as its escape where encoding/json writes U+FFFD, -0 as 0,
// the members of an Object in their order.
func TestTypesAsStringify(t *testing.T) {
	lone := "lone\xed\xa0\x80 and \xed\xbf\xbf"
	cases := []struct {
		v     any
		want  string
		notJS bool // JavaScript would move an integer-like key first
	}{
		{jsonout.String(lone), `"lone\ud800 and \udfff"`, false},
		{jsonout.Strings{lone, "a\u2028b"}, `["lone\ud800 and \udfff","a` + "\u2028" + `b"]`, false},
		{jsonout.Strings(nil), `[]`, false},
		{jsonout.Number(math.Copysign(0, -1)), `0`, false},
		{jsonout.Number(2.5e-7), `2.5e-7`, false},
		{jsonout.Number(1e21), `1e+21`, false},
		{jsonout.Object{{"o200k", 3}, {"cl100k", 2}, {"1", jsonout.String(lone)}}, `{"o200k":3,"cl100k":2,"1":"lone\ud800 and \udfff"}`, true},
		{jsonout.Object(nil), `null`, false},
		{jsonout.Object{}, `{}`, false},
	}
	for _, c := range cases {
		got, err := jsonout.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%#v:\n got %s\nwant %s", c.v, got, c.want)
		}
		if want := nodeoracle.Stringify(t, got); !c.notJS && !bytes.Equal(got, want) {
			t.Errorf("%#v: Node writes %s", c.v, want)
		}
	}
}

// TestAppendMembers puts a struct's members into an object written in
// pieces: a comma before them unless they open it, nothing for an empty
// struct.
func TestAppendMembers(t *testing.T) {
	type b struct {
		B jsonout.String `json:"b"`
		C []int          `json:"c,omitempty"`
	}
	dst, err := jsonout.AppendMembers([]byte(`[{`), b{B: "x"})
	if err != nil {
		t.Fatal(err)
	}
	dst, _ = jsonout.AppendMembers(append(dst, `,"a":1`...), b{B: "y"})
	dst, _ = jsonout.AppendMembers(dst, struct{}{})
	if got := string(append(dst, "}]"...)); got != `[{"b":"x","a":1,"b":"y"}]` {
		t.Errorf("got %s", got)
	}
}
