package toollist

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
)

// TestSimilarToolsWindow holds the similar-tools findings to their rule,
// applied with every cluster kept: a tool joins the newest cluster, of
// the maxReps of its shape started last, whose first tool it differs from
// in at most maxDiffValues values, else it starts one. The list is one
// shape: a few groups of near copies spread among many tools that
// resemble none, so that clusters leave the window, copies far apart
// start clusters of their own, and a group met again long after forms a
// cluster anew.
func TestSimilarToolsWindow(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	const fields = 8
	word := func() string { return fmt.Sprintf("w%06d", r.Intn(1_000_000)) }
	var bases [5][fields]string
	for g := range bases {
		for f := range fields {
			bases[g][f] = word()
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	const n = 400
	for i := range n {
		var vals [fields]string
		// near copies: of each group every 35 tools at first, then
		// too far apart to meet, then of one group every 9 tools
		g := -1
		switch {
		case i < 70 && i%7 == 0:
			g = (i / 7) % len(bases)
		case i >= 150 && i < 250 && i%31 == 0:
			g = (i / 31) % len(bases)
		case i >= 250 && i%9 == 0:
			g = 0
		}
		if g >= 0 {
			// its group's values, one changed
			vals = bases[g]
			vals[r.Intn(fields)] = word()
		} else {
			for f := range fields {
				vals[f] = word()
			}
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"t%d","description":"Does it.","inputSchema":{"type":"object","properties":{`, i)
		for f, v := range vals {
			if f > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"p%d":{"type":"string","description":%q}`, f, v)
		}
		b.WriteString(`}}}`)
	}
	b.WriteString(`]}`)
	c, err := OpenReader("similar.json", bytes.NewReader(b.Bytes()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := ProfileBytes(c)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range p.Findings {
		if f.Kind == FindSimilarTools {
			got = append(got, strings.Join(f.Tools, " "))
		}
	}
	// the rule, every cluster kept
	type cl struct {
		first []uint64
		tools []string
	}
	var cs []*cl
	for i, text := range c.Tools {
		tool, err := jsonjs.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		var tc toolCross
		crossOf(tool, &tc)
		name := fmt.Sprintf("t%d", i)
		joined := false
		for j := len(cs) - 1; j >= 0 && j >= len(cs)-maxReps; j-- {
			if differ(cs[j].first, tc.vals) <= maxDiffValues {
				cs[j].tools = append(cs[j].tools, name)
				joined = true
				break
			}
		}
		if !joined {
			cs = append(cs, &cl{first: tc.vals, tools: []string{name}})
		}
	}
	var want []string
	for _, k := range cs {
		if len(k.tools) > 1 {
			want = append(want, strings.Join(k.tools, " "))
		}
	}
	if len(want) < 2 || len(want) > maxFindings || len(cs) < 3*maxReps {
		t.Fatalf("%d clusters, %d of them findings: the list tests nothing\n%s", len(cs), len(want), strings.Join(want, "\n"))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("similar tools:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSortBatch holds the bucket sort of a batch to a stable sort by
// hash, on batches short and long, with hashes met several times and
// hashes that share their top bits.
func TestSortBatch(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var x hashIndex
	for _, n := range []int{0, 1, 63, 64, 65, 1000, 5000} {
		for round := range 3 {
			x.batch = x.batch[:0]
			for i := range n {
				h := r.Uint64()
				switch r.Intn(4) {
				case 0:
					if len(x.batch) > 0 {
						h = x.batch[r.Intn(len(x.batch))].h // met again
					}
				case 1:
					h = h>>40 | 0xabc<<52 // one bucket
				}
				x.batch = append(x.batch, entry{h: h, t: int32(i / 3), j: int32(i)})
			}
			want := slices.Clone(x.batch)
			slices.SortStableFunc(want, func(a, c entry) int { return cmp.Compare(a.h, c.h) })
			if got := x.sortBatch(); !slices.Equal(got, want) {
				t.Fatalf("%d entries, round %d: the sorted batch differs", n, round)
			}
		}
	}
}
