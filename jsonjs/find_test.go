package jsonjs_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
)

// findPaths are the paths the differential tests look for: the ones a
// capture reader uses, and some that lead through arrays and scalars.
var findPaths = [][]string{{"result"}, {"error"}, {"jsonrpc"}, {"tools"}, {"result", "tools"}, {"a", "b", "c"}, {""}, {"__proto__"}}

// referenceFind reads path from the parsed value as JavaScript would.
func referenceFind(v jsonjs.Value, path []string) (jsonjs.Value, bool) {
	for _, k := range path {
		if v.Kind() != jsonjs.Object {
			return jsonjs.Value{}, false
		}
		var ok bool
		if v, ok = v.Get(k); !ok {
			return jsonjs.Value{}, false
		}
	}
	return v, true
}

// checkFind requires ValidateFind to refuse what Validate refuses, with the
// same error, and to find what parsing the whole text finds.
func checkFind(t *testing.T, name string, data []byte) {
	t.Helper()
	text, _ := jsonjs.Decode(data)
	found, err := jsonjs.ValidateFind(text, findPaths...)
	want := jsonjs.Validate(text)
	if (err == nil) != (want == nil) {
		t.Fatalf("%s: ValidateFind: %v, Validate: %v", name, err, want)
	}
	if err != nil {
		var a, b *jsonjs.SyntaxError
		if !errors.As(err, &a) || !errors.As(want, &b) || *a != *b {
			t.Fatalf("%s: ValidateFind: %#v, Validate: %#v", name, err, want)
		}
		return
	}
	v, perr := jsonjs.Parse(text)
	if perr != nil {
		t.Fatalf("%s: Validate accepts what Parse refuses: %v", name, perr)
	}
	for k, path := range findPaths {
		rv, ok := referenceFind(v, path)
		f := found[k]
		if ok != (f.Value != nil) {
			t.Fatalf("%s: path %q: found %q, want present=%v", name, path, f.Value, ok)
		}
		if !ok {
			if f.Elems != nil {
				t.Fatalf("%s: path %q: elements without a value", name, path)
			}
			continue
		}
		fv, err := jsonjs.Parse(f.Value)
		if err != nil {
			t.Fatalf("%s: path %q: found text %q does not parse: %v", name, path, f.Value, err)
		}
		if !bytes.Equal(jsonjs.Stringify(fv), jsonjs.Stringify(rv)) {
			t.Fatalf("%s: path %q: found %s, want %s", name, path, jsonjs.Stringify(fv), jsonjs.Stringify(rv))
		}
		if rv.Kind() != jsonjs.Array {
			if f.Elems != nil {
				t.Fatalf("%s: path %q: elements of a %v", name, path, rv.Kind())
			}
			continue
		}
		wantElems, err := jsonjs.RawElems(f.Value)
		if err != nil {
			t.Fatal(err)
		}
		if f.Elems == nil || !reflect.DeepEqual(f.Elems, wantElems) {
			t.Fatalf("%s: path %q: elements %q, want %q", name, path, f.Elems, wantElems)
		}
	}
}

// referenceKeyBytes sums the bytes of the string values of members named
// key in the parsed value.
func referenceKeyBytes(v jsonjs.Value, key string) int64 {
	var n int64
	switch v.Kind() {
	case jsonjs.Object:
		for _, m := range v.Members() {
			if m.Key == key && m.Value.Kind() == jsonjs.String {
				n += int64(jsonjs.ByteLen(m.Value.Str()))
				continue
			}
			n += referenceKeyBytes(m.Value, key)
		}
	case jsonjs.Array:
		for _, e := range v.Elems() {
			n += referenceKeyBytes(e, key)
		}
	}
	return n
}

