package toollist

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/jsonjs"
)

// parsedModelRead is what a model reads of a tool the parsed way: the
// tool parsed, ModelRead, and stringified.
func parsedModelRead(t *testing.T, raw []byte) []byte {
	t.Helper()
	v, err := jsonjs.Parse(raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return jsonjs.Stringify(ModelRead(v))
}

// TestAppendModelRead holds the model-read text written from a tool's
// text to the parsed way's, on every tool of the test captures and of a
// generated one, and on tools made to trip it: keys escaped, repeated or
// integer-like, members in any order, values of every kind, white space
// anywhere, a tool that is no object.
func TestAppendModelRead(t *testing.T) {
	var tools [][]byte
	files, _ := filepath.Glob("testdata/*.json")
	more, _ := filepath.Glob("testdata/adversarial/*")
	for _, f := range append(append(files, more...), "testdata/demo.sse") {
		c, err := readCapture(f)
		if err != nil {
			continue // a capture refused as a whole
		}
		tools = append(tools, c.Tools...)
		c.Close()
	}
	gen, err := benchcap.Generate(300, 24, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseCapture("gen.json", gen)
	if err != nil {
		t.Fatal(err)
	}
	tools = append(tools, c.Tools...)
	if len(tools) < 300 {
		t.Fatalf("only %d tools read", len(tools))
	}
	for _, s := range []string{
		`{}`, ` { } `, `1`, `"tool"`, `null`, `[]`, `{"name":1}`, `{"name":"a","name":"b"}`,
		`{"na\u006de":"x","description":"d","inputSchema":{"type":"object"}}`,
		`{"inputSchema":{"b":1,"a":2,"10":3,"2":4,"b":5},"description":"\ud83d\ude00 \u2028","name":"n"}`,
		`{"description":null,"inputSchema":[1e21,-0,1.50,0.000001,1E-7,{"x":[]}],"extra":{"name":"no"}}`,
		"{\n\t\"name\" : \"spaced\" ,\r\n \"inputSchema\" : { \"a\" : [ 1 , 2 ] } \n}",
		`{"description":"a\"b\\c\/d\u0000\u001f\u007f","inputSchema":true,"inputSchema":false}`,
		`{"name":"x","inputSchem\u0061":{"p":{"description":"q"}},"descriptio":"no"}`,
	} {
		tools = append(tools, []byte(s))
	}
	r := rand.New(rand.NewPCG(13, 14))
	keys := []string{`"name"`, `"description"`, `"inputSchema"`, `"na\u006de"`, `"x"`, `"0"`, `"12"`, `"input_schema"`}
	vals := []string{`"v"`, `1`, `-1.5e3`, `null`, `true`, `{}`, `[]`, `{"b":1,"a":2,"1":3}`, `["\u00e9",{"k":"v","k":"w"}]`, `"\ud800"`}
	for range 2000 {
		var b strings.Builder
		b.WriteString("{")
		for m := range r.IntN(6) {
			if m > 0 {
				b.WriteString(" ,")
			}
			b.WriteString(keys[r.IntN(len(keys))] + ":" + vals[r.IntN(len(vals))])
		}
		b.WriteString("}")
		tools = append(tools, []byte(b.String()))
	}
	for _, raw := range tools {
		if err := jsonjs.Validate(raw); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		want := parsedModelRead(t, raw)
		if got := appendModelRead([]byte("prefix"), raw); !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("%s:\n got %s\nwant %s", raw, got[len("prefix"):], want)
		}
	}
}

// TestModelReadTextMapped: a mapped capture's texts are the same.
func TestModelReadTextMapped(t *testing.T) {
	data, err := benchcap.Generate(1200, 24, 2)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := readCapture(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range c.Tools {
		got, err := c.ModelReadText(i)
		if err != nil {
			t.Fatal(err)
		}
		if want := parsedModelRead(t, c.Tools[i]); !bytes.Equal(got, want) {
			t.Fatalf("tool %d: %s, want %s", i, got, want)
		}
	}
}

// textCounter counts a text's bytes and quotes: a Counter whose counts
// tell every text apart, and that keeps nothing.
type textCounter struct {
	name string
	per  int
}

func (c textCounter) Name() string { return c.name }
func (c textCounter) Count(s string) int {
	return len(s)*c.per + strings.Count(s, `"`)
}

// TestReadCounting: the counts the validating pass takes while it
// measures are those countTokens takes in a pass of its own, tool by tool, for a
// capture read into memory and a mapped one, with what-ifs and without,
// and with a tail of tools the validating pass did not hand over.
func TestReadCounting(t *testing.T) {
	counters := []Counter{textCounter{"a", 1000}, textCounter{"b", 7}}
	for _, n := range []int{5, 300, 2000} {
		data, err := benchcap.Generate(n, 24, 3)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "tools.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, ts := range [][]Transform{nil, {Lean()}} {
			plain, err := readCapture(path)
			if err != nil {
				t.Fatal(err)
			}
			pf, err := measure(plain, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := countTokens(plain, nil, pf, counters); err != nil {
				t.Fatal(err)
			}
			o := Options{Counters: counters, Transforms: ts}
			c, p, err := read(path, o)
			if err != nil {
				t.Fatal(err)
			}
			if n >= 2000 && (c.pg == nil || p.tokens[0] < 0) {
				t.Errorf("%d tools: not mapped, or the first tool was not counted while measured", n)
			}
			if c, err = c.result(p, o); err != nil {
				t.Fatal(err)
			}
			f := c.Figures
			for i := range f.PerTool {
				for k := range counters {
					got, want := f.ToolTokens(i)[k], pf.ToolTokens(i)[k]
					if got != want || got.Tokens != int64(counters[k].Count(string(appendModelRead(nil, c.Tools[i])))) {
						t.Fatalf("%d tools, tool %d, %s: %+v, the pass of its own %+v", n, i, counters[k].Name(), got, want)
					}
				}
			}
			if !slices.Equal(f.Tokenizers, pf.Tokenizers) {
				t.Errorf("%d tools: totals %+v, want %+v", n, f.Tokenizers, pf.Tokenizers)
			}
			plain.Close()
			c.Close()
		}
	}
}
