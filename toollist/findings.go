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

// crossTools gathers what tools repeat, tool by tool.
type crossTools struct {
	n         int
	subs      map[string][]int // subschema text -> tools (distinct, ascending)
	sentences map[string][]int
	shapes    map[string][]shapeOf // shape -> tools of that shape
	names     []string
}

type shapeOf struct {
	tool   int
	values []string
	bytes  int64
}

func newCrossTools() *crossTools {
	return &crossTools{subs: map[string][]int{}, sentences: map[string][]int{}, shapes: map[string][]shapeOf{}}
}

func addTool(m map[string][]int, k string, t int) {
	l := m[k]
	if len(l) > 0 && l[len(l)-1] == t {
		return
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
	var walk func(v jsonjs.Value, root bool)
	walk = func(v jsonjs.Value, root bool) {
		switch v.Kind() {
		case jsonjs.Array:
			for _, e := range v.Elems() {
				walk(e, false)
			}
		case jsonjs.Object:
			if !root {
				if txt := jsonjs.Stringify(v); len(txt) >= minRepeat {
					addTool(x.subs, string(txt), t)
				}
			}
			for _, m := range v.Members() {
				switch {
				case m.Key == "description" && m.Value.Kind() == jsonjs.String:
					for _, s := range sentences(m.Value.Str()) {
						addTool(x.sentences, s, t)
					}
				case dataKey(m.Key):
				case mapKey(m.Key) && m.Value.Kind() == jsonjs.Object:
					for _, d := range m.Value.Members() {
						walk(d.Value, false)
					}
				default:
					walk(m.Value, false)
				}
			}
		}
	}
	walk(s, true)
	var vals []string
	shape := shapeText(jsonjs.ObjectValue([]jsonjs.Member{{Key: "d", Value: descOrNull(tool)}, {Key: "s", Value: s}}), &vals)
	x.shapes[shape] = append(x.shapes[shape], shapeOf{tool: t, values: vals, bytes: ModelReadBytes(tool)})
}

func descOrNull(tool jsonjs.Value) jsonjs.Value {
	d, _ := tool.Get("description")
	return d
}

// shapeText writes v with every scalar replaced by "?" and appends the
// scalars' JSON texts to vals, in order.
func shapeText(v jsonjs.Value, vals *[]string) string {
	var b strings.Builder
	var walk func(v jsonjs.Value)
	walk = func(v jsonjs.Value) {
		switch v.Kind() {
		case jsonjs.Array:
			b.WriteByte('[')
			for i, e := range v.Elems() {
				if i > 0 {
					b.WriteByte(',')
				}
				walk(e)
			}
			b.WriteByte(']')
		case jsonjs.Object:
			b.WriteByte('{')
			for i, m := range v.Members() {
				if i > 0 {
					b.WriteByte(',')
				}
				b.Write(jsonjs.AppendQuote(nil, m.Key))
				b.WriteByte(':')
				walk(m.Value)
			}
			b.WriteByte('}')
		default:
			b.WriteByte('?')
			*vals = append(*vals, string(jsonjs.Stringify(v)))
		}
	}
	walk(v)
	return b.String()
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
	var subs []Finding
	for txt, ts := range x.subs {
		if len(ts) < 2 {
			continue
		}
		subs = append(subs, x.finding(FindRepeatedSubschema, txt, ts, int64(len(txt))))
	}
	sortFindings(subs)
	var kept []Finding
	for _, f := range subs {
		if len(kept) == maxFindings {
			break
		}
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
		done := make([]bool, len(group))
		for i := range group {
			if done[i] {
				continue
			}
			cluster := []int{group[i].tool}
			small := group[i].bytes
			for j := i + 1; j < len(group); j++ {
				if done[j] || differ(group[i].values, group[j].values) > maxDiffValues {
					continue
				}
				done[j] = true
				cluster = append(cluster, group[j].tool)
				small = min(small, group[j].bytes)
			}
			if len(cluster) > 1 {
				sort.Ints(cluster)
				sims = append(sims, x.finding(FindSimilarTools, "", cluster, small))
			}
		}
	}
	sortFindings(sims)
	if len(sims) > maxFindings {
		sims = sims[:maxFindings]
	}
	return append(out, sims...)
}

func differ(a, b []string) int {
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
