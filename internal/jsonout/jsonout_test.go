package jsonout_test

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// TestMarshalValuesAsStringify holds Marshal of Go values to Node's
// JSON.stringify of the JavaScript values they stand for, each given as
// JSON text Node parses into it (1e400 is Infinity there; NaN, which no
// JSON text holds, is written as Infinity is): a lone surrogate held as
// WTF-8 as its escape, invalid UTF-8 as Node decodes it, -0 as 0, nil slices as [], nil maps as null,
// omitempty, embedded structs and map keys sorted.
func TestMarshalValuesAsStringify(t *testing.T) {
	type inner struct {
		A string  `json:"a"`
		B float64 `json:"b,omitempty"`
		C []int   `json:"c,omitempty"`
	}
	type Embedded struct {
		E    int `json:"e"`
		Over int `json:"over"`
	}
	type outer struct {
		Embedded
		Over   string `json:"over"`
		Skip   int    `json:"-"`
		hidden int
		Inner  inner             `json:"inner"`
		Ptr    *inner            `json:"ptr"`
		Nil    *inner            `json:"nil"`
		Omit   *inner            `json:"omit,omitempty"`
		List   []string          `json:"list"`
		Map    map[string]int    `json:"map"`
		NoMap  map[string]string `json:"no_map"`
		Any    any               `json:"any"`
		Obj    jsonout.Object    `json:"obj"`
		Raw    json.RawMessage   `json:"raw"`
		Untagd bool
	}
	lone := "lone\xed\xa0\x80 and \xed\xbf\xbf"
	cases := []struct {
		v  any
		js string
	}{
		{lone, `"lone\ud800 and \udfff"`},
		{"bad \xff\xc3( \xe2\x82 \xed\xa0x \xf0\x9f utf-8", "\"bad \xff\xc3( \xe2\x82 \xed\xa0x \xf0\x9f utf-8\""}, // Node reads the bytes
		{[]string{lone, "a\u2028b", "<&>"}, `["lone\ud800 and \udfff","a\u2028b","<&>"]`},
		{[]string(nil), `[]`},
		{map[string]int(nil), `null`},
		{math.Copysign(0, -1), `-0`},
		{2.5e-7, `2.5e-7`},
		{5e-7, `5e-7`},
		{1e21, `1e21`},
		{123456789012345680000.0, `123456789012345680000`},
		{float64(1) / 3, `0.3333333333333333`},
		{math.Inf(1), `1e400`},
		{math.NaN(), `1e400`},
		{map[string]any{"b": 1, "a": []any{nil, true}, "": math.Copysign(0, -1)}, `{"":0,"a":[null,true],"b":1}`},
		{map[string]string{"3": "x", "2": "y"}, `{"2":"y","3":"x"}`},
		{jsonout.Object(nil), `null`},
		{&jsonout.Object{}, `{}`},
		{inner{A: lone, B: math.Copysign(0, -1)}, `{"a":"lone\ud800 and \udfff"}`},
		{outer{
			Embedded: Embedded{E: 1, Over: 2}, Over: "outer", Skip: 3, hidden: 4,
			Inner: inner{B: 1.5, C: []int{}}, Ptr: &inner{C: []int{1}},
			Map: map[string]int{"z": 1, "y": 2}, Any: inner{A: "x"},
			Obj: jsonout.Object{{"o200k", 3}, {"cl100k", []string(nil)}}, Raw: json.RawMessage(` { "r" : [ 1 ] } `), Untagd: true,
		}, `{"e":1,"over":"outer","inner":{"a":"","b":1.5},"ptr":{"a":"","c":[1]},"nil":null,"list":[],"map":{"y":2,"z":1},"no_map":null,` +
			`"any":{"a":"x"},"obj":{"o200k":3,"cl100k":[]},"raw":{"r":[1]},"Untagd":true}`},
	}
	for _, c := range cases {
		got, err := jsonout.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if want := nodeoracle.Stringify(t, []byte(c.js)); !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %s\nwant %s", c.v, got, want)
		}
	}
	// Where JavaScript has no like of it, Marshal keeps encoding/json's
	// way: an integer exact past 2^53; a map with keys other than strings
	// is refused.
	for _, c := range []struct {
		v    any
		want string
	}{
		{int64(1<<53 + 1), `9007199254740993`},
		{uint64(math.MaxUint64), `18446744073709551615`},
		{[2]int{-1, 0}, `[-1,0]`},
		{"x", `"x"`},
		{struct{ M int }{}, `{"M":0}`},
		{&struct{ M *int }{}, `{"M":null}`},
		{inner{C: []int{}}, `{"a":""}`},
		{Embedded{Over: -1}, `{"e":0,"over":-1}`},
	} {
		if got, err := jsonout.Marshal(c.v); err != nil || string(got) != c.want {
			t.Errorf("%#v: got %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	if _, err := jsonout.Marshal(map[int]string{1: "x"}); err == nil {
		t.Errorf("map[int]string: no error")
	}
}

// TestMapKeysAsStringify holds the order of a map's keys to Node's
// JSON.stringify of the object that has the same members, inserted in
// the order each case lists them: the keys that are not array indexes in
// string order (a map has no insertion order; Marshal sorts them), the
// array indexes anywhere among them, out of order. Node puts the array
// indexes (0 to 2^32-2, canonical) first, ascending; Marshal must too.
func TestMapKeysAsStringify(t *testing.T) {
	for _, keys := range [][]string{
		{"10", "a", "9", "b"},
		{"", " 1", "4294967294", "+1", "-0", "-1", "0", "00", "01", "1.0", "7", "1e3", "2", "4294967295", "4294967296", "99999999999999999999", "1", "Infinity", "NaN", "a"},
		{"x", "y"},
		{"3", "20", "100"},
	} {
		m := map[string]any{}
		js := []byte("{")
		for i, k := range keys {
			m[k] = map[string]int{"10": i, "9": -i}
			if i > 0 {
				js = append(js, ',')
			}
			js = fmt.Appendf(js, `%q:{"10":%d,"9":%d}`, k, i, -i)
		}
		js = append(js, '}')
		got, err := jsonout.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if want := nodeoracle.Stringify(t, js); !bytes.Equal(got, want) {
			t.Errorf("%q:\n got %s\nwant %s", keys, got, want)
		}
	}
}

// TestAppendMembers puts a struct's members into an object written in
// pieces: a comma before them unless they open it, nothing for an empty
// struct.
func TestAppendMembers(t *testing.T) {
	type b struct {
		B string `json:"b"`
		C []int  `json:"c,omitempty"`
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

// BenchmarkMarshal marshals a report of a hundred rows, against
// encoding/json's Marshal of the same value.
func BenchmarkMarshal(b *testing.B) {
	type row struct {
		Name   string   `json:"name"`
		Bytes  int64    `json:"bytes"`
		Share  float64  `json:"share"`
		Notes  []string `json:"notes,omitempty"`
		Parent *row     `json:"parent,omitempty"`
	}
	rows := make([]row, 100)
	for i := range rows {
		rows[i] = row{Name: "tool_" + strings.Repeat("x", i%20), Bytes: int64(i * 1234), Share: float64(i) / 7, Notes: []string{"a \"note\"", "b"}}
	}
	v := struct {
		Path string         `json:"path"`
		Rows []row          `json:"rows"`
		Map  map[string]int `json:"map"`
	}{"captures/x.json", rows, map[string]int{"b": 1, "a": 2}}
	b.Run("jsonout", func(b *testing.B) {
		for b.Loop() {
			jsonout.Marshal(v)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			json.Marshal(v)
		}
	})
}
