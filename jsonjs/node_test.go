package jsonjs_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/jsonjs"
)

// TestNodeCorpus runs Node and jsonjs on every file of testdata/corpus and
// requires the same bytes: the decoded text, JSON.stringify's output (and
// its length, computed both ways), the length and byte length of every
// string, and the same verdict when JSON.parse refuses the text. Files
// named refused-* must be refused by Node, so that the corpus stays what
// its names say.
func TestNodeCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "corpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var inputs [][]byte
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name())
		inputs = append(inputs, data)
	}
	if len(names) < 100 {
		t.Fatalf("the corpus holds %d files; expected the full corpus", len(names))
	}
	results := nodeoracle.Eval(t, inputs...)
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			refused := strings.HasPrefix(name, "refused-")
			if refused != (results[i].Status == nodeoracle.ParseThrew) {
				t.Fatalf("corpus file named %q but Node: %v %s", name, results[i].Status, results[i].Err)
			}
			checkAgainstNode(t, inputs[i], results[i])
		})
	}
}

// checkAgainstNode compares what jsonjs makes of data with what Node made
// of it.
func checkAgainstNode(t *testing.T, data []byte, node nodeoracle.Result) {
	t.Helper()
	text, replaced := jsonjs.Decode(data)
	if d := nodeoracle.Diff(text, node.Decoded); d != "" {
		t.Fatalf("Decode differs from Node's buffer.toString(\"utf8\"): %s", d)
	}
	// Every U+FFFD Node wrote is either a replacement or one the input held.
	if want := bytes.Count(node.Decoded, []byte("\uFFFD")) - bytes.Count(data, []byte("\uFFFD")); replaced != want {
		t.Errorf("Decode reports %d replacements, Node made %d", replaced, want)
	}

	v, perr := jsonjs.Parse(text)
	verr := jsonjs.Validate(text)
	n, lerr := jsonjs.StringifyLenText(text)
	if node.Status == nodeoracle.ParseThrew {
		if perr == nil {
			t.Fatalf("Node's JSON.parse throws (%s) but Parse accepts the text; it stringifies as %s", node.Err, clip(jsonjs.Stringify(v)))
		}
		var se *jsonjs.SyntaxError
		if !errors.As(perr, &se) {
			t.Errorf("Parse error is %T (%v), want *jsonjs.SyntaxError", perr, perr)
		}
		if verr == nil {
			t.Errorf("Node's JSON.parse throws (%s) but Validate accepts the text", node.Err)
		} else if verr.Error() != perr.Error() {
			t.Errorf("Validate says %q, Parse says %q", verr, perr)
		}
		if lerr == nil {
			t.Errorf("Node's JSON.parse throws (%s) but StringifyLenText accepts the text (%d)", node.Err, n)
		}
		return
	}
	if perr != nil {
		t.Fatalf("Node's JSON.parse accepts the text but Parse says: %v", perr)
	}
	if verr != nil {
		t.Errorf("Node's JSON.parse accepts the text but Validate says: %v", verr)
	}
	if lerr != nil {
		t.Errorf("Node's JSON.parse accepts the text but StringifyLenText says: %v", lerr)
	}
	if node.Status == nodeoracle.StringifyThrew {
		t.Logf("Node's JSON.stringify throws (%s): only parsing is compared", node.Err)
		return
	}
	got := jsonjs.Stringify(v)
	if d := nodeoracle.Diff(got, node.Stringified); d != "" {
		t.Fatalf("Stringify differs from Node's JSON.stringify: %s", d)
	}
	start := 0
	for start < len(text) && (text[start] == ' ' || text[start] == '\t' || text[start] == '\n' || text[start] == '\r') {
		start++
	}
	if sv, _ := jsonjs.AppendStringifyValid(nil, text, start); !bytes.Equal(sv, node.Stringified) {
		t.Errorf("AppendStringifyValid differs from Node's JSON.stringify: %s", nodeoracle.Diff(sv, node.Stringified))
	}
	if l := jsonjs.StringifyLen(v); l != len(node.Stringified) {
		t.Errorf("StringifyLen = %d, Node's JSON.stringify wrote %d bytes", l, len(node.Stringified))
	}
	if lerr == nil && n != len(node.Stringified) {
		t.Errorf("StringifyLenText = %d, Node's JSON.stringify wrote %d bytes", n, len(node.Stringified))
	}
	var strs []string
	collectStrings(v, &strs)
	if len(strs) != len(node.Strings) {
		t.Fatalf("the value holds %d keys and strings, Node's %d", len(strs), len(node.Strings))
	}
	for i, s := range strs {
		got := nodeoracle.StrLen{Len16: jsonjs.Len16(s), ByteLen: jsonjs.ByteLen(s)}
		if got != node.Strings[i] {
			t.Errorf("string %d %s: Len16 %d, ByteLen %d; Node: length %d, Buffer.byteLength %d",
				i, clip([]byte(s)), got.Len16, got.ByteLen, node.Strings[i].Len16, node.Strings[i].ByteLen)
		}
	}
}

