package toollist

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/readmeter/readmeter/jsonjs"
)

// parseBothWays parses data with the one validating pass that finds the
// tools, and with validating first and locating after.
func parseBothWays(t *testing.T, data []byte) (fast, slow *Capture, fastErr, slowErr error) {
	t.Helper()
	fast, fastErr = parseCapture("f", data)
	findWhileValidating = false
	defer func() { findWhileValidating = true }()
	slow, slowErr = parseCapture("f", data)
	return
}

// checkFindsAsBefore requires the one-pass Parse to accept and refuse what
// validating then locating does, with the same message, and to find the
// same tools.
func checkFindsAsBefore(t *testing.T, name string, data []byte) {
	t.Helper()
	fast, slow, fe, se := parseBothWays(t, data)
	if (fe == nil) != (se == nil) || (fe != nil && fe.Error() != se.Error()) {
		t.Fatalf("%s: one pass: %v; validate then locate: %v", name, fe, se)
	}
	if fe != nil {
		return
	}
	if fast.Form != slow.Form || fast.WireBytes != slow.WireBytes || !reflect.DeepEqual(fast.Tools, slow.Tools) {
		t.Fatalf("%s: one pass found %v %d %q; validate then locate %v %d %q", name, fast.Form, fast.WireBytes, fast.Tools, slow.Form, slow.WireBytes, slow.Tools)
	}
}

