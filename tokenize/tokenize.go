// Package tokenize counts tokens as OpenAI's byte-pair encodings do, with
// the vocabularies compiled into the binary: nothing is fetched at run
// time.
//
// Use it as
//
//	ts, err := tokenize.Parse("o200k,cl100k")
//	n := ts[0].Count(text)
//
// The stance: the toolkit's budget unit stays floor(bytes/3), the unit the
// service's own tests use; a real tokenizer's count is reported beside it,
// so rankings and savings can be read as a model's tokenizer reads them.
// Text is counted as ordinary text: a special token's spelling
// ("<|endoftext|>") in a tool description is split like any other words,
// as a client that sends the description to a model has it split.
//
// Names are the encodings' short names: o200k (o200k_base: GPT-4o, GPT-4.1,
// GPT-5, the o-series) and cl100k (cl100k_base: GPT-4, GPT-3.5). The long
// names are accepted too.
//
// The steps, as tiktoken takes them:
//
//  1. The text is split into pieces by the encoding's pattern, a regular
//     expression with backtracking and lookahead; the splitters here are
//     written out by hand and take the same decisions (split.go).
//  2. A piece that is a token is one token; any other is merged byte pair
//     by byte pair, the pair of lowest rank first (the leftmost on ties),
//     until no pair is a token. The counts of the pieces merged are kept
//     while a count runs, for the pieces that come again.
//
// The vocabularies are those github.com/tiktoken-go/tokenizer embeds,
// written once into hash tables that are compiled into the binary and
// read in place (vocab.go): nothing is built at start or when a
// tokenizer is first used. The counts are checked in tests against
// js-tiktoken in Node, on every character of the first two planes and on
// the test captures, and the pieces against its regular expressions.
package tokenize

import (
	"container/heap"
	"fmt"
	"strings"
	"sync"
)

// Tokenizer counts tokens in one encoding. It is safe for concurrent use.
type Tokenizer struct {
	name string
	enc  *encoding
}

// encoding is one encoding's splitter and vocabulary.
type encoding struct {
	o200k bool // split as o200k does; as cl100k otherwise
	vocab *vocab
	// merged holds maps from a piece that is not a token to its count,
	// one taken by each count running.
	merged sync.Pool
}

// Names lists the tokenizers known, by their short names.
var Names = []string{"o200k", "cl100k"}

// The encodings, loaded on first use (a vocabulary file's header read).
var (
	o200k  = sync.OnceValues(func() (*encoding, error) { return load(o200kVocab, true) })
	cl100k = sync.OnceValues(func() (*encoding, error) { return load(cl100kVocab, false) })
)

// encodingOf returns the encoding of a short name, and whether it is one.
func encodingOf(name string) (func() (*encoding, error), bool) {
	switch name {
	case "o200k":
		return o200k, true
	case "cl100k":
		return cl100k, true
	}
	return nil, false
}

func load(file string, o200k bool) (*encoding, error) {
	v, err := readVocab(file)
	if err != nil {
		return nil, err
	}
	return &encoding{o200k: o200k, vocab: v}, nil
}

// Canonical returns the short name of a tokenizer given by its short or
// long name (o200k_base -> o200k), and whether it is known.
func Canonical(name string) (string, bool) {
	n := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), "_base")
	_, ok := encodingOf(n)
	return n, ok
}

// Get returns the tokenizer named (short or long name).
func Get(name string) (*Tokenizer, error) {
	n, ok := Canonical(name)
	if !ok {
		return nil, fmt.Errorf("no tokenizer %q: use %s", name, strings.Join(Names, " or "))
	}
	load, _ := encodingOf(n)
	enc, err := load()
	if err != nil {
		return nil, fmt.Errorf("tokenizer %s: %v", n, err)
	}
	return &Tokenizer{name: n, enc: enc}, nil
}

// Parse returns the tokenizers of a comma-separated list such as
// "o200k,cl100k", in its order, each once.
func Parse(list string) ([]*Tokenizer, error) {
	var out []*Tokenizer
	seen := map[string]bool{}
	for _, part := range strings.Split(list, ",") {
		if strings.TrimSpace(part) == "" {
			return nil, fmt.Errorf("%q: an empty name in the list: use %s, comma-separated", list, strings.Join(Names, ","))
		}
		t, err := Get(part)
		if err != nil {
			return nil, err
		}
		if seen[t.name] {
			continue
		}
		seen[t.name] = true
		out = append(out, t)
	}
	return out, nil
}

// Name returns the tokenizer's short name (o200k).
func (t *Tokenizer) Name() string { return t.name }

// maxMerged bounds the pieces whose counts one count keeps.
const maxMerged = 1 << 14

// Count returns the number of tokens of text, special tokens' spellings
// counted as ordinary text. text should be valid UTF-8 (what a model reads
// of a tool always is); a byte that is not is a piece's character of its
// own, as U+FFFD would be, and counted as its bytes.
func (t *Tokenizer) Count(text string) int { return t.count(text, nil) }

