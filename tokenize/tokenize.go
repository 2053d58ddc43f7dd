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
//  1. The text is split into pieces by the encoding's pattern, interpreted
//     by regexp2 (backtracking, lookahead).
//  2. A piece that is a token is one token; any other is merged byte pair
//     by byte pair, the pair of lowest rank first (the leftmost on ties),
//     until no pair is a token.
//
// The vocabularies are those github.com/tiktoken-go/tokenizer embeds; its
// own splitter is not used, because its compiled matcher leaves U+007F
// out of the punctuation classes and does not backtrack out of a run of
// whitespace that ends in a newline ("a \n \n" is one piece in tiktoken),
// so it miscounts such texts. The counts are checked in tests against
// js-tiktoken in Node, on every character of the first two planes and on
// the test captures.
package tokenize

import (
	"container/heap"
	"fmt"
	"strings"
	"sync"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer"
)

// Tokenizer counts tokens in one encoding. It is safe for concurrent use.
type Tokenizer struct {
	name string
	enc  *encoding
}

// encoding is one encoding's split pattern and token ranks, loaded once.
type encoding struct {
	split *regexp2.Regexp
	ranks map[string]int
}

// Names lists the tokenizers known, by their short names.
var Names = []string{"o200k", "cl100k"}

// The encodings' split patterns as tiktoken defines them, each inside a
// group of its own: the vocabulary library registers a compiled matcher
// for the bare pattern, and the group makes regexp2 interpret it instead.
var encodings = map[string]func() (*encoding, error){
	"o200k": sync.OnceValues(func() (*encoding, error) {
		return load(tokenizer.O200kBase, `(?:[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)`)
	}),
	"cl100k": sync.OnceValues(func() (*encoding, error) {
		return load(tokenizer.Cl100kBase, `(?:(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)`)
	}),
}

// vocabSize bounds the token ids looked up: both vocabularies' ordinary
// tokens lie below it.
const vocabSize = 200_100

// load reads the ranks of an encoding out of the library's vocabulary:
// each token id decoded is the token's bytes.
func load(e tokenizer.Encoding, pattern string) (*encoding, error) {
	c, err := tokenizer.Get(e)
	if err != nil {
		return nil, err
	}
	re, err := regexp2.Compile(pattern, regexp2.None)
	if err != nil {
		return nil, err
	}
	ranks := make(map[string]int, vocabSize)
	ids := make([]uint, 1)
	for id := range vocabSize {
		ids[0] = uint(id)
		if s, err := c.Decode(ids); err == nil && s != "" {
			ranks[s] = id
		}
	}
	if len(ranks) < 50_000 {
		return nil, fmt.Errorf("%s: only %d tokens in the vocabulary", e, len(ranks))
	}
	return &encoding{split: re, ranks: ranks}, nil
}

// Canonical returns the short name of a tokenizer given by its short or
// long name (o200k_base -> o200k), and whether it is known.
func Canonical(name string) (string, bool) {
	n := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), "_base")
	_, ok := encodings[n]
	return n, ok
}

// Get returns the tokenizer named (short or long name).
func Get(name string) (*Tokenizer, error) {
	n, ok := Canonical(name)
	if !ok {
		return nil, fmt.Errorf("no tokenizer %q: use %s", name, strings.Join(Names, " or "))
	}
	enc, err := encodings[n]()
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

// Count returns the number of tokens of text, special tokens' spellings
// counted as ordinary text. text should be valid UTF-8 (what a model reads
// of a tool always is).
func (t *Tokenizer) Count(text string) int {
	n := 0
	m, err := t.enc.split.FindStringMatch(text)
	for err == nil && m != nil {
		n += t.enc.pieceTokens(m.String())
		m, err = t.enc.split.FindNextMatch(m)
	}
	if err != nil {
		// regexp2 fails only on a timeout, and none is set.
		panic("tokenize: " + err.Error())
	}
	return n
}

// pieceTokens returns the number of tokens of one piece of the split.
func (e *encoding) pieceTokens(p string) int {
	if _, ok := e.ranks[p]; ok {
		return 1
	}
	return len(e.merge(p))
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
		if r, ok := e.ranks[p[i:end(next[i])]]; ok {
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
