package toollist_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/readmeter/readmeter/internal/benchcap"
	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/tokenize"
	"github.com/readmeter/readmeter/toollist"
)

// nodeTool is what profile.js prints of one tool.
type nodeTool struct {
	Name           string           `json:"name"`
	ModelReadBytes int64            `json:"model_read_bytes"`
	WireBytes      int64            `json:"wire_bytes"`
	Components     map[string]int64 `json:"components"`
	Wire           map[string]int64 `json:"wire"`
	RefsOK         bool             `json:"refs_ok"`
	Drop           nodeWhatIf       `json:"drop_unused_defs"`
	Hoist          nodeWhatIf       `json:"hoist_repeated"`
}

type nodeWhatIf struct {
	Changes        int             `json:"changes"`
	ModelReadBytes int64           `json:"model_read_bytes"`
	WireBytes      int64           `json:"wire_bytes"`
	Tool           json.RawMessage `json:"tool"`
}

// profileCaptures are the captures of the repository the profile and the
// finders are held to Node on.
func profileCaptures(t *testing.T) []string {
	var out []string
	for _, g := range []string{"../captures/*/*.json", "testdata/*.json", "testdata/*.sse", "testdata/adversarial/*"} {
		ms, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if !strings.HasSuffix(m, ".init.json") && !strings.HasSuffix(m, "toolsets.json") && !strings.HasSuffix(m, "words.json") {
				out = append(out, m)
			}
		}
	}
	return out
}

func toolsArray(c *toollist.Capture) []byte {
	return append(append([]byte{'['}, bytes.Join(c.Tools, []byte{','})...), ']')
}

func componentMap(cs []toollist.Component) map[string]int64 {
	m := map[string]int64{}
	for _, c := range cs {
		m[c.Name] = c.Bytes
	}
	return m
}

// checkAgainstNode holds the profile and the two finders of every tool of
// c to profile.js.
func checkAgainstNode(t *testing.T, label string, c *toollist.Capture) {
	t.Helper()
	var nts []nodeTool
	if err := json.Unmarshal(nodeoracle.Profile(t, toolsArray(c)), &nts); err != nil {
		t.Fatalf("%s: profile.js: %v", label, err)
	}
	if len(nts) != len(c.Tools) {
		t.Fatalf("%s: Node saw %d tools, Go %d", label, len(nts), len(c.Tools))
	}
	p, err := toollist.ProfileBytes(c)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	f := c.Figures
	if p.ModelReadBytes != f.ModelReadBytes {
		t.Errorf("%s: the profile counts %d model-read bytes, Measure %d", label, p.ModelReadBytes, f.ModelReadBytes)
	}
	for i, raw := range c.Tools {
		nt := nts[i]
		tool, err := jsonjs.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		tp := p.Tool(i)
		if (utf8.ValidString(tp.Name) && tp.Name != nt.Name) || tp.ModelReadBytes != nt.ModelReadBytes {
			t.Errorf("%s: tool %d: Go %s %d bytes, Node %s %d", label, i, tp.Name, tp.ModelReadBytes, nt.Name, nt.ModelReadBytes)
		}
		if d := cmp.Diff(nt.Components, componentMap(tp.Components)); d != "" {
			t.Errorf("%s: tool %s: components (-node +go):\n%s", label, nt.Name, d)
		}
		if d := cmp.Diff(nt.Wire, componentMap(tp.Wire)); d != "" {
			t.Errorf("%s: tool %s: wire members (-node +go):\n%s", label, nt.Name, d)
		}
		for _, w := range []struct {
			tr   toollist.Transform
			node nodeWhatIf
		}{{toollist.DropUnusedDefs(), nt.Drop}, {toollist.HoistRepeated(), nt.Hoist}} {
			got, n, err := toollist.Apply(w.tr, tool, nt.Name)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				got = tool
			}
			want, err := jsonjs.Parse(w.node.Tool)
			if err != nil {
				t.Fatal(err)
			}
			if n != w.node.Changes || !bytes.Equal(jsonjs.Stringify(got), jsonjs.Stringify(want)) {
				t.Errorf("%s: tool %s: %s: Go %d changes\n%s\nNode %d\n%s", label, nt.Name, w.tr.Name(), n, jsonjs.Stringify(got), w.node.Changes, jsonjs.Stringify(want))
				continue
			}
			if mr := toollist.ModelReadBytes(got); mr != w.node.ModelReadBytes {
				t.Errorf("%s: tool %s: %s: model-read bytes after: Go %d, Node %d", label, nt.Name, w.tr.Name(), mr, w.node.ModelReadBytes)
			}
			if n > 0 && toollist.ModelReadBytes(got) >= nt.ModelReadBytes {
				t.Errorf("%s: tool %s: %s changed it without saving a byte", label, nt.Name, w.tr.Name())
			}
			checkSameMeaning(t, label+": "+nt.Name+": "+w.tr.Name(), tool, got)
		}
	}
	// the savings through WhatIf are Node's sums
	for _, tr := range []toollist.Transform{toollist.DropUnusedDefs(), toollist.HoistRepeated()} {
		ss, err := toollist.SavingsOf(c, tr)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		var mr, wire int64
		changes := 0
		for _, nt := range nts {
			w := nt.Drop
			if tr.Name() == "hoist_repeated" {
				w = nt.Hoist
			}
			mr += nt.ModelReadBytes - w.ModelReadBytes
			wire += nt.WireBytes - w.WireBytes
			changes += w.Changes
		}
		if ss[0].ModelReadSavingBytes != mr || ss[0].WireSavingBytes != wire || ss[0].Changes != changes {
			t.Errorf("%s: %s: Go saves %d model-read, %d wire bytes in %d changes; Node %d, %d, %d", label, tr.Name(),
				ss[0].ModelReadSavingBytes, ss[0].WireSavingBytes, ss[0].Changes, mr, wire, changes)
		}
	}
}

