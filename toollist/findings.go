package toollist

import (
	"sort"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// The kinds of Finding.
const (
	// FindRepeatedSubschema is a subschema that several tools carry,
	// identical to the byte: the model reads it once per tool.
	FindRepeatedSubschema = "repeated_subschema"
	// FindRepeatedSentence is a sentence that the descriptions of several
	// tools repeat.
	FindRepeatedSentence = "repeated_sentence"
	// FindSimilarTools is a cluster of tools whose input schemas have the
	// same shape and differ in at most maxDiffValues values: candidates to
	// merge into one tool with a parameter.
	FindSimilarTools = "similar_tools"
)

// minRepeat is the smallest subschema or sentence, in bytes, reported as
// repeated across tools; maxFindings caps each kind.
const (
	minRepeat     = 48
	maxFindings   = 10
	maxDiffValues = 3
	maxReps       = 64 // clusters of one shape a tool is compared with
)

// Finding is something a tool list repeats across its tools, with an
// estimate of what saying it once would save. It is an estimate, not a
// transform: how to say it once (a shared definition, a tool-list
// preamble, one tool with a parameter) depends on the client.
type Finding struct {
	// Kind is FindRepeatedSubschema, FindRepeatedSentence or
	// FindSimilarTools.
	Kind string `json:"kind"`
	// Text is the repeated subschema (as JSON.stringify writes it) or
	// sentence; empty for similar tools.
	Text string `json:"text,omitempty"`
	// Tools are the tools that carry it, in the capture's order.
	Tools []string `json:"tools"`
	// Bytes is the bytes of one copy (for similar tools, of one tool's
	// model-read text, the smallest).
	Bytes int64 `json:"bytes"`
	// EstimatedSavingBytes is Bytes times one less than the tools: what
	// the model would not read if the thing were read once. An estimate.
	EstimatedSavingBytes int64 `json:"estimated_saving_bytes"`
	// Estimate is always true: the saving is not exact.
	Estimate bool `json:"estimate"`
}

// crossTools gathers what tools repeat, tool by tool. Subschemas and
// shapes are kept as hashes (see subtree), so that what is kept grows with
// what is repeated, not with the list; the texts of the few reported are
// read again from their first tool.
type crossTools struct {
	n         int
	subs      map[subtree]*crossSub
	sentences map[string][]int
	shapes    map[subtree][]shapeOf // shape -> tools of that shape
	names     []string
	tool      func(i int) (jsonjs.Value, error) // the i-th tool, parsed again
}

// crossSub is a subschema met in several tools: the tools (distinct,
// ascending), the first the one it is read again from.
type crossSub struct {
	tools []int
}

type shapeOf struct {
	tool   int
	values []uint64
	bytes  int64
}

func newCrossTools(tool func(i int) (jsonjs.Value, error)) *crossTools {
	return &crossTools{subs: map[subtree]*crossSub{}, sentences: map[string][]int{}, shapes: map[subtree][]shapeOf{}, tool: tool}
}

func addTool(m map[string][]int, k string, t int) {
	l, ok := m[k]
	if len(l) > 0 && l[len(l)-1] == t {
		return
	}
	if !ok {
		k = strings.Clone(k) // not the whole description it was cut from
	}
	m[k] = append(l, t)
}

func (x *crossTools) add(tool jsonjs.Value, name string) {
	t := x.n
	x.n++
	x.names = append(x.names, name)
	if d, ok := tool.Get("description"); ok && d.Kind() == jsonjs.String {
		for _, s := range sentences(d.Str()) {
			addTool(x.sentences, s, t)
		}
	}
	s, ok := tool.Get("inputSchema")
	if !ok {
		return
	}
	var walk func(v jsonjs.Value, root bool) subtree
	mapping := func(v jsonjs.Value) subtree {
		b := startObject()
		for _, d := range v.Members() {
			b.member(d.Key, walk(d.Value, false))
		}
		return b.end()
	}
	walk = func(v jsonjs.Value, root bool) subtree {
		switch v.Kind() {
		case jsonjs.Array:
			b := startArray()
			for _, e := range v.Elems() {
				b.add(walk(e, false))
			}
			return b.end()
		case jsonjs.Object:
		default:
			return leafSubtree(v)
		}
		b := startObject()
		for _, m := range v.Members() {
			var st subtree
			switch {
			case m.Key == "description" && m.Value.Kind() == jsonjs.String:
				for _, s := range sentences(m.Value.Str()) {
					addTool(x.sentences, s, t)
				}
				st = leafSubtree(m.Value)
			case dataKey(m.Key):
				st = subtreeOf(m.Value)
			case mapKey(m.Key) && m.Value.Kind() == jsonjs.Object:
				st = mapping(m.Value)
			default:
				st = walk(m.Value, false)
			}
			b.member(m.Key, st)
		}
		st := b.end()
		if !root && st.n >= minRepeat {
			c := x.subs[st]
			switch {
			case c == nil:
				x.subs[st] = &crossSub{tools: []int{t}}
			case c.tools[len(c.tools)-1] != t:
				c.tools = append(c.tools, t)
			}
		}
		return st
	}
	walk(s, true)
	shape, vals := shapeHash(jsonjs.ObjectValue([]jsonjs.Member{{Key: "d", Value: descOrNull(tool)}, {Key: "s", Value: s}}))
	x.shapes[shape] = append(x.shapes[shape], shapeOf{tool: t, values: vals, bytes: ModelReadBytes(tool)})
}

// findSubtree returns the first value inside v (v itself included) whose
// subtree is st.
func findSubtree(v jsonjs.Value, st subtree) (jsonjs.Value, bool) {
	var found jsonjs.Value
	ok := false
	var walk func(v jsonjs.Value) subtree
	walk = func(v jsonjs.Value) subtree {
		var got subtree
		switch v.Kind() {
		case jsonjs.Array:
			b := startArray()
			for _, e := range v.Elems() {
				b.add(walk(e))
			}
			got = b.end()
		case jsonjs.Object:
			b := startObject()
			for _, m := range v.Members() {
				b.member(m.Key, walk(m.Value))
			}
			got = b.end()
		default:
			got = leafSubtree(v)
		}
		if !ok && got == st {
			found, ok = v, true
		}
		return got
	}
	walk(v)
	return found, ok
}

func descOrNull(tool jsonjs.Value) jsonjs.Value {
	d, _ := tool.Get("description")
	return d
}

// shapeHash returns the hash of v with every scalar left out, and the
// scalars' hashes, in order.
func shapeHash(v jsonjs.Value) (subtree, []uint64) {
	var vals []uint64
	var walk func(v jsonjs.Value) subtree
	walk = func(v jsonjs.Value) subtree {
		switch v.Kind() {
		case jsonjs.Array:
			b := startArray()
			for _, e := range v.Elems() {
				b.add(walk(e))
			}
			return b.end()
		case jsonjs.Object:
			b := startObject()
			for _, m := range v.Members() {
				b.member(m.Key, walk(m.Value))
			}
			return b.end()
		}
		vals = append(vals, leafSubtree(v).h)
		return subtree{h: tagNull}
	}
	st := walk(v)
	return subtree{h: st.h}, vals
}

// sentences splits a description into sentences of at least minRepeat
// bytes: text ending at ". ", "! ", "? " or a line break.
func sentences(s string) []string {
	var out []string
	start := 0
	flush := func(end int) {
		t := strings.TrimSpace(s[start:end])
		if len(t) >= minRepeat {
			out = append(out, t)
		}
		start = end
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			flush(i + 1)
		case '.', '!', '?':
			if i+1 < len(s) && s[i+1] == ' ' {
				flush(i + 1)
			}
		}
	}
	flush(len(s))
	return out
}

