package toollist

import (
	"cmp"
	"hash/maphash"
	"math/bits"
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
// order. What each tool gives is a toolCross, taken in a batch of tools at
// a time (flush) while the batch's toolCross are still whole; what is
// kept grows with what is repeated, not with the list: a subschema,
// sentence or shape met in one tool only is a hash and that tool's index
// (see hashIndex). The texts of the few reported are read again from
// their first tool.
type crossTools struct {
	n    int32              // the tools taken in
	name func(t int) string // the t-th tool's name, as reported
	// subs and sentences: each hash's one tool (>= 0), or -1-k for the
	// k-th of reps
	subs      hashIndex
	subReps   []crossSub
	sentences hashIndex
	sentReps  []crossSent
	// shapes: each shape's one tool (>= 0), or -1-k for the k-th of
	// groups
	shapes hashIndex
	groups [][]*cluster
	// what the batch's entries stand for, by their j: the subschemas,
	// the sentences (views into the tools' text) and the shapes' values
	subBuf  []subtree
	sentBuf []string
	valBuf  [][]uint64
	bytes   func(t int) int64                 // the t-th tool's model-read bytes
	tool    func(i int) (jsonjs.Value, error) // the i-th tool, parsed again
}

// hashIndex is what crossTools knows of each hash of one kind it has met:
// a value, the one tool it was met in (>= 0) or -1-k for the k-th of the
// kind's repeated ones. Most hashes are met once, so it is kept as two
// sorted arrays, 12 bytes a hash (a map takes two to four times that);
// the entries of a batch of tools are taken in at once, in order of hash,
// by one pass over the arrays.
type hashIndex struct {
	hs    []uint64 // ascending
	vs    []int32  // the value of each of hs
	batch []entry  // met since the last flush, in the order met
	fresh []entry  // scratch: the hashes of a batch not met before
	// scratch of sortBatch: the batch sorted, and the count of each
	// bucket
	sorted []entry
	counts []int32
}

// sortBatch returns the batch sorted by hash, the entries of one hash in
// the order met (the tools', in order): dealt into buckets by the hash's
// top bits, about one entry a bucket, then each bucket sorted in place.
func (x *hashIndex) sortBatch() []entry {
	b := x.batch
	if len(b) < 64 {
		slices.SortStableFunc(b, func(a, c entry) int { return cmp.Compare(a.h, c.h) })
		return b
	}
	width := bits.Len(uint(len(b)))
	shift := 64 - width
	x.counts = slices.Grow(x.counts[:0], 1<<width+1)[:1<<width+1]
	clear(x.counts)
	for _, e := range b {
		x.counts[e.h>>shift+1]++
	}
	for k := 1; k < len(x.counts); k++ {
		x.counts[k] += x.counts[k-1]
	}
	out := slices.Grow(x.sorted[:0], len(b))[:len(b)]
	for _, e := range b {
		k := e.h >> shift
		out[x.counts[k]] = e
		x.counts[k]++
	}
	// each bucket in order: insertion, which keeps the order met
	for i := 1; i < len(out); i++ {
		e := out[i]
		j := i
		for ; j > 0 && out[j-1].h > e.h; j-- {
			out[j] = out[j-1]
		}
		out[j] = e
	}
	x.batch, x.sorted = out, b
	return out
}

// entry is a hash met in tool t; j is where what it stands for lies in
// the kind's buffer of the batch (crossTools.subBuf, ...).
type entry struct {
	h    uint64
	t, j int32
}

// flush takes in the batch: for each hash, in the order of the tools it
// was met in, step returns its value after the entry (ok: whether it had
// one before).
func (x *hashIndex) flush(step func(v int32, ok bool, e entry) int32) {
	b := x.sortBatch()
	fresh := x.fresh[:0]
	pos := 0
	for i := 0; i < len(b); {
		h := b[i].h
		k, found := slices.BinarySearch(x.hs[pos:], h)
		pos += k
		var v int32
		if found {
			v = x.vs[pos]
		}
		for ok := found; i < len(b) && b[i].h == h; i, ok = i+1, true {
			v = step(v, ok, b[i])
		}
		if found {
			x.vs[pos] = v
		} else {
			fresh = append(fresh, entry{h: h, t: v})
		}
	}
	// merge the fresh hashes in, from the back
	n, m := len(x.hs), len(fresh)
	x.hs, x.vs = slices.Grow(x.hs, m)[:n+m], slices.Grow(x.vs, m)[:n+m]
	for i, j, k := n-1, m-1, n+m-1; j >= 0; k-- {
		if i >= 0 && x.hs[i] > fresh[j].h {
			x.hs[k], x.vs[k] = x.hs[i], x.vs[i]
			i--
		} else {
			x.hs[k], x.vs[k] = fresh[j].h, fresh[j].t
			j--
		}
	}
	x.batch, x.fresh = b[:0], fresh[:0]
}

// crossSub is a subschema met in several tools: the tools (distinct,
// ascending), the first the one it is read again from.
type crossSub struct {
	st    subtree
	tools []int32
	// j: where it lay in the second tool's batch (tool by tool, each in
	// its walk's order), which orders subschemas the tools do not
	j int32
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

// rereader returns what reads the i-th tool again for the findings, a
// tool the pass b is past: it gives back the pages behind the pass again,
// since a fault on a mapped file maps in the whole folio of the page cache
// it falls in (up to 2 MiB), which would otherwise stay to the end. A
// parsed tool holds no view into the text.
func (c *Capture) rereader(b *behind) func(i int) (jsonjs.Value, error) {
	return func(i int) (jsonjs.Value, error) {
		v, err := c.tool(i)
		c.pg.release(0, b.from)
		return v, err
	}
}

func newCrossTools(tool func(i int) (jsonjs.Value, error), bytes func(t int) int64, name func(t int) string) *crossTools {
	return &crossTools{tool: tool, bytes: bytes, name: name}
}

// repeat returns the value of a hash (v, when ok) once met in tool t: a
// second tool makes it repeated (rep makes its entry, and returns its
// index); last returns the last tool of the k-th repeated one, add adds t
// to it.
func repeat(v int32, ok bool, t int32, last func(k int32) int32, rep func(first int32) int32, add func(k int32)) int32 {
	switch {
	case !ok:
		return t
	case v >= 0:
		if v != t {
			return -1 - rep(v)
		}
	default:
		if k := -1 - v; last(k) != t {
			add(k)
		}
	}
	return v
}

// add takes in the next tool (they come in order); what it gives is
// taken in by the next flush, which must come before tc changes.
func (x *crossTools) add(tc *toolCross) {
	t := x.n
	x.n++
	for j, h := range tc.sents {
		x.sentences.batch = append(x.sentences.batch, entry{h: h, t: t, j: int32(len(x.sentBuf))})
		x.sentBuf = append(x.sentBuf, tc.texts[j])
	}
	for _, st := range tc.subs {
		x.subs.batch = append(x.subs.batch, entry{h: st.h, t: t, j: int32(len(x.subBuf))})
		x.subBuf = append(x.subBuf, st)
	}
	if tc.hasShape {
		x.shapes.batch = append(x.shapes.batch, entry{h: tc.shape, t: t, j: int32(len(x.valBuf))})
		x.valBuf = append(x.valBuf, tc.vals)
	}
}

// flush takes in what the tools added since the last flush gave.
func (x *crossTools) flush() {
	x.sentences.flush(func(v int32, ok bool, e entry) int32 {
		return repeat(v, ok, e.t,
			func(k int32) int32 { l := x.sentReps[k].tools; return l[len(l)-1] },
			func(first int32) int32 {
				x.sentReps = append(x.sentReps, crossSent{text: strings.Clone(x.sentBuf[e.j]), tools: []int32{first, e.t}})
				return int32(len(x.sentReps) - 1)
			},
			func(k int32) { x.sentReps[k].tools = append(x.sentReps[k].tools, e.t) })
	})
	x.subs.flush(func(v int32, ok bool, e entry) int32 {
		return repeat(v, ok, e.t,
			func(k int32) int32 { l := x.subReps[k].tools; return l[len(l)-1] },
			func(first int32) int32 {
				x.subReps = append(x.subReps, crossSub{st: x.subBuf[e.j], tools: []int32{first, e.t}, j: e.j})
				return int32(len(x.subReps) - 1)
			},
			func(k int32) { x.subReps[k].tools = append(x.subReps[k].tools, e.t) })
	})
	x.shapes.flush(x.shape)
	clear(x.sentBuf)
	clear(x.valBuf)
	x.sentBuf, x.subBuf, x.valBuf = x.sentBuf[:0], x.subBuf[:0], x.valBuf[:0]
}

// shape takes in the tool of an entry of shapes.
func (x *crossTools) shape(v int32, ok bool, e entry) int32 {
	t, vals := e.t, x.valBuf[e.j]
	if !ok {
		return t
	}
	if v >= 0 {
		// the second tool of the shape: the first's values, read again
		first := x.valuesOf(int(v))
		x.groups = append(x.groups, []*cluster{{first: first, tools: []int32{v}, small: x.bytes(int(v))}})
		v = -1 - int32(len(x.groups)-1)
	}
	k := -1 - v
	cs := x.groups[k]
	// the tool joins the first cluster whose first tool it differs from
	// in at most maxDiffValues values, of the maxReps clusters started
	// last; else it starts one
	for j := len(cs) - 1; j >= 0 && j >= len(cs)-maxReps; j-- {
		if differ(cs[j].first, vals) <= maxDiffValues {
			cs[j].tools = append(cs[j].tools, t)
			cs[j].small = min(cs[j].small, x.bytes(int(t)))
			return v
		}
	}
	// the cluster leaving the last maxReps is met by no tool again: left
	// with one tool, it is no finding, and its room serves the new one
	var c *cluster
	if n := len(cs); n >= maxReps && len(cs[n-maxReps].tools) == 1 {
		c = cs[n-maxReps]
		cs = append(cs[:n-maxReps], cs[n-maxReps+1:]...)
		c.first, c.tools = append(c.first[:0], vals...), append(c.tools[:0], t)
		c.small = x.bytes(int(t))
	} else {
		c = &cluster{first: slices.Clone(vals), tools: []int32{t}, small: x.bytes(int(t))}
	}
	x.groups[k] = append(cs, c)
	return v
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
	x.flush()
	out := []Finding{}
	// subschemas, largest savings first, then the first met first (by
	// its first two tools and its place in the second, never by hash,
	// whose seed each run draws anew); a subschema inside one already
	// reported for the same tools is left out
	reps := x.subReps
	save := func(c *crossSub) int64 { return int64(c.st.n) * int64(len(c.tools)-1) }
	sort.Slice(reps, func(i, j int) bool {
		a, b := &reps[i], &reps[j]
		if sa, sb := save(a), save(b); sa != sb {
			return sa > sb
		}
		if a.tools[0] != b.tools[0] {
			return a.tools[0] < b.tools[0]
		}
		if a.tools[1] != b.tools[1] {
			return a.tools[1] < b.tools[1]
		}
		return a.j < b.j
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

// differ counts the values a and b (of one shape) differ in, up to
// maxDiffValues+1: past that, how many more does not matter.
func differ(a, b []uint64) int {
	if len(a) != len(b) {
		return maxDiffValues + 1 // two shapes with one hash
	}
	n := 0
	for i := range a {
		if a[i] != b[i] {
			if n++; n > maxDiffValues {
				break
			}
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