func TestProfileAgainstNode(t *testing.T) {
	for _, path := range profileCaptures(t) {
		c, err := toollist.Open(path, toollist.Options{})
		if err != nil {
			continue // the captures that are refused are refused by Measure's tests
		}
		checkAgainstNode(t, path, c)
		c.Close()
	}
}

func TestProfileGeneratedAgainstNode(t *testing.T) {
	var saved [2]int64
	warned := 0
	for seed := int64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewSource(seed))
		var tools []string
		for i := 0; i < 40; i++ {
			tools = append(tools, genTool(r, i))
		}
		tools = append(tools, manyDefsTool(seed))
		data := []byte(`{"tools":[` + strings.Join(tools, ",") + `]}`)
		c, err := toollist.OpenReader(fmt.Sprintf("gen-%d.json", seed), bytes.NewReader(data), toollist.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, data)
		}
		checkAgainstNode(t, fmt.Sprintf("seed %d", seed), c)
		drop, hoist := toollist.DropUnusedDefs(), toollist.HoistRepeated()
		ss, err := toollist.SavingsOf(c, drop, hoist)
		if err != nil {
			t.Fatal(err)
		}
		saved[0] += ss[0].ModelReadSavingBytes
		saved[1] += ss[1].ModelReadSavingBytes
		warned += len(drop.(toollist.Warner).Warnings())
	}
	// the generated tools exercise what they are for
	if saved[0] == 0 || saved[1] == 0 || warned == 0 {
		t.Errorf("the generated captures saved %v bytes and warned %d times: they test nothing", saved, warned)
	}
}

// manyDefsTool writes a tool with more definitions than are looked up
// one by one: a chain of $refs through the even ones, from a property
// chosen by the seed, and an odd one reached from an unused one.
func manyDefsTool(seed int64) string {
	var ds []string
	for k := 0; k < 40; k++ {
		d := `{"type":"string","description":"Definition number ` + fmt.Sprint(k) + `."}`
		switch {
		case k%2 == 0 && k < 38:
			d = fmt.Sprintf(`{"$ref":"#/$defs/d%d"}`, k+2)
		case k == 39:
			d = `{"$ref":"#/$defs/d1"}`
		}
		ds = append(ds, fmt.Sprintf(`"d%d":%s`, k, d))
	}
	return fmt.Sprintf(`{"name":"many_defs","inputSchema":{"type":"object","properties":{"p":{"$ref":"#/$defs/d%d"}},"$defs":{%s}}}`,
		2*(seed%19), strings.Join(ds, ","))
}

