package toollist

import (
	"bytes"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/tokenize"
)

// TestTokenizersAgainstNode counts every tool of every capture Measure
// accepts with o200k and cl100k, and holds the counts, per tool and in
// total, to js-tiktoken's in Node on the same files.
func TestTokenizersAgainstNode(t *testing.T) {
	ts, err := tokenize.Parse("o200k,cl100k")
	if err != nil {
		t.Fatal(err)
	}
	counters := []Counter{ts[0], ts[1]}
	var paths []string
	var got []jsonjs.Value
	tools := 0
	for _, path := range nodeCorpus(t) {
		c, err := readCapture(path)
		if err != nil {
			continue
		}
		f, err := measure(c, nil)
		if err != nil {
			continue
		}
		if err := countTokens(c, nil, f, counters); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		paths = append(paths, path)
		got = append(got, jsonjs.ObjectValue(figuresMembers(f)))
		tools += f.Tools
	}
	if len(paths) < 10 || tools < 50 {
		t.Fatalf("only %d captures (%d tools) to compare", len(paths), tools)
	}
	out := nodeoracle.MeasureTokenizers(t, []string{"o200k", "cl100k"}, paths...)
	want, err := jsonjs.Parse(out)
	if err != nil {
		t.Fatalf("Node's reports: %v", err)
	}
	if want.Kind() != jsonjs.Array || len(want.Elems()) != len(paths) {
		t.Fatalf("Node wrote %s, not %d reports", want.Kind(), len(paths))
	}
	for i, w := range want.Elems() {
		g := got[i]
		wt, _ := w.Get("tokenizers")
		gt, _ := g.Get("tokenizers")
		if a, b := jsonjs.Stringify(gt), jsonjs.Stringify(wt); !bytes.Equal(a, b) {
			t.Errorf("%s: tokenizers %s, js-tiktoken %s", paths[i], a, b)
		}
		wp, _ := w.Get("per_tool")
		gp, _ := g.Get("per_tool")
		for j, wtool := range wp.Elems() {
			wt, _ := wtool.Get("tokenizers")
			gt, _ := gp.Elems()[j].Get("tokenizers")
			if a, b := jsonjs.Stringify(gt), jsonjs.Stringify(wt); !bytes.Equal(a, b) {
				t.Errorf("%s: per_tool[%d]: tokenizers %s, js-tiktoken %s", paths[i], j, a, b)
			}
		}
	}
}

// TestReadFiguresKeepsTokenizers reads back a report with tokenizers.
func TestReadFiguresKeepsTokenizers(t *testing.T) {
	ts, _ := tokenize.Parse("o200k")
	c, err := readCapture("testdata/demo.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := measure(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := countTokens(c, nil, f, []Counter{ts[0]}); err != nil {
		t.Fatal(err)
	}
	text := append(AppendFiguresJSON([]byte("{"), f), '}')
	back, ok, err := parseReport("r.json", text)
	if !ok || err != nil {
		t.Fatalf("parseReport: %v %v", ok, err)
	}
	if again := append(AppendFiguresJSON([]byte("{"), back), '}'); !bytes.Equal(again, text) {
		t.Errorf("read back:\n%s\nwant\n%s", again, text)
	}
	bad := bytes.Replace(text, []byte(`"tokenizers":{"o200k":722}`), []byte(`"tokenizers":{"o200k":"x"}`), 1)
	if _, _, err := parseReport("r.json", bad); err == nil || err.Error() != "r.json: a measure --json report, but tokenizers is not an object of counts" {
		t.Errorf("bad tokenizers: %v", err)
	}
	// a tool counted with a tokenizer the totals do not name
	at := bytes.Index(text, []byte(`,"tokenizers":{`))
	end := at + bytes.IndexByte(text[at:], '}') + 1
	noTotals := append(append([]byte{}, text[:at]...), text[end:]...)
	if _, _, err := parseReport("r.json", noTotals); err == nil || err.Error() != "r.json: a measure --json report, but per_tool[0] has o200k counts, and the totals none" {
		t.Errorf("per-tool counts without totals: %v", err)
	}
}