func TestParseFindsAsBefore(t *testing.T) {
	n := 0
	for _, pat := range []string{"testdata/*", "testdata/adversarial/*", "../jsonjs/testdata/corpus/*", "../cmd/measure/testdata/*", "../internal/nodeoracle/testdata/*"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			checkFindsAsBefore(t, p, data)
			n++
		}
	}
	for _, c := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}]},"result":{"tools":[{"name":"b"},{}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}]},"result":7}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}],"tools":"no"}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}`,
		`{"jsonrpc":"2.0","id":1}`,
		`{"tools":[{"name":"a"}],"tools":[]}`,
		`{"t\u006fols":[{"name":"a"}]}`,
		`{"res\u0075lt":{"tools":[{"name":"a"}, 3]}}`,
		`{"result":{"protocolVersion":"2025-06-18"}}`,
		`{"result":{"tools":[{"name":"a"}, ]}}`,
		`[{"tools":[]}]`,
		`{"tools":[{}],"tools":[1]}`,
		`{"tools":[1,2],"tools":[]}`,
		`{"tools":[{},{},null]}`,
	} {
		checkFindsAsBefore(t, c, []byte(c))
		n++
	}
	if n < 100 {
		t.Errorf("only %d inputs; expected the test captures and the corpus", n)
	}
}

// FuzzParseFinds checks the one-pass Parse against validating then
// locating on any bytes.
func FuzzParseFinds(f *testing.F) {
	for _, pat := range []string{"testdata/*", "testdata/adversarial/*"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil && len(data) < 8<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFindsAsBefore(t, "fuzz", data)
		defer func(n int) { prescanBatch = n }(prescanBatch)
		prescanBatch = 2 // so that short lists are measured while validated
		checkAgainstReference(t, data)
		checkFindsAsBefore(t, "fuzz", data)
	})
}

// TestPrescanSmallBatches measures every test capture and the corpus with
// batches of one and three tools, so that the measuring done while
// validating meets every case the short captures hold.
func TestPrescanSmallBatches(t *testing.T) {
	defer func(n int) { prescanBatch = n }(prescanBatch)
	for _, n := range []int{1, 3} {
		prescanBatch = n
		for _, pat := range []string{"testdata/*", "testdata/adversarial/*", "../jsonjs/testdata/corpus/*", "../internal/nodeoracle/testdata/*"} {
			files, _ := filepath.Glob(pat)
			for _, p := range files {
				data, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				checkAgainstReference(t, data)
				checkFindsAsBefore(t, p, data)
			}
		}
	}
}

// TestPrescan checks the tools measured while a capture is validated
// against the reference, for long lists and for the cases where the
// measuring must start again or be left to Measure: a repeated result or
// tools key, a tools array at two paths.
func TestPrescan(t *testing.T) {
	list := func(from, n int) string {
		g := string(genCapture(from + n))
		i := strings.Index(g, `[{"name":"tool_`)
		j := strings.LastIndex(g, `]}}`)
		items, _ := jsonjsElems(g[i : j+1])
		return "[" + strings.Join(items[from:], ",") + "]"
	}
	big := string(genCapture(300))
	// tools of two sizes: the first batch's sizes the arrays measured into
	sized := func(first, n, rest, m int) string {
		var b strings.Builder
		b.WriteString(`{"tools":[`)
		for i := range n + m {
			if i > 0 {
				b.WriteByte(',')
			}
			size := first
			if i >= n {
				size = rest
			}
			fmt.Fprintf(&b, `{"name":"t%d","description":"%s"}`, i, strings.Repeat("d", size))
		}
		b.WriteString(`]}`)
		return b.String()
	}
	for name, c := range map[string]string{
		"large tools first": sized(2000, 128, 10, 900),
		"small tools first": sized(10, 128, 3000, 300),
		"json-rpc":          big,
		"result":            `{"tools":` + list(0, 300) + `}`,
		"repeated result":   `{"jsonrpc":"2.0","id":1,"result":{"tools":` + list(0, 300) + `},"result":{"tools":` + list(5, 260) + `}}`,
		"repeated tools":    `{"result":{"tools":` + list(0, 200) + `,"tools":` + list(7, 300) + `}}`,
		"result then other": `{"result":{"tools":` + list(0, 300) + `},"result":{"tools":[]}}`,
		"two paths":         `{"tools":` + list(0, 300) + `,"result":{"tools":` + list(3, 290) + `}}`,
		"invalid after":     big[:len(big)-3] + "x",
		"not an object 200": `{"tools":` + strings.Replace(list(0, 300), `{"name":"tool_00200"`, `7,{"name":"tool_00200"`, 1) + `}`,
		"not an object 5":   `{"result":{"tools":` + strings.Replace(list(0, 300), `{"name":"tool_00005"`, `"x",{"name":"tool_00005"`, 1) + `}}`,
		"objects then not":  `{"tools":` + list(0, 200) + `,"tools":[1]}`,
		"result an array":   `{"jsonrpc":"2.0","result":` + list(0, 300) + `}`,
		"error an array":    `{"jsonrpc":"2.0","error":` + strings.Replace(list(0, 300), `{"name":"tool_00150"`, `[],{"name":"tool_00150"`, 1) + `}`,
		"jsonrpc an array":  `{"jsonrpc":` + list(0, 300) + `,"tools":` + list(0, 300) + `}`,
		"not then objects":  `{"tools":[1],"tools":` + list(0, 200) + `}`,
	} {
		t.Run(name, func(t *testing.T) {
			checkAgainstReference(t, []byte(c))
			checkFindsAsBefore(t, name, []byte(c))
		})
	}
	_, p, err := parse("big", []byte(big), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range p.pre {
		n += len(b.tools)
	}
	if n != 256 {
		t.Errorf("%d of 300 tools measured while validating, want 256 (two batches)", n)
	}
	if len(p.figs) < 300 {
		t.Errorf("measured into arrays for %d tools, not in place", len(p.figs))
	}
}

func jsonjsElems(s string) ([]string, error) {
	if err := jsonjs.Validate([]byte(s)); err != nil {
		return nil, err
	}
	es := jsonjs.ElemsValid(nil, []byte(s))
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = string(e)
	}
	return out, nil
}