// genTool writes a tool whose inputSchema has repeated subschemas,
// definitions used and unused, and now and then a $ref the finders must
// leave alone.
func genTool(r *rand.Rand, i int) string {
	shapes := []string{
		`{"type":"string","description":"An identifier of the workspace, as the API returns it."}`,
		`{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string","title":"Name"}},"required":["id"]}`,
		`{"type":"array","items":{"type":"string","enum":["a","b","c"]},"default":[]}`,
		`{"$ref":"#/$defs/user"}`,
		`{"type":"integer","minimum":0,"examples":[1,2]}`,
		`{"anyOf":[{"type":"string"},{"type":"null"}]}`,
	}
	refs := []string{`"#/$defs/user"`, `"#/$defs/a~1b"`, `"#/%24defs/page"`, `"#/definitions/old/properties/x"`, `"#"`,
		`"#/$defs/café"`, `"#/$defs"`}
	bad := []string{`"other.json#/x"`, `"#anchor"`, `"#/$defs/nothing"`, `"#/$defs/bad~2"`}
	var props []string
	for k := 0; k < 2+r.Intn(6); k++ {
		var s string
		switch x := r.Intn(10); {
		case x < 6:
			s = shapes[r.Intn(len(shapes))]
		case x < 9:
			s = `{"$ref":` + refs[r.Intn(len(refs))] + `}`
		default:
			if r.Intn(3) == 0 {
				s = `{"$ref":` + bad[r.Intn(len(bad))] + `}`
			} else {
				s = `{"type":"object","properties":{"inner":` + shapes[r.Intn(len(shapes))] + `,"again":` + shapes[r.Intn(len(shapes))] + `}}`
			}
		}
		props = append(props, fmt.Sprintf(`"p%d":%s`, r.Intn(8), s))
	}
	defs := []string{
		`"user":{"type":"object","properties":{"id":{"type":"string"},"name":{"type":"string","title":"Name"}},"description":"A person with an account."}`,
		`"a/b":{"type":"boolean"}`,
		`"page":{"type":"object","properties":{"next":{"$ref":"#/$defs/page"},"size":{"type":"integer","minimum":0,"examples":[1,2]}}}`,
		`"café":{"type":"string","format":"date-time"}`,
		`"unused":{"type":"object","properties":{"x":{"type":"string","description":"Never read by a ref but read by every model."}}}`,
		`"chain":{"$ref":"#/$defs/unused"}`,
	}
	var ds []string
	for _, d := range defs {
		if r.Intn(3) > 0 {
			ds = append(ds, d)
		}
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `}`
	if r.Intn(2) == 0 {
		schema += `,"required":["p1"]`
	}
	switch r.Intn(5) {
	case 0:
	case 1:
		schema += `,"definitions":{"old":{"type":"object","properties":{"x":{"type":"string"}}},"older":{"type":"null"}}`
		fallthrough
	default:
		schema += `,"$defs":{` + strings.Join(ds, ",") + `}`
	}
	if r.Intn(12) == 0 {
		schema += `,"$defs":[]`
	}
	schema += `}`
	if r.Intn(15) == 0 {
		schema = `"not a schema"`
	}
	extra := ""
	if r.Intn(2) == 0 {
		extra = `,"annotations":{"readOnlyHint":true},"outputSchema":{"type":"object"}`
	}
	return fmt.Sprintf(`{"name":"tool_%d","description":"Does thing %d. Read the docs first, they explain the whole workspace model in detail.","inputSchema":%s%s}`, i, r.Intn(4), schema, extra)
}

// checkSameMeaning holds that every local $ref of the schema before and
// after resolves to the same schema: each is inlined, recursively (a ref
// met again inside itself is left as it is), and the root definitions are
// then left out.
func checkSameMeaning(t *testing.T, label string, before, after jsonjs.Value) {
	t.Helper()
	b, _ := before.Get("inputSchema")
	a, _ := after.Get("inputSchema")
	eb, okb := toollist.Inline(b)
	ea, oka := toollist.Inline(a)
	if okb != oka || !bytes.Equal(jsonjs.Stringify(eb), jsonjs.Stringify(ea)) {
		t.Errorf("%s: the meaning changed:\nbefore %s\nafter  %s", label, jsonjs.Stringify(eb), jsonjs.Stringify(ea))
	}
}

// FuzzFinders holds, for any tool, that the profile adds up (or says
// why not), that the finders never crash, never grow what a model reads,
// and keep the schema's meaning. The Node comparison of the same rules is
// TestProfileGeneratedAgainstNode's.
func FuzzFinders(f *testing.F) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 30; i++ {
		f.Add([]byte(genTool(r, i)))
	}
	f.Add([]byte(`{"name":"x","inputSchema":{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"properties":{"p":{"$ref":"#/$defs/a"}}}}`))
	f.Add([]byte(`{"name":"x","inputSchema":{"definitions":{"~":{"type":"string"},"é/":{}},"properties":{"p":{"$ref":"#/definitions/~0"},"q":{"$ref":"#/definitions/%C3%A9~1"}}}}`))
	// which problem is first: a $ref to a root definition that is not
	// there, before or after another problem, in and out of definitions
	f.Add([]byte(`{"name":"x","inputSchema":{"properties":{"p":{"$ref":"#/$defs/none"},"q":{"$dynamicRef":"#a"}},"$defs":{"a":{}}}}`))
	f.Add([]byte(`{"name":"x","inputSchema":{"properties":{"q":{"$dynamicRef":"#a"},"p":{"$ref":"#/$defs/none"}},"$defs":{"a":{}}}}`))
	f.Add([]byte(`{"name":"x","inputSchema":{"$defs":{"a":{"$ref":"#/definitions/b"},"c":{"$ref":"#/$defs/d"}},"properties":{"p":{"$ref":"#/$defs"}}}}`))
	f.Add([]byte(`{"name":"x","inputSchema":{"definitions":[{"type":"string"}],"properties":{"p":{"$ref":"#/definitions/0"},"q":{"$ref":"#/$defs/z"}}}}`))
	// the members in other orders: the findings take in the description
	// before the schema whatever the order
	f.Add([]byte(`{"inputSchema":{"type":"object","properties":{"a":{"type":"string","description":"One. Two."}}},"description":"Three. One.","name":"x"}`))
	f.Add([]byte(`{"inputSchema":{"properties":{"a":{"enum":[1,2]}}},"name":"x","annotations":{}}`))
	f.Add([]byte(`{"name":"x","inputSchema":{"properties":{"a":{"const":"c"}}},"title":"t","description":"Last."}`))
	f.Fuzz(func(t *testing.T, text []byte) {
		tool, err := jsonjs.Parse(text)
		if err != nil || tool.Kind() != jsonjs.Object {
			return
		}
		c, err := toollist.OpenReader("fuzz.json", bytes.NewReader([]byte(`{"tools":[`+string(text)+`]}`)), toollist.Options{})
		if err != nil {
			return
		}
		if _, err := toollist.ProfileBytes(c); err != nil {
			t.Fatalf("profile: %v", err)
		}
		if fromText, parsed, ok := toollist.ProfileBothWays(c.Tools[0]); ok && fromText != parsed {
			t.Fatalf("the profile from the text:\n%s\nparsed:\n%s", fromText, parsed)
		}
		before := toollist.ModelReadBytes(tool)
		for _, tr := range []toollist.Transform{toollist.DropUnusedDefs(), toollist.HoistRepeated()} {
			got, n, err := toollist.Apply(tr, tool, "x")
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				continue
			}
			if after := toollist.ModelReadBytes(got); after >= before {
				t.Fatalf("%s: %d bytes before, %d after", tr.Name(), before, after)
			}
			checkSameMeaning(t, tr.Name(), tool, got)
		}
	})
}

