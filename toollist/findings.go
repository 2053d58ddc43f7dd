package toollist

import (
	"hash/maphash"
	"slices"
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

// crossTools gathers what tools repeat, tool by tool, in the capture's
// order. What each tool gives is a toolCross, dropped once added; what is
// kept grows with what is repeated, not with the list: a subschema,
// sentence or shape met in one tool only is a hash and that tool's index.
// The texts of the few reported are read again from their first tool.
type crossTools struct {
	n    int32              // the tools taken in
	name func(t int) string // the t-th tool's name, as reported
	// subs and sentences: hash -> the one tool it was met in (>= 0), or
	// -1-k for the k-th of reps
	subs      map[uint64]int32
	subReps   []crossSub
	sentences map[uint64]int32
	sentReps  []crossSent
	// shapes: shape -> the one tool of that shape (>= 0), or -1-k for
	// the k-th of groups
	shapes map[uint64]int32
	groups [][]*cluster
	bytes  func(t int) int64                 // the t-th tool's model-read bytes
	tool   func(i int) (jsonjs.Value, error) // the i-th tool, parsed again
}

// crossSub is a subschema met in several tools: the tools (distinct,
// ascending), the first the one it is read again from.
type crossSub struct {
	st    subtree
	tools []int32
}

// crossSent is a sentence met in several tools.
type crossSent struct {
	text  string
	tools []int32
}

// cluster is tools of one shape whose values differ from its first
// tool's in at most maxDiffValues.
type cluster struct {
	first []uint64 // the first tool's values
	tools []int32
	small int64
}

// toolCross is what one tool gives the findings: the sentences of its
// descriptions, the subschemas of its inputSchema that are large enough,
// and its shape (the hash of its description and inputSchema with every
// scalar left out) with the scalars' hashes, in order.
type toolCross struct {
	sents    []uint64
	texts    []string // the sentences, views into the tool's text, not kept
	subs     []subtree
	hasShape bool
	shape    uint64
	vals     []uint64
}

func (tc *toolCross) reset() {
	clear(tc.texts)
	tc.sents, tc.texts, tc.subs, tc.vals = tc.sents[:0], tc.texts[:0], tc.subs[:0], tc.vals[:0]
	tc.hasShape, tc.shape = false, 0
}

// sentence adds the sentences of a description.
func (tc *toolCross) sentence(s string) {
	forSentences(s, func(t string) {
		tc.sents = append(tc.sents, maphash.String(hashSeed, t))
		tc.texts = append(tc.texts, t)
	})
}

func newCrossTools(tool func(i int) (jsonjs.Value, error), bytes func(t int) int64, name func(t int) string) *crossTools {
	return &crossTools{subs: map[uint64]int32{}, sentences: map[uint64]int32{}, shapes: map[uint64]int32{}, tool: tool, bytes: bytes, name: name}
}

// seen adds tool t to what m says of hash h: a second tool makes it
// repeated (rep makes its entry, and returns its index).
func seen(m map[uint64]int32, h uint64, t int32, last func(k int32) int32, rep func(first int32) int32, add func(k int32)) {
	v, ok := m[h]
	switch {
	case !ok:
		m[h] = t
	case v >= 0:
		if v != t {
			m[h] = -1 - rep(v)
		}
	default:
		if k := -1 - v; last(k) != t {
			add(k)
		}
	}
}

// add takes in the next tool (they come in order).
func (x *crossTools) add(tc *toolCross) {
	t := x.n
	x.n++
	for j, h := range tc.sents {
		seen(x.sentences, h, t,
			func(k int32) int32 { l := x.sentReps[k].tools; return l[len(l)-1] },
			func(first int32) int32 {
				x.sentReps = append(x.sentReps, crossSent{text: strings.Clone(tc.texts[j]), tools: []int32{first, t}})
				return int32(len(x.sentReps) - 1)
			},
			func(k int32) { x.sentReps[k].tools = append(x.sentReps[k].tools, t) })
	}
	for _, st := range tc.subs {
		seen(x.subs, st.h, t,
			func(k int32) int32 { l := x.subReps[k].tools; return l[len(l)-1] },
			func(first int32) int32 {
				x.subReps = append(x.subReps, crossSub{st: st, tools: []int32{first, t}})
				return int32(len(x.subReps) - 1)
			},
			func(k int32) { x.subReps[k].tools = append(x.subReps[k].tools, t) })
	}
	if !tc.hasShape {
		return
	}
	v, ok := x.shapes[tc.shape]
	if !ok {
		x.shapes[tc.shape] = t
		return
	}
	if v >= 0 {
		// the second tool of the shape: the first's values, read again
		first := x.valuesOf(int(v))
		x.groups = append(x.groups, []*cluster{{first: first, tools: []int32{v}, small: x.bytes(int(v))}})
		v = -1 - int32(len(x.groups)-1)
		x.shapes[tc.shape] = v
	}
	k := -1 - v
	cs := x.groups[k]
	// the tool joins the first cluster whose first tool it differs from
	// in at most maxDiffValues values, of the maxReps clusters started
	// last; else it starts one
	for j := len(cs) - 1; j >= 0 && j >= len(cs)-maxReps; j-- {
		if differ(cs[j].first, tc.vals) <= maxDiffValues {
			cs[j].tools = append(cs[j].tools, t)
			cs[j].small = min(cs[j].small, x.bytes(int(t)))
			return
		}
	}
	x.groups[k] = append(cs, &cluster{first: slices.Clone(tc.vals), tools: []int32{t}, small: x.bytes(int(t))})
}

// valuesOf returns the scalars' hashes of the t-th tool's shape.
func (x *crossTools) valuesOf(t int) []uint64 {
	tool, err := x.tool(t)
	if err != nil {
		return nil // read once already: it does not fail now
	}
	var tc toolCross
	crossOf(tool, &tc)
	return tc.vals
}

// crossOf gathers what the parsed tool gives the findings.
func crossOf(tool jsonjs.Value, tc *toolCross) {
	if d, ok := tool.Get("description"); ok && d.Kind() == jsonjs.String {
		tc.sentence(d.Str())
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
				tc.sentence(m.Value.Str())
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
			tc.subs = append(tc.subs, st)
		}
		return st
	}
	walk(s, true)
	tc.hasShape = true
	var sh subtree
	sh, tc.vals = shapeHash(jsonjs.ObjectValue([]jsonjs.Member{{Key: "d", Value: descOrNull(tool)}, {Key: "s", Value: s}}), tc.vals)
	tc.shape = sh.h
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
// scalars' hashes, in order, appended to vals.
func shapeHash(v jsonjs.Value, vals []uint64) (subtree, []uint64) {
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

// forSentences splits a description into sentences of at least
// minRepeat bytes (text ending at ". ", "! ", "? " or a line break) and
// calls each with each.
func forSentences(s string, each func(string)) {
	start := 0
	flush := func(end int) {
		t := strings.TrimSpace(s[start:end])
		if len(t) >= minRepeat {
			each(t)
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
}

func (x *crossTools) findings() []Finding {
	out := []Finding{}
	// subschemas, largest savings first, then the first met first (not
	// by hash, whose seed each run draws anew); a subschema inside one
	// already reported for the same tools is left out
	reps := x.subReps
	save := func(c *crossSub) int64 { return int64(c.st.n) * int64(len(c.tools)-1) }
	sort.SliceStable(reps, func(i, j int) bool {
		a, b := &reps[i], &reps[j]
		if sa, sb := save(a), save(b); sa != sb {
			return sa > sb
		}
		return a.tools[0] < b.tools[0]
	})
	parsed := map[int32]jsonjs.Value{}
	var kept []Finding
	for _, r := range reps {
		if len(kept) == maxFindings {
			break
		}
		first := r.tools[0]
		tool, ok := parsed[first]
		if !ok {
			var err error
			if tool, err = x.tool(int(first)); err != nil {
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
		f := x.finding(FindRepeatedSubschema, txt, r.tools, int64(r.st.n))
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
	for _, r := range x.sentReps {
		sents = append(sents, x.finding(FindRepeatedSentence, r.text, r.tools, int64(len(jsonjs.AppendQuote(nil, r.text)))-2))
	}
	sortFindings(sents)
	if len(sents) > maxFindings {
		sents = sents[:maxFindings]
	}
	out = append(out, sents...)
	var sims []Finding
	for _, cs := range x.groups {
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

// differ counts the values a and b (of one shape) differ in.
func differ(a, b []uint64) int {
	if len(a) != len(b) {
		return maxDiffValues + 1 // two shapes with one hash
	}
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

func (x *crossTools) finding(kind, txt string, ts []int32, bytes int64) Finding {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = x.name(int(t))
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