// TestValidUTF8 checks the two-halves check against utf8.Valid with a
// character, or a broken one, at and around the split.
func TestValidUTF8(t *testing.T) {
	base := []byte(strings.Repeat("a", 1<<20+17))
	mid := len(base) / 2
	for _, ins := range []string{"é", "😀", "\xf0\x9f\x98", "\x98\x80", "\xc3", "\xed\xa0\x80", "€€", "\x80"} {
		for d := -5; d <= 5; d++ {
			data := append([]byte(nil), base[:mid+d]...)
			data = append(data, ins...)
			data = append(data, base[mid+d:]...)
			if got, want := validUTF8(data, nil), utf8.Valid(data); got != want {
				t.Errorf("%q at the middle%+d: %v, want %v", ins, d, got, want)
			}
		}
	}
	tail := append(append([]byte(nil), base...), "\xe2\x82"...)
	if validUTF8(tail, nil) {
		t.Error("a broken character at the end is valid")
	}
}

// TestUTF8Later reads every test capture, and a long one with a byte that
// is not UTF-8 in a tool, between tools, before and after them, with the
// text checked as it is validated and with it checked first: the same
// capture, figures and errors.
func TestUTF8Later(t *testing.T) {
	defer func(n, b int) { utf8Later, prescanBatch = n, b }(utf8Later, prescanBatch)
	g := string(genCapture(300))
	i := strings.Index(g, `{"name":"tool_00150"`)
	cases := map[string][]byte{
		"in a tool":    []byte(strings.Replace(g, "Tool 150", "Tool \xff150", 1)),
		"between":      []byte(g[:i] + " \xff " + g[i:]),
		"before":       []byte(strings.Replace(g, `"2.0"`, "\"2.0\xc3\"", 1)),
		"after":        []byte(g[:len(g)-1] + "\xe2\x82\n"),
		"in a key":     []byte(strings.Replace(g, `"title":"Tool 299"`, "\"ti\xfftle\":\"Tool 299\"", 1)),
		"broken after": []byte(g[:len(g)-4] + "\xff"),
		// syntax errors after bytes that are not UTF-8 on the same line:
		// the column counts characters as decoded (one U+FFFD for each
		// maximal invalid subpart)
		"broken after bad bytes":  []byte(strings.Replace(g, `"Tool 150"`, "\"Tool \xe2\x82\xff\xf0\x9f 150\" x", 1)),
		"broken at a bad byte":    []byte(strings.Replace(g, `"Tool 150"`, "\"Tool \xc3 150\" \xe2\x82", 1)),
		"cut after a bad byte":    []byte(g[:i] + "{\"name\":\"\xf0\x9f\x98 tool"),
		"bad bytes a line before": []byte(strings.Replace(g, `"Tool 150"`, "\"\xff\xff\"\n\"Tool 150\" }", 1)),
		"valid":                   []byte(g),
	}
	for _, pat := range []string{"testdata/*", "testdata/adversarial/*", "../jsonjs/testdata/corpus/*", "../internal/nodeoracle/testdata/*"} {
		files, _ := filepath.Glob(pat)
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				cases[p] = data
			}
		}
	}
	for name, data := range cases {
		for _, batch := range []int{1, 128} {
			prescanBatch = batch
			utf8Later = 0
			lc, lerr := parseCapture(name, data)
			utf8Later = 1 << 62
			ec, eerr := parseCapture(name, data)
			if (lerr == nil) != (eerr == nil) || (lerr != nil && lerr.Error() != eerr.Error()) {
				t.Fatalf("%s: checked later: %v; first: %v", name, lerr, eerr)
			}
			if lerr != nil {
				continue
			}
			if want := strings.Contains("in a tool|before|in a key", name); !strings.Contains(name, "/") && want != (lc.Replaced == 1) {
				t.Errorf("%s: %d replaced", name, lc.Replaced)
			}
			lf, err1 := measure(lc, nil)
			ef, err2 := measure(ec, nil)
			if (err1 == nil) != (err2 == nil) || lc.Replaced != ec.Replaced || !reflect.DeepEqual(lc.Tools, ec.Tools) || (err1 == nil && !reflect.DeepEqual(lf, ef)) {
				t.Fatalf("%s: checked later and first differ:\n%+v %v\n%+v %v", name, lf, err1, ef, err2)
			}
		}
	}
}