// collectStrings lists the keys and strings of v depth first, a key before
// its value, in the order nodeoracle reports them.
func collectStrings(v jsonjs.Value, out *[]string) {
	switch v.Kind() {
	case jsonjs.String:
		*out = append(*out, v.Str())
	case jsonjs.Array:
		for _, e := range v.Elems() {
			collectStrings(e, out)
		}
	case jsonjs.Object:
		for _, m := range v.Members() {
			*out = append(*out, m.Key)
			collectStrings(m.Value, out)
		}
	}
}

func clip(b []byte) string {
	if len(b) > 80 {
		return fmt.Sprintf("%q… (%d bytes)", b[:80], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// TestNodeFormatNumber compares FormatNumber with Node's JSON.stringify on
// doubles drawn from every part of the range: random bit patterns,
// integers near 2^53, powers of ten at the edges of the plain notation,
// and the subnormals.
func TestNodeFormatNumber(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var fs []float64
	for range 4000 {
		f := math.Float64frombits(r.Uint64())
		if !math.IsNaN(f) && !math.IsInf(f, 0) {
			fs = append(fs, f)
		}
	}
	for range 1000 {
		fs = append(fs, float64(r.Int64N(1<<62)-1<<61), r.Float64()*math.Pow(10, float64(r.IntN(60)-30)))
	}
	for e := -330; e <= 310; e++ {
		f := math.Pow(10, float64(e))
		fs = append(fs, f, -f, math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1)), 1.5*f, 123456789*f)
	}
	for i := range int64(40) {
		fs = append(fs, float64(1<<53-20+i), float64(1<<53-20+i)*2, math.Float64frombits(uint64(i)), math.Float64frombits(1<<52-uint64(i)))
	}
	fs = append(fs, 0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64)
	fs = slices.DeleteFunc(fs, func(f float64) bool { return math.IsInf(f, 0) || math.IsNaN(f) })

	var text []byte
	text = append(text, '[')
	for i, f := range fs {
		if i > 0 {
			text = append(text, ',')
		}
		text = strconv.AppendFloat(text, f, 'g', -1, 64) // read back by JSON.parse as exactly f
	}
	text = append(text, ']')
	out := nodeoracle.Stringify(t, text)
	node := strings.Split(strings.Trim(string(out), "[]"), ",")
	if len(node) != len(fs) {
		t.Fatalf("Node wrote %d numbers for %d", len(node), len(fs))
	}
	bad := 0
	for i, f := range fs {
		if got := jsonjs.FormatNumber(f); got != node[i] {
			if bad++; bad <= 20 {
				t.Errorf("FormatNumber(%s) = %q, Node writes %q", strconv.FormatFloat(f, 'g', -1, 64), got, node[i])
			}
		}
	}
	if bad > 20 {
		t.Errorf("... %d numbers differ in all", bad)
	}
}

var nodePosition = regexp.MustCompile(`at position (\d+)`)

// TestNodeErrorPlaces checks that a refusal points where Node's does: when
// Node's message names a position (in UTF-16 code units of the text), the
// SyntaxError's byte offset is the same place.
func TestNodeErrorPlaces(t *testing.T) {
	dir := filepath.Join("testdata", "corpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var inputs [][]byte
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "refused-") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, e.Name())
		inputs = append(inputs, data)
	}
	results := nodeoracle.Eval(t, inputs...)
	checked := 0
	for i, name := range names {
		m := nodePosition.FindStringSubmatch(results[i].Err)
		if m == nil {
			continue
		}
		want, _ := strconv.Atoi(m[1])
		text, _ := jsonjs.Decode(inputs[i])
		_, err := jsonjs.Parse(text)
		var se *jsonjs.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: Parse = %v, want a *SyntaxError (Node: %s)", name, err, results[i].Err)
			continue
		}
		checked++
		if se.Offset < 0 || se.Offset > len(text) {
			t.Errorf("%s: offset %d outside the text (%d bytes)", name, se.Offset, len(text))
			continue
		}
		if got := jsonjs.Len16(string(text[:se.Offset])); got != want {
			t.Errorf("%s: error at UTF-16 position %d (%v), Node: %s", name, got, se, results[i].Err)
		}
	}
	if checked < 10 {
		t.Errorf("only %d of Node's messages name a position; expected more", checked)
	}
}