// CountPieces counts text as Count does and calls each for every piece
// the encoding splits it into before merging (no token spans two pieces),
// with the piece's first byte and its tokens; the tokens add up to
// Count's.
func (t *Tokenizer) CountPieces(text string, each func(start, tokens int)) int {
	return t.count(text, each)
}

func (t *Tokenizer) count(text string, each func(start, tokens int)) int {
	e := t.enc
	var merged map[string]int
	if m, ok := e.merged.Get().(map[string]int); ok {
		merged = m
	}
	n := 0
	o200k := e.o200k
	for i := 0; i < len(text); {
		var end int
		if o200k {
			end = nextO200k(text, i)
		} else {
			end = nextCl100k(text, i)
		}
		p := text[i:end]
		start := i
		i = end
		if len(p) == 1 { // every byte is a token
			n++
			if each != nil {
				each(start, 1)
			}
			continue
		}
		if _, ok := e.vocab.rank(p); ok {
			n++
			if each != nil {
				each(start, 1)
			}
			continue
		}
		if k, ok := merged[p]; ok {
			n += k
			if each != nil {
				each(start, k)
			}
			continue
		}
		k := e.mergeCount(p)
		n += k
		if each != nil {
			each(start, k)
		}
		if merged == nil {
			merged = make(map[string]int)
		}
		if len(merged) < maxMerged {
			merged[strings.Clone(p)] = k
		}
	}
	if merged != nil {
		e.merged.Put(merged)
	}
	return n
}

// noRank marks a pair of parts that is no token.
const noRank = 1<<31 - 1

// mergeCount returns the number of tokens byte-pair merging makes of p,
// a piece that is not a token.
func (e *encoding) mergeCount(p string) int {
	if len(p) > 128 {
		return len(e.merge(p))
	}
	// tiktoken's way for short pieces: the parts' starts and the rank of
	// each part merged with the next, the lowest found by a scan.
	var startsBuf [129]uint8
	var ranksBuf [128]int32
	n := len(p)
	starts, ranks := startsBuf[:n+1], ranksBuf[:n]
	for i := range n + 1 {
		starts[i] = uint8(i)
	}
	rankOf := func(a, b uint8) int32 {
		if r, ok := e.vocab.rank(p[a:b]); ok {
			return int32(r)
		}
		return noRank
	}
	for i := range n - 1 {
		ranks[i] = rankOf(uint8(i), uint8(i+2))
	}
	ranks[n-1] = noRank
	parts := n
	for parts > 1 {
		best, at := int32(noRank), -1
		for i := range parts - 1 {
			if ranks[i] < best {
				best, at = ranks[i], i
			}
		}
		if at < 0 {
			break
		}
		// merge parts at and at+1
		copy(starts[at+1:], starts[at+2:parts+1])
		copy(ranks[at+1:], ranks[at+2:parts])
		parts--
		ranks[parts-1] = noRank
		if at+1 < parts {
			ranks[at] = rankOf(starts[at], starts[at+2])
		} else {
			ranks[at] = noRank
		}
		if at > 0 {
			ranks[at-1] = rankOf(starts[at-1], starts[at+1])
		}
	}
	return parts
}

// merge runs the byte-pair merges of piece and returns the tokens' start
// offsets. Every byte is a token, so merging always ends in tokens.
func (e *encoding) merge(p string) []int {
	n := len(p)
	// parts: a doubly linked list of token starts, one per byte at first.
	next := make([]int, n)
	prev := make([]int, n)
	for i := range n {
		next[i], prev[i] = i+1, i-1
	}
	end := func(i int) int {
		if next[i] >= n {
			return n
		}
		return next[i]
	}
	var h pairs
	push := func(i int) {
		if i < 0 || next[i] >= n {
			return
		}
		if r, ok := e.vocab.rank(p[i:end(next[i])]); ok {
			heap.Push(&h, pair{rank: r, start: i, end: end(next[i])})
		}
	}
	for i := 0; i+1 < n; i++ {
		push(i)
	}
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	for h.Len() > 0 {
		c := heap.Pop(&h).(pair)
		// A pair is stale when its left part was merged away or its
		// right part has grown since it was pushed.
		if !alive[c.start] || next[c.start] >= n || end(next[c.start]) != c.end {
			continue
		}
		r := next[c.start]
		alive[r] = false
		next[c.start] = next[r]
		if next[r] < n {
			prev[next[r]] = c.start
		}
		push(prev[c.start])
		push(c.start)
	}
	var starts []int
	for i := 0; i < n; i = next[i] {
		starts = append(starts, i)
	}
	return starts
}

// pair is two adjacent parts whose bytes p[start:end] are a token of rank.
type pair struct{ rank, start, end int }

// pairs is a heap of pairs: the lowest rank first, then the leftmost.
type pairs []pair

func (h pairs) Len() int { return len(h) }
func (h pairs) Less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].start < h[j].start
}
func (h pairs) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pairs) Push(x any)   { *h = append(*h, x.(pair)) }
func (h *pairs) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