// checkMeasureValid requires MeasureValid, on text Validate accepts, to
// end where the value ends and to count what StringifyLenText and the
// parsed value count, for every value in the text.
func checkMeasureValid(t *testing.T, name string, data []byte) {
	t.Helper()
	text, _ := jsonjs.Decode(data)
	if jsonjs.Validate(text) != nil {
		return
	}
	var walk func(raw []byte, depth int)
	walk = func(raw []byte, depth int) {
		raw = bytes.Trim(raw, " \t\r\n")
		// measured inside a longer text, so that the end must be found
		buf := append(append([]byte(" "), raw...), " ,]"...)
		for _, key := range []string{"description", "", "a"} {
			end, n, kb := jsonjs.MeasureValid(buf, 1, key)
			if end != 1+len(raw) {
				t.Fatalf("%s: MeasureValid(%.80q) ends at %d, want %d", name, raw, end-1, len(raw))
			}
			if skip := jsonjs.SkipValid(buf, 1); skip != end {
				t.Fatalf("%s: SkipValid(%.80q) ends at %d, want %d", name, raw, skip-1, len(raw))
			}
			want, err := jsonjs.StringifyLenText(raw)
			if err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Fatalf("%s: MeasureValid(%.80q) length %d, StringifyLenText %d", name, raw, n, want)
			}
			v, _ := jsonjs.Parse(raw)
			wantKB := int64(0)
			if key != "" {
				wantKB = referenceKeyBytes(v, key)
			}
			if kb != wantKB {
				t.Fatalf("%s: MeasureValid(%.80q, %q) key bytes %d, want %d", name, raw, key, kb, wantKB)
			}
		}
		if raw[0] == '"' {
			v, _ := jsonjs.Parse(raw)
			u, n := jsonjs.StringLensValid(raw)
			if u != jsonjs.Len16(v.Str()) || n != jsonjs.ByteLen(v.Str()) {
				t.Fatalf("%s: StringLensValid(%.80q) = %d, %d; want %d, %d", name, raw, u, n, jsonjs.Len16(v.Str()), jsonjs.ByteLen(v.Str()))
			}
		}
		if depth >= 3 {
			return
		}
		switch raw[0] {
		case '[':
			es, _ := jsonjs.RawElems(raw)
			for _, e := range es {
				walk(e, depth+1)
			}
		case '{':
			ms, _ := jsonjs.RawMembers(raw)
			for _, m := range ms {
				walk(m.Value, depth+1)
			}
		}
	}
	walk(text, 0)
}

var findCases = []string{
	`{"result":{"tools":[1,{"a":2} , "x"]}}`,
	`{"result":{"tools":[1]},"result":{"tools":[2,3]}}`,
	`{"result":{"tools":[1]},"result":5}`,
	`{"result":{"tools":[1],"tools":{"x":1}}}`,
	`{"result":{"tools":{"x":1},"tools":[ ]}}`,
	`{"res\u0075lt":{"t\u006fols":[true,false,null]}}`,
	`{"tools":[{"name":"a"}],"jsonrpc":"2.0"}`,
	`{"a":{"b":{"c":[[],{}]}},"a":{"b":{"d":1}}}`,
	`{"a":[{"b":{"c":1}}]}`,
	`{"":[1],"__proto__":{"x":[]}}`,
	` [ {"result":{"tools":[]}} ] `,
	`{"result":{"tools":[1,]}}`,
	`{"result":{"tools":[1 2]}}`,
	`{"result":{"tools":[1],}}`,
	`{"result"`,
	`{"result":{"tools":[{"a":"\u00"}]}}`,
	`{"a":1}x`,
	``,
	`{"description":"a","description":{"description":"b\\\""},"p":[{"description":"\ud800"}],"q":{"description":"\ud83d\ude00\u0000\/","description":"é"}}`,
	`{"n\u0061me":"a","name":"b","descr\u0069ption":"yy","x":[1.0,-0,1e400,123456789012345678,0.1e-7,{}]}`,
	`["caf\u00e9 naïve 😀 \ud83d\ude00 \ude00\ud83d x\ud800\ud800\udc00 \u0000\n\"\/ «fait» 𝄞𝄞𝄞𝄞 abcdefghijklmnop"]`,
}

func TestValidateFind(t *testing.T) {
	for _, c := range findCases {
		checkFind(t, c, []byte(c))
		checkMeasureValid(t, c, []byte(c))
	}
}

// TestValidateFindCorpus runs the differential checks over the corpus
// Node is compared on.
func TestValidateFindCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		checkFind(t, p, data)
		checkMeasureValid(t, p, data)
	}
}

// FuzzValidateFind checks ValidateFind against Validate and Parse, and
// MeasureValid against StringifyLenText and Parse, on any bytes.
func FuzzValidateFind(f *testing.F) {
	for _, c := range findCases {
		f.Add([]byte(c))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil && len(data) < 16<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFind(t, "fuzz", data)
		checkMeasureValid(t, "fuzz", data)
	})
}

// TestNumberLenEdges checks the lengths of integers around 2^53, where a
// number stops being written as its digits.
func TestNumberLenEdges(t *testing.T) {
	for _, s := range []string{"9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993",
		"-9007199254740992", "1234567890123456", "9999999999999999", "10000000000000000", "999999999999999",
		"-0", "0", "-1234567890123456", "123456789012345678", "9007199254740992.5", "1e15"} {
		v, err := jsonjs.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		want := len(jsonjs.Stringify(v))
		got, err := jsonjs.StringifyLenText([]byte(s))
		if err != nil || got != want {
			t.Errorf("StringifyLenText(%s) = %d, %v; want %d (%s)", s, got, err, want, jsonjs.Stringify(v))
		}
		if _, n, _ := jsonjs.MeasureValid([]byte(s), 0, ""); n != want {
			t.Errorf("MeasureValid(%s) = %d, want %d", s, n, want)
		}
	}
}