// TestProfileTokens holds that each component's tokens add up to the
// tokenizer's count of the tool, and of the list.
func TestProfileTokens(t *testing.T) {
	toks, err := tokenize.Parse("o200k,cl100k")
	if err != nil {
		t.Fatal(err)
	}
	counters := []toollist.Counter{toks[0], toks[1]}
	for _, path := range append(profileCaptures(t), "testdata/demo.json") {
		c, err := toollist.Open(path, toollist.Options{})
		if err != nil {
			continue
		}
		p, err := toollist.ProfileBytes(c, counters...)
		if err != nil {
			t.Fatal(err)
		}
		for k, tk := range toks {
			var total, sum int64
			for i := range p.Tools() {
				tp := p.Tool(i)
				text, err := c.ModelReadText(i)
				if err != nil {
					t.Fatal(err)
				}
				want := int64(tk.Count(string(text)))
				total += want
				var got int64
				for _, cp := range tp.Components {
					got += cp.Tokenizers[k].Tokens
				}
				if got != want {
					t.Errorf("%s: %s: %s: components hold %d tokens, the tool %d", path, tp.Name, tk.Name(), got, want)
				}
			}
			for _, cp := range p.Components {
				sum += cp.Tokenizers[k].Tokens
			}
			if sum != total {
				t.Errorf("%s: %s: components hold %d tokens, the list %d", path, tk.Name(), sum, total)
			}
		}
		c.Close()
	}
}