func (x *crossTools) findings() []Finding {
	out := []Finding{}
	// subschemas, largest savings first; a subschema inside one already
	// reported for the same tools is left out
	type rep struct {
		c    *crossSub
		st   subtree
		save int64
		n    int
	}
	var reps []rep
	for st, c := range x.subs {
		if len(c.tools) >= 2 {
			reps = append(reps, rep{c, st, int64(st.n) * int64(len(c.tools)-1), st.n})
		}
	}
	sort.Slice(reps, func(i, j int) bool {
		a, b := reps[i], reps[j]
		if a.save != b.save {
			return a.save > b.save
		}
		if a.c.tools[0] != b.c.tools[0] {
			return a.c.tools[0] < b.c.tools[0]
		}
		return a.st.h < b.st.h
	})
	parsed := map[int]jsonjs.Value{}
	var kept []Finding
	for _, r := range reps {
		if len(kept) == maxFindings {
			break
		}
		first := r.c.tools[0]
		tool, ok := parsed[first]
		if !ok {
			var err error
			if tool, err = x.tool(first); err != nil {
				continue // read once already: it does not fail now
			}
			parsed[first] = tool
		}
		s, _ := tool.Get("inputSchema")
		v, ok := findSubtree(s, r.st)
		if !ok {
			continue
		}
		txt := string(jsonjs.Stringify(v))
		f := x.finding(FindRepeatedSubschema, txt, r.c.tools, int64(r.n))
		inside := false
		for _, k := range kept {
			if len(k.Tools) == len(f.Tools) && strings.Contains(k.Text, f.Text) {
				inside = true
				break
			}
		}
		if !inside {
			kept = append(kept, f)
		}
	}
	out = append(out, kept...)
	var sents []Finding
	for txt, ts := range x.sentences {
		if len(ts) < 2 {
			continue
		}
		sents = append(sents, x.finding(FindRepeatedSentence, txt, ts, int64(len(jsonjs.AppendQuote(nil, txt)))-2))
	}
	sortFindings(sents)
	if len(sents) > maxFindings {
		sents = sents[:maxFindings]
	}
	out = append(out, sents...)
	var sims []Finding
	for _, group := range x.shapes {
		// each tool joins the first cluster whose first tool it differs
		// from in at most maxDiffValues values, of the maxReps clusters
		// started last; else it starts one
		type cluster struct {
			first shapeOf
			tools []int
			small int64
		}
		var cs []*cluster
		for _, g := range group {
			var joined *cluster
			for k := len(cs) - 1; k >= 0 && k >= len(cs)-maxReps; k-- {
				if differ(cs[k].first.values, g.values) <= maxDiffValues {
					joined = cs[k]
					break
				}
			}
			if joined == nil {
				cs = append(cs, &cluster{first: g, tools: []int{g.tool}, small: g.bytes})
				continue
			}
			joined.tools = append(joined.tools, g.tool)
			joined.small = min(joined.small, g.bytes)
		}
		for _, c := range cs {
			if len(c.tools) > 1 {
				sims = append(sims, x.finding(FindSimilarTools, "", c.tools, c.small))
			}
		}
	}
	sortFindings(sims)
	if len(sims) > maxFindings {
		sims = sims[:maxFindings]
	}
	return append(out, sims...)
}

func differ(a, b []uint64) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

func (x *crossTools) finding(kind, txt string, ts []int, bytes int64) Finding {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = x.names[t]
	}
	return Finding{Kind: kind, Text: txt, Tools: names, Bytes: bytes, EstimatedSavingBytes: bytes * int64(len(ts)-1), Estimate: true}
}

func sortFindings(fs []Finding) {
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].EstimatedSavingBytes != fs[j].EstimatedSavingBytes {
			return fs[i].EstimatedSavingBytes > fs[j].EstimatedSavingBytes
		}
		if fs[i].Text != fs[j].Text {
			return fs[i].Text < fs[j].Text
		}
		return strings.Join(fs[i].Tools, "\x00") < strings.Join(fs[j].Tools, "\x00")
	})
}
