package toollist

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// Transform is a what-if: a rewrite of each tool of a list, as a server
// change would make it.
//
// Lean, DropEmptyOutputSchemas and Words are applied by a walk over each
// tool's text (see whatIf); the others rewrite the parsed tool.
type Transform interface {
	// Name is the transform's name in reports, as --json writes it:
	// "lean", "drop_empty_output_schemas", "words".
	Name() string
	// finish reports what the transform could not apply after every tool
	// was seen.
	finish() error
}

// valueTransform is a transform that rewrites a parsed tool.
type valueTransform interface {
	Transform
	// apply returns the tool rewritten and how many changes it made.
	apply(tool jsonjs.Value, name string) (jsonjs.Value, int, error)
}

// MaxSafeInteger is Number.MAX_SAFE_INTEGER, the maximum that Lean drops.
const MaxSafeInteger = 9007199254740991

// Lean returns the transform the service applies to its listed schemas:
// in inputSchema and outputSchema, every member named "$schema" is removed
// at any depth, and so is every member named "maximum" whose value is the
// number 9007199254740991 (compared as doubles, as === would: 9.007199254740991e15
// counts too). Members are removed wherever those keys appear, as the
// service's leanSchema() does.
func Lean() Transform { return lean{} }

type lean struct{}

func (lean) Name() string  { return "lean" }
func (lean) finish() error { return nil }

// DropEmptyOutputSchemas returns the transform that removes each tool's
// outputSchema when it declares no property: it has no "properties", or
// "properties" is not an object with at least one member.
func DropEmptyOutputSchemas() Transform { return dropEmpty{} }

type dropEmpty struct{}

func (dropEmpty) Name() string  { return "drop_empty_output_schemas" }
func (dropEmpty) finish() error { return nil }

// Words is a set of new texts: tool descriptions and field descriptions.
type Words struct {
	path  string
	desc  map[string]string      // tool -> new description
	paths map[string][]wordsPath // tool -> new texts inside inputSchema
	trees map[string]*ptrTree    // tool -> its paths as a tree
	keys  map[string]string      // tool -> the first key naming it
	order []string               // tools in the file's order
	used  map[string]bool        // tools seen by the transform
}

type wordsPath struct {
	key     string
	pointer []string
	text    string
}

// ReadWords reads a words file: a JSON object whose keys name what to
// replace and whose values are the new texts. A key "TOOL" replaces the
// tool's description; a key "TOOL:POINTER" replaces the value at the JSON
// Pointer (RFC 6901) POINTER inside the tool's inputSchema, such as
// "a_task:/properties/action/description". The pointer starts at the first
// ":/" of the key.
func ReadWords(path string) (*Words, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseWords(path, data)
}

// ParseWords reads a words file from its bytes; path names it in errors.
func ParseWords(path string, data []byte) (*Words, error) {
	v, err := parseFile(path, data, `a JSON object from "TOOL" or "TOOL:/json/pointer" to the new text`)
	if err != nil {
		return nil, err
	}
	if v.Kind() != jsonjs.Object {
		return nil, inputErr(path, `is %s: a words file is a JSON object from "TOOL" or "TOOL:/json/pointer" to the new text`, article(v.Kind()))
	}
	w := &Words{path: path, desc: map[string]string{}, paths: map[string][]wordsPath{}, trees: map[string]*ptrTree{}, keys: map[string]string{}, used: map[string]bool{}}
	for _, m := range v.Members() {
		if m.Value.Kind() != jsonjs.String {
			return nil, inputErr(path, "%q is %s, not the new text", m.Key, article(m.Value.Kind()))
		}
		tool, ptr, hasPtr := strings.Cut(m.Key, ":/")
		if tool == "" {
			return nil, inputErr(path, "%q names no tool", m.Key)
		}
		if _, ok := w.keys[tool]; !ok {
			w.keys[tool] = m.Key
			w.order = append(w.order, tool)
		}
		if !hasPtr {
			w.desc[tool] = m.Value.Str()
			continue
		}
		toks := strings.Split(ptr, "/")
		for i, t := range toks {
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		}
		w.paths[tool] = append(w.paths[tool], wordsPath{key: m.Key, pointer: toks, text: m.Value.Str()})
	}
	for tool, ps := range w.paths {
		w.trees[tool] = newPtrTree(ps)
	}
	return w, nil
}