// TestProfileTextWalk holds the profile read from each tool's text to the
// profile of the parsed tool, on every capture of the tests and generated
// tools; the text walk must take most of them.
func TestProfileTextWalk(t *testing.T) {
	var tools [][]byte
	for _, path := range append(profileCaptures(t), "testdata/demo.json") {
		c, err := toollist.Open(path, toollist.Options{})
		if err != nil {
			continue
		}
		for _, raw := range c.Tools {
			tools = append(tools, bytes.Clone(raw))
		}
		c.Close()
	}
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 400; i++ {
		tools = append(tools, []byte(genTool(r, i)))
	}
	walked := 0
	for _, raw := range tools {
		fromText, parsed, ok := toollist.ProfileBothWays(raw)
		if !ok {
			continue
		}
		walked++
		if fromText != parsed {
			t.Errorf("%s:\nfrom the text: %s\nparsed:        %s", raw, fromText, parsed)
		}
	}
	if walked < len(tools)/2 {
		t.Errorf("the text walk took %d tools of %d", walked, len(tools))
	}
}

// TestOpenProfile holds that the profile Open makes beside the what-ifs
// is the one ProfileBytes makes of the capture alone, on a list long
// enough to be measured and transformed on several goroutines.
func TestOpenProfile(t *testing.T) {
	data := benchcap.GenerateDefs(600, 1)
	o := toollist.Options{Transforms: []toollist.Transform{toollist.Lean(), toollist.DropUnusedDefs(), toollist.HoistRepeated()}, Profile: true}
	c, err := toollist.OpenReader("defs.json", bytes.NewReader(data), o)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := toollist.OpenReader("defs.json", bytes.NewReader(data), toollist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := toollist.ProfileBytes(alone)
	if err != nil {
		t.Fatal(err)
	}
	if c.Profile == nil || !reflect.DeepEqual(c.Profile, want) {
		t.Errorf("the profile made beside the what-ifs differs from the one made alone")
	}
	if len(c.Savings) != 3 {
		t.Errorf("%d savings, want 3", len(c.Savings))
	}
}

// TestToolInto holds the profile of each tool read into one room to the
// one Tool returns, on tools with components, wire members and tokens
// of every count.
func TestToolInto(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	var tools []string
	for i := 0; i < 60; i++ {
		tools = append(tools, genTool(r, i))
	}
	c, err := toollist.OpenReader("into.json", bytes.NewReader([]byte(`{"tools":[`+strings.Join(tools, ",")+`]}`)), toollist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := toollist.ProfileBytes(c)
	if err != nil {
		t.Fatal(err)
	}
	var tp toollist.ToolProfile
	for i := range p.Tools() {
		p.ToolInto(i, &tp)
		if d := cmp.Diff(p.Tool(i), tp); d != "" {
			t.Errorf("tool %d (-Tool +ToolInto):\n%s", i, d)
		}
	}
}