// TestNodeRandomInputs compares jsonjs with Node on generated inputs that
// the corpus cannot list one by one: byte strings dense with UTF-8 lead,
// continuation and invalid bytes inside a JSON string (Node decodes every
// one, so Decode and the strings' lengths are checked), and small JSON
// texts built from the tokens where the traps are.
func TestNodeRandomInputs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	utf8Bytes := []byte{'a', 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf8, 0xfe, 0xff}
	tokens := []string{`{`, `}`, `[`, `]`, `,`, `:`, ` `, `"a"`, `"0"`, `"10"`, `"01"`, `"4294967295"`, `"4294967294"`, `"__proto__"`, `""`,
		`"\ud800"`, `"\udc00"`, `"\ud83d\ude00"`, `"\u2028"`, `"\/"`, `"\u0000"`, `"é"`, "\"\xff\"", "\"\xed\xa0\x80\"",
		`1e21`, `-0`, `1e309`, `5e-324`, `0.1`, `1e-7`, `123456789012345678901234567890`, `true`, `null`, "\u00a0", "\t", "\ufeff"}
	var inputs [][]byte
	for range 1500 {
		b := []byte{'"'}
		for range 1 + r.IntN(24) {
			b = append(b, utf8Bytes[r.IntN(len(utf8Bytes))])
		}
		inputs = append(inputs, append(b, '"'))
	}
	for range 1500 {
		var b []byte
		// An object or array around a few tokens: most are refused, some are not.
		open := `{"k":`
		if r.IntN(2) == 0 {
			open = `[`
		}
		b = append(b, open...)
		for range r.IntN(12) {
			b = append(b, tokens[r.IntN(len(tokens))]...)
		}
		if open == `[` {
			b = append(b, ']')
		} else {
			b = append(b, '}')
		}
		inputs = append(inputs, b)
	}
	results := nodeoracle.Eval(t, inputs...)
	parsed := 0
	for i, in := range inputs {
		if results[i].Status == nodeoracle.Parsed {
			parsed++
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			checkAgainstNode(t, in, results[i])
			if t.Failed() {
				t.Logf("input: %q", in)
			}
		})
	}
	if parsed < 1600 {
		t.Errorf("only %d of %d inputs were valid JSON for Node; the generator should make more", parsed, len(inputs))
	}
}