// ptrTree is a tool's word paths as a tree, for the walk to follow: a
// node for each member or element a path leads through or ends at, under
// a root that is the inputSchema.
type ptrTree struct {
	root  ptrNode
	nodes int // the nodes under the root, numbered from 0
	// cut holds, for each path, the length of the shortest path before it
	// that leads to a value it goes through (a text by the time it is
	// applied, so that it fails there), or -1 when there is none
	cut []int
}

// ptrNode is a member or element the paths lead to.
type ptrNode struct {
	tok  string
	id   int
	kids []*ptrNode
	last int // the last path that ends here, whose text the value becomes; -1 when none
}

func newPtrTree(ps []wordsPath) *ptrTree {
	t := &ptrTree{root: ptrNode{last: -1}, cut: make([]int, len(ps))}
	for j, p := range ps {
		n := &t.root
		for _, tok := range p.pointer {
			k := n.kid(tok)
			if k == nil {
				k = &ptrNode{tok: tok, id: t.nodes, last: -1}
				t.nodes++
				n.kids = append(n.kids, k)
			}
			n = k
		}
		n.last = j
		t.cut[j] = -1
		for _, q := range ps[:j] {
			if len(q.pointer) < len(p.pointer) && slices.Equal(q.pointer, p.pointer[:len(q.pointer)]) &&
				(t.cut[j] < 0 || len(q.pointer) < t.cut[j]) {
				t.cut[j] = len(q.pointer)
			}
		}
	}
	return t
}

// kid returns the node of the member or element tok names, or nil.
func (n *ptrNode) kid(tok string) *ptrNode {
	for _, k := range n.kids {
		if k.tok == tok {
			return k
		}
	}
	return nil
}

// member returns the node of the member whose key is the raw key text
// (escapes left in), or nil.
func (n *ptrNode) member(key []byte) *ptrNode {
	for _, k := range n.kids {
		if jsonjs.KeyIs(key, k.tok) {
			return k
		}
	}
	return nil
}

// Transform returns the words as a transform. Each use starts afresh.
func (w *Words) Transform() Transform {
	c := *w
	c.used = map[string]bool{}
	return &c
}

// Name returns "words".
func (w *Words) Name() string { return "words" }

func (w *Words) finish() error {
	var missing []string
	for _, t := range w.order {
		if !w.used[t] {
			missing = append(missing, strconv.Quote(w.keys[t]))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return inputErr(w.path, "%s %s no tool of the capture", strings.Join(missing, ", "), plural(len(missing), "names", "name"))
}

func escapePointer(toks []string) string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
	}
	return strings.Join(out, "/")
}

// setMember returns the object v with key set to val, in the key's place
// (or last, when v lacks it).
func setMember(v jsonjs.Value, key string, val jsonjs.Value) jsonjs.Value {
	ms := v.Members()
	out := make([]jsonjs.Member, 0, len(ms)+1)
	found := false
	for _, m := range ms {
		if m.Key == key {
			m.Value = val
			found = true
		}
		out = append(out, m)
	}
	if !found {
		out = append(out, jsonjs.Member{Key: key, Value: val})
	}
	return jsonjs.ObjectValue(out)
}

// deleteMember returns the object v without key.
func deleteMember(v jsonjs.Value, key string) jsonjs.Value {
	ms := v.Members()
	out := make([]jsonjs.Member, 0, len(ms))
	for _, m := range ms {
		if m.Key != key {
			out = append(out, m)
		}
	}
	return jsonjs.ObjectValue(out)
}

// Saving is what one transform saves on a capture.
type Saving struct {
	// Name is the transform's name.
	Name string
	// WireSavingBytes is the answer's bytes (re-serialized compact) before
	// the transform minus after it.
	WireSavingBytes int64
	// ModelReadSavingBytes is the model-read bytes before minus after.
	ModelReadSavingBytes int64
	// Changes counts the members removed or texts replaced.
	Changes int
	// Tools names the tools the transform changed, in the capture's order.
	Tools []string
}