// TestEventsChecked reads event-stream captures, broken and not, with
// invalid UTF-8 and without, with each event's data checked as the scan
// reaches it (and the text taken as UTF-8) and with each event checked
// once read (the text decoded first): the same capture, figures and
// errors.
func TestEventsChecked(t *testing.T) {
	defer func(n int) { utf8Later, checkEventData = n, true }(utf8Later)
	g := string(genCapture(300))
	i := strings.Index(g, `{"name":"tool_00150"`)
	long := strings.Repeat(" ", 600<<10) // past the window a line is handed over in
	cases := map[string]string{
		"valid":                                       "event: message\ndata: " + g + "\n",
		"priming first":                               "id: 0\ndata:\n\nid: 1\r\ndata: " + g + "\r\n\r\n",
		"broken early":                                "data: {\"jsonrpc\": !" + g,
		"broken in a tool":                            "data: " + g[:i] + "{\"name\": x" + g[i:],
		"broken after bad bytes":                      "data: " + g[:i] + "{\"name\": \"\xe2\x82\xff\xf0\x9f\", x" + g[i:],
		"broken at a bad byte":                        "data: " + g[:i] + "\xc3" + g[i:],
		"not UTF-8, valid":                            "data: " + strings.Replace(g, "Tool 150", "Tool \xff150", 1) + "\n\n",
		"bad byte in another field":                   "event: m\xff\ndata: " + g + "\n\n",
		"bad byte then broken later":                  "event: m\xff\ndata: " + g[:i] + "{]" + g[i:],
		"multi-line, broken on the second":            "data: " + g[:i] + "\ndata: " + long + "{\"name\": }" + g[i:] + "\n\n",
		"multi-line, broken on the first":             "data: {\"jsonrpc\": \"2.0\", x\r\ndata: " + g[1:] + "\r\n\r\n",
		"broken in a later event":                     "data: " + g + "\n\ndata: {\"a\": [1, 2,]}\n\n",
		"unfinished":                                  "data: " + g[:len(g)/2] + "\n\n",
		"broken in a long line":                       "data: [" + long + "1, x]\n\n",
		"BOM, broken":                                 "\uFEFFdata: {\"tools\": [\xff, !]}\n\n",
		"comment, broken":                             ": " + long + "\ndata: {\"result\": {\"tools\": []}, !}\n\n",
		"no response":                                 "data: {\"jsonrpc\": \"2.0\", \"method\": \"x\"}\n\n",
		"an event that is not JSON, a line at a time": "data: {\ndata: \"result\":\ndata: {\"tools\": [\ndata: ]}\ndata: ,\n\n",
	}
	for name, data := range cases {
		utf8Later, checkEventData = 0, true
		lc, lerr := parseCapture(name, []byte(data))
		utf8Later, checkEventData = 1<<62, false
		ec, eerr := parseCapture(name, []byte(data))
		if (lerr == nil) != (eerr == nil) || (lerr != nil && lerr.Error() != eerr.Error()) {
			t.Fatalf("%s: checked as read: %v; once read: %v", name, lerr, eerr)
		}
		if lerr != nil {
			if !strings.Contains(name, "broken") && !strings.Contains(name, "not JSON") && !strings.Contains(name, "unfinished") && !strings.Contains(name, "no response") {
				t.Errorf("%s: %v", name, lerr)
			}
			continue
		}
		lf, err1 := measure(lc, nil)
		ef, err2 := measure(ec, nil)
		if err1 != nil || err2 != nil || lc.Replaced != ec.Replaced || !reflect.DeepEqual(lf, ef) {
			t.Fatalf("%s: checked as read and once read differ:\n%+v %v\n%+v %v", name, lf, err1, ef, err2)
		}
	}
}
