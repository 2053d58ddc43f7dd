package toollist

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"sync"

	"github.com/readmeter/readmeter/jsonjs"
)

// Warner is a transform that could not apply to some tools and says why,
// one line a tool: the tool is left as it is.
type Warner interface {
	Transform
	// Warnings returns the lines, in the order the tools were met.
	Warnings() []string
}

// warnings collects a transform's lines; apply may run on several tools
// at once.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(format string, args ...any) {
	w.mu.Lock()
	w.lines = append(w.lines, fmt.Sprintf(format, args...))
	w.mu.Unlock()
}

// Warnings returns the lines collected.
func (w *warnings) Warnings() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.lines...)
}

// DropUnusedDefs returns the transform that removes, from each tool's
// inputSchema, the members of its root "$defs" and "definitions" that no
// $ref reaches: the $refs outside the definitions are followed into them,
// transitively. A $ref is a local JSON Pointer ("#/$defs/a", "~0" and "~1"
// and percent-escapes decoded); one that points inside a definition
// ("#/$defs/a/properties/b") uses it, one that points at the container
// uses them all, "#" uses none. A container left empty is removed. A tool
// whose $refs cannot all be followed so (a reference to another document,
// an anchor, $dynamicRef, $recursiveRef, a nested $id, a pointer to
// nothing) or whose definitions are not an object is left as it is, with
// a warning naming the tool and the JSON path. Each definition removed is
// a change.
func DropUnusedDefs() Transform { return &dropDefs{} }

type dropDefs struct{ warnings }

// Name returns "drop_unused_defs".
func (*dropDefs) Name() string  { return "drop_unused_defs" }
func (*dropDefs) finish() error { return nil }

// shrinker is a transform that says, with the tool it changed, how many
// bytes shorter JSON.stringify writes it: what it changes lies in the
// inputSchema, so what a model reads of the tool is as many bytes
// shorter, and the tool need not be measured again.
type shrinker interface {
	// applyShrunk is apply, with the bytes the tool's text lost (0 when
	// it made no change); seen is what the shrinkers applied to the tool
	// before it found of its $refs. Unless keep, the tool changed is not
	// wanted, only the changes and the bytes: the tool given is returned.
	applyShrunk(tool jsonjs.Value, name string, seen *refsSeen, keep bool) (jsonjs.Value, int, int, error)
}

// refsSeen is what a shrinker found of the $refs of the inputSchema it
// left, for the next one applied to the tool: the schema, and the $refs
// it reaches (as analyzeRefs gives them), all followed. Its zero value
// knows nothing.
type refsSeen struct {
	schema jsonjs.Value
	refs   []refAt
	known  bool
	sc     *refScratch // the room of the analyses, when not nil
}

// scratch returns the room of the analyses, or nil.
func (seen *refsSeen) scratch() *refScratch {
	if seen == nil {
		return nil
	}
	return seen.sc
}

// refsOf returns the $refs that schema reaches and its problem, as
// analyzeRefs gives them, taken from seen when they are known there.
func (seen *refsSeen) refsOf(schema jsonjs.Value) ([]refAt, *refProblem) {
	if seen != nil && seen.known && jsonjs.Same(seen.schema, schema) {
		return seen.refs, nil
	}
	u, prob := analyzeRefsIn(seen.scratch(), schema)
	if prob != nil {
		return nil, prob
	}
	return u.refs, nil
}

// applyMeasured applies t to tool, and says how many bytes shorter
// JSON.stringify writes the tool after, or -1 when t does not say. Unless
// keep, the tool changed may not be built (see shrinker).
func applyMeasured(t valueTransform, tool jsonjs.Value, name string, seen *refsSeen, keep bool) (jsonjs.Value, int, int, error) {
	if s, ok := t.(shrinker); ok {
		return s.applyShrunk(tool, name, seen, keep)
	}
	nt, n, err := t.apply(tool, name)
	return nt, n, -1, err
}

func (d *dropDefs) apply(tool jsonjs.Value, name string) (jsonjs.Value, int, error) {
	nt, n, _, err := d.applyShrunk(tool, name, nil, true)
	return nt, n, err
}

func (d *dropDefs) applyShrunk(tool jsonjs.Value, name string, seen *refsSeen, keep bool) (jsonjs.Value, int, int, error) {
	s, ok := tool.Get("inputSchema")
	if !ok || s.Kind() != jsonjs.Object || !hasDefs(s) {
		return tool, 0, 0, nil
	}
	ns, n, shrunk, refs, prob := dropUnused(s, keep, seen.scratch())
	if prob != nil {
		d.add("drop_unused_defs: %s: inputSchema%s: %s: left unchanged", name, prob.path[1:], prob.what)
		return tool, 0, 0, nil
	}
	if seen != nil {
		// what is left of the schema reaches the $refs it reached: only
		// definitions none reached were removed, and with them, $refs
		// none follows
		seen.schema, seen.refs, seen.known = ns, refs, true
	}
	if n == 0 || !keep {
		return tool, n, shrunk, nil
	}
	return setMember(tool, "inputSchema", ns), n, shrunk, nil
}

// dropUnused returns schema without its unused root definitions (with
// build; else schema as it is), how many it removed, how many bytes
// shorter JSON.stringify writes it, and the $refs it reaches (as
// analyzeRefs gives them, before and after), in the room of sc when not
// nil.
func dropUnused(schema jsonjs.Value, build bool, sc *refScratch) (jsonjs.Value, int, int, []refAt, *refProblem) {
	u, prob := analyzeRefsIn(sc, schema)
	if prob != nil {
		return schema, 0, 0, nil, prob
	}
	n, shrunk := 0, 0
	members := len(schema.Members()) // as the containers emptied leave it
	for c, k := range defsKeys {
		du := &u.defs[c]
		if !du.has || du.whole {
			continue
		}
		var keep []jsonjs.Member
		kept := 0
		cut := 0 // the bytes of the members removed, each with a comma
		for j, m := range du.members {
			if du.used(j) {
				kept++
				if build {
					keep = append(keep, m)
				}
			} else {
				cut += keyLen(m.Key) + 2 + jsonjs.StringifyLen(m.Value)
			}
		}
		if kept == len(du.members) {
			continue
		}
		n += len(du.members) - kept
		if kept == 0 {
			// the container goes, with its key, colon and comma
			shrunk += keyLen(k) + 1 + 2 + cut - 1
			if members > 1 {
				shrunk++
			}
			members--
			if build {
				schema = deleteMember(schema, k)
			}
		} else {
			shrunk += cut
			if build {
				schema = setMember(schema, k, jsonjs.ObjectValue(keep))
			}
		}
	}
	return schema, n, shrunk, u.refs, nil
}

// HoistRepeated returns the transform that hoists the subschemas a tool's
// inputSchema repeats, identical to the byte, into its root "$defs" (or
// "definitions", when only that is there), each copy replaced by a $ref,
// where that saves model-read bytes: the largest saving first, until
// none is left. A definition is named after the property the first copy
// is the schema of (when that name is plain ASCII), else "schema", with
// "_2", "_3"... added when the name is taken. A subschema holding "$id",
// "$anchor" or "$dynamicAnchor" is never moved. A tool is left as it is,
// with a warning, when its $refs cannot all be followed (as for
// DropUnusedDefs) or one points inside a subschema rather than at a whole
// definition or the root. Each copy replaced is a change.
func HoistRepeated() Transform { return &hoist{} }

type hoist struct{ warnings }

// Name returns "hoist_repeated".
func (*hoist) Name() string  { return "hoist_repeated" }
func (*hoist) finish() error { return nil }

func (h *hoist) apply(tool jsonjs.Value, name string) (jsonjs.Value, int, error) {
	nt, n, _, err := h.applyShrunk(tool, name, nil, true)
	return nt, n, err
}

func (h *hoist) applyShrunk(tool jsonjs.Value, name string, seen *refsSeen, keep bool) (jsonjs.Value, int, int, error) {
	s, ok := tool.Get("inputSchema")
	if !ok || s.Kind() != jsonjs.Object {
		return tool, 0, 0, nil
	}
	ns, n, shrunk, prob := hoistSchema(s, seen, keep)
	if prob != nil {
		h.add("hoist_repeated: %s: inputSchema%s: %s: left unchanged", name, prob.path[1:], prob.what)
		return tool, 0, 0, nil
	}
	if n == 0 || !keep {
		return tool, n, shrunk, nil
	}
	return setMember(tool, "inputSchema", ns), n, shrunk, nil
}

// hoistSchema hoists the repeats of schema until none saves bytes, and
// says how many bytes shorter JSON.stringify writes it. The schema is
// read once into a tree (see htree) that holds each subschema's subtree
// (and so its length); each hoist is chosen on the tree as the repeats
// stand after the hoists before it, and updates the subtrees of the
// copies' ancestors only; the new schema is written from the tree once,
// at the end, with build (else schema is returned as it is).
func hoistSchema(schema jsonjs.Value, seen *refsSeen, build bool) (jsonjs.Value, int, int, *refProblem) {
	refs, prob := seen.refsOf(schema)
	if prob != nil {
		return schema, 0, 0, prob
	}
	for _, r := range refs {
		if !wholeDef(r.toks) {
			return schema, 0, 0, &refProblem{r.path, fmt.Sprintf("%q points inside a subschema, which hoisting could move", r.ref)}
		}
	}
	t := hoistTrees.Get().(*htree)
	defer func() {
		t.reset()
		hoistTrees.Put(t)
	}()
	t.add(schema, -1, "", "", false, true, true)
	before := t.nodes[0].st.n
	total := 0
	for {
		n, ok := t.hoistOnce()
		if !ok {
			break
		}
		total += n
	}
	if total == 0 {
		return schema, 0, 0, nil
	}
	if !build {
		return schema, total, before - t.nodes[0].st.n, nil
	}
	return t.value(0), total, before - t.nodes[0].st.n, nil
}

// wholeDef reports whether the pointer is the root, or a whole root
// definition.
func wholeDef(toks []string) bool {
	return len(toks) == 0 || len(toks) == 2 && defsIndex(toks[0]) >= 0
}

// htree is an inputSchema read for hoisting: a node for each value at a
// schema's place (and for each member or element of one), the rest of the
// values (data, and what is not a schema) kept whole as leaves. Node 0 is
// the root.
type htree struct {
	nodes []hnode
	// scratch of hoistOnce
	cands map[subtree]int32 // subtree -> index in counts
	order []subtree         // candidates in the order first met
	count []int32
	first []int32
	elig  []int32 // candidates that may move, in walk order
	taken map[string]bool
	slab  []int32 // the kids' room
}

// hnode is a value of an htree.
type hnode struct {
	v      jsonjs.Value // the value read (or the $ref put in its place)
	st     subtree      // the subtree of its text as it stands
	key    string       // its key in its parent object
	keyH   uint64       // the hash of key
	keyN   int          // the bytes of key, quoted
	parent int32
	kids   []int32 // its elements or members, read; nil for a leaf
	kind   jsonjs.Kind
	// cand: an object at a schema's place, not the root or a definition
	// itself; pinned: it holds what must not move ($id, $anchor,
	// $dynamicAnchor); changed: a value inside it was replaced, so its
	// value is written anew
	cand, pinned, changed bool
	prop                  string // the property it is the schema of
}

var hoistTrees = sync.Pool{New: func() any {
	return &htree{cands: map[subtree]int32{}, taken: map[string]bool{}}
}}

// reset empties the tree for the next schema. What the nodes held of
// the last one is overwritten, not cleared: a tree in the pool keeps at
// most one schema's values alive.
func (t *htree) reset() {
	t.nodes, t.slab = t.nodes[:0], t.slab[:0]
}

// room returns room for a node's n kids, cut from the slab: a slice of
// its own capacity, so that appending to it copies.
func (t *htree) room(n int) []int32 {
	l := len(t.slab)
	if cap(t.slab)-l < n {
		t.slab = make([]int32, 0, max(2*cap(t.slab), n, 256))
		l = 0
	}
	t.slab = t.slab[:l+n]
	return t.slab[l : l : l+n]
}

// add reads v as a member (key) or element of parent, and returns its
// node. candidate says v is at a schema's place, inSchema that its members
// are schema keywords (as hoisting walks a schema, see HoistRepeated).
func (t *htree) add(v jsonjs.Value, parent int32, key, prop string, candidate, inSchema, root bool) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, hnode{v: v, parent: parent, key: key, kind: v.Kind(), prop: prop})
	if parent >= 0 && t.nodes[parent].kind == jsonjs.Object {
		t.nodes[i].keyH, t.nodes[i].keyN = maphash.String(hashSeed, key), keyLen(key)
	}
	switch k := v.Kind(); {
	case k != jsonjs.Array && k != jsonjs.Object:
		t.nodes[i].st = leafSubtree(v)
		return i
	case !inSchema:
		t.nodes[i].st, t.nodes[i].pinned = pinnedSubtree(v)
		return i
	case k == jsonjs.Array:
		kids := t.room(len(v.Elems()))
		pinned := false
		for _, e := range v.Elems() {
			c := t.add(e, i, "", "", candidate, true, false)
			kids = append(kids, c)
			pinned = pinned || t.nodes[c].pinned
		}
		t.nodes[i].kids, t.nodes[i].pinned = kids, pinned
		t.nodes[i].st = t.fold(i)
		return i
	}
	kids := t.room(len(v.Members()))
	pinned := false
	for _, m := range v.Members() {
		var c int32
		switch {
		case m.Key == "$id" || m.Key == "$anchor" || m.Key == "$dynamicAnchor":
			c = t.leaf(m.Value, i, m.Key)
			t.nodes[c].pinned = true
		case dataKey(m.Key):
			c = t.leaf(m.Value, i, m.Key)
		case root && defsIndex(m.Key) >= 0 && m.Value.Kind() == jsonjs.Object:
			// a definition itself stays where its $refs point; what is
			// inside it may move
			c = t.mapping(m.Value, i, m.Key, false)
		case mapKey(m.Key) && m.Value.Kind() == jsonjs.Object:
			c = t.mapping(m.Value, i, m.Key, true)
		default:
			sub := schemaKey(m.Key)
			c = t.add(m.Value, i, m.Key, "", sub, sub, false)
		}
		kids = append(kids, c)
		pinned = pinned || t.nodes[c].pinned
	}
	n := &t.nodes[i]
	n.kids, n.pinned, n.cand = kids, pinned, candidate && !root
	n.st = t.fold(i)
	return i
}

// leaf adds v, kept whole, as the member key of parent.
func (t *htree) leaf(v jsonjs.Value, parent int32, key string) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, hnode{v: v, parent: parent, key: key, kind: v.Kind(),
		keyH: maphash.String(hashSeed, key), keyN: keyLen(key), st: subtreeOf(v)})
	return i
}

// mapping adds an object whose members' values are schemas (named as
// properties by their keys when props, candidates then too).
func (t *htree) mapping(v jsonjs.Value, parent int32, key string, props bool) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, hnode{v: v, parent: parent, key: key, kind: jsonjs.Object,
		keyH: maphash.String(hashSeed, key), keyN: keyLen(key)})
	kids := t.room(len(v.Members()))
	pinned := false
	for _, d := range v.Members() {
		prop := ""
		if props {
			prop = d.Key
		}
		c := t.add(d.Value, i, d.Key, prop, props, true, false)
		kids = append(kids, c)
		pinned = pinned || t.nodes[c].pinned
	}
	t.nodes[i].kids, t.nodes[i].pinned = kids, pinned
	t.nodes[i].st = t.fold(i)
	return i
}

// pinnedSubtree returns the subtree of v, and whether an object in it has
// a member $id, $anchor or $dynamicAnchor.
func pinnedSubtree(v jsonjs.Value) (subtree, bool) {
	switch v.Kind() {
	case jsonjs.Array:
		b := startArray()
		pinned := false
		for _, e := range v.Elems() {
			st, pin := pinnedSubtree(e)
			b.add(st)
			pinned = pinned || pin
		}
		return b.end(), pinned
	case jsonjs.Object:
		b := startObject()
		pinned := false
		for _, m := range v.Members() {
			var st subtree
			pin := false
			if m.Key == "$id" || m.Key == "$anchor" || m.Key == "$dynamicAnchor" {
				st, pin = subtreeOf(m.Value), true
			} else {
				st, pin = pinnedSubtree(m.Value)
			}
			b.member(m.Key, st)
			pinned = pinned || pin
		}
		return b.end(), pinned
	}
	return leafSubtree(v), false
}

// fold returns the subtree of node i from its kids' as they stand.
func (t *htree) fold(i int32) subtree {
	n := &t.nodes[i]
	if n.kind == jsonjs.Array {
		b := startArray()
		for _, k := range n.kids {
			b.add(t.nodes[k].st)
		}
		return b.end()
	}
	b := startObject()
	for _, k := range n.kids {
		c := &t.nodes[k]
		b.memberHashed(c.keyH, c.keyN, c.st)
	}
	return b.end()
}

// collect gathers the candidates that may move under node i, in the
// order a walk ends them (a value's members before the value).
func (t *htree) collect(i int32) {
	for _, k := range t.nodes[i].kids {
		t.collect(k)
	}
	n := &t.nodes[i]
	if !n.cand || n.pinned {
		return
	}
	t.elig = append(t.elig, i)
	if c, ok := t.cands[n.st]; ok {
		t.count[c]++
		return
	}
	t.cands[n.st] = int32(len(t.order))
	t.order = append(t.order, n.st)
	t.count = append(t.count, 1)
	t.first = append(t.first, i)
}

// child returns the member key of node i, or -1.
func (t *htree) child(i int32, key string) int32 {
	for _, k := range t.nodes[i].kids {
		if t.nodes[k].key == key {
			return k
		}
	}
	return -1
}

// hoistOnce hoists the repeat that saves the most bytes, if one saves
// any, and returns the copies it replaced.
func (t *htree) hoistOnce() (int, bool) {
	container := "$defs"
	defs := t.child(0, "$defs")
	if defs < 0 {
		if d := t.child(0, "definitions"); d >= 0 {
			container, defs = "definitions", d
		}
	}
	if defs >= 0 && t.nodes[defs].kind != jsonjs.Object {
		return 0, false
	}
	clear(t.cands)
	t.order, t.count, t.first, t.elig = t.order[:0], t.count[:0], t.first[:0], t.elig[:0]
	t.collect(0)
	clear(t.taken)
	ndefs := 0
	if defs >= 0 {
		ndefs = len(t.nodes[defs].kids)
		for _, k := range t.nodes[defs].kids {
			t.taken[t.nodes[k].key] = true
		}
	}
	best, bestSave, bestName := -1, 0, ""
	for c, st := range t.order {
		count := int(t.count[c])
		if count < 2 {
			continue
		}
		name := defName(t.nodes[t.first[c]].prop, t.taken)
		add := keyLen(name) + 1 + st.n
		switch {
		case defs < 0:
			add += 1 + keyLen(container) + 1 + 2 // ,"$defs":{...}
		case ndefs > 0:
			add++ // its comma
		}
		if save := count*(st.n-refLen(container, name)) - add; save > bestSave {
			best, bestSave, bestName = c, save, name
		}
	}
	if best < 0 {
		return 0, false
	}
	st, first := t.order[best], t.first[best]
	var occ []int32
	for _, i := range t.elig {
		if t.nodes[i].st == st {
			if !t.equal(first, i) {
				return 0, false // two texts with one hash: leave the rest as it is
			}
			occ = append(occ, i)
		}
	}
	r := refValue(container, bestName)
	rst := leafSubtree(jsonjs.StringValue(r.Members()[0].Value.Str()))
	for _, o := range occ {
		p := t.nodes[o].parent
		ref := int32(len(t.nodes))
		on := t.nodes[o]
		t.nodes = append(t.nodes, hnode{v: r, parent: p, key: on.key, keyH: on.keyH, keyN: on.keyN, kind: jsonjs.Object, cand: true, prop: on.prop},
			hnode{v: r.Members()[0].Value, parent: ref, key: "$ref", keyH: maphash.String(hashSeed, "$ref"), keyN: keyLen("$ref"), kind: jsonjs.String, st: rst})
		t.nodes[ref].kids = []int32{ref + 1}
		t.nodes[ref].st = t.fold(ref)
		kids := t.nodes[p].kids
		for j, k := range kids {
			if k == o {
				kids[j] = ref
			}
		}
		t.touched(p)
	}
	// the first copy, as it stands, becomes the definition
	f := &t.nodes[first]
	f.key, f.keyH, f.keyN, f.cand, f.prop = bestName, maphash.String(hashSeed, bestName), keyLen(bestName), false, ""
	if defs < 0 {
		defs = int32(len(t.nodes))
		t.nodes = append(t.nodes, hnode{parent: 0, key: container, keyH: maphash.String(hashSeed, container), keyN: keyLen(container), kind: jsonjs.Object})
		t.nodes[0].kids = append(t.nodes[0].kids[:len(t.nodes[0].kids):len(t.nodes[0].kids)], defs)
	}
	t.nodes[first].parent = defs
	dk := t.nodes[defs].kids
	t.nodes[defs].kids = append(dk[:len(dk):len(dk)], first)
	t.touched(defs)
	return len(occ), true
}

// touched says a value inside node i was replaced: it and its ancestors
// take their subtrees again and are written anew.
func (t *htree) touched(i int32) {
	for ; i >= 0; i = t.nodes[i].parent {
		t.nodes[i].changed = true
		t.nodes[i].st = t.fold(i)
	}
}

// equal reports whether nodes a and b hold the same text.
func (t *htree) equal(a, b int32) bool {
	x, y := &t.nodes[a], &t.nodes[b]
	if x.st != y.st || x.kind != y.kind || len(x.kids) != len(y.kids) || (x.kids == nil) != (y.kids == nil) {
		return false
	}
	if x.kids == nil {
		return sameValue(x.v, y.v)
	}
	for j := range x.kids {
		if t.nodes[x.kids[j]].key != t.nodes[y.kids[j]].key || !t.equal(x.kids[j], y.kids[j]) {
			return false
		}
	}
	return true
}

// sameValue reports whether JSON.stringify writes a and b alike.
func sameValue(a, b jsonjs.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case jsonjs.Bool:
		return a.Bool() == b.Bool()
	case jsonjs.Number:
		return a.Num() == b.Num()
	case jsonjs.String:
		return a.Str() == b.Str()
	case jsonjs.Array:
		ae, be := a.Elems(), b.Elems()
		if len(ae) != len(be) {
			return false
		}
		for i := range ae {
			if !sameValue(ae[i], be[i]) {
				return false
			}
		}
	case jsonjs.Object:
		am, bm := a.Members(), b.Members()
		if len(am) != len(bm) {
			return false
		}
		for i := range am {
			if am[i].Key != bm[i].Key || !sameValue(am[i].Value, bm[i].Value) {
				return false
			}
		}
	}
	return true
}

// value writes node i as a value: as read, unless a value inside it was
// replaced.
func (t *htree) value(i int32) jsonjs.Value {
	n := &t.nodes[i]
	if !n.changed {
		return n.v
	}
	if n.kind == jsonjs.Array {
		es := make([]jsonjs.Value, len(n.kids))
		for j, k := range n.kids {
			es[j] = t.value(k)
		}
		return jsonjs.ArrayValue(es)
	}
	ms := make([]jsonjs.Member, len(n.kids))
	for j, k := range n.kids {
		ms[j] = jsonjs.Member{Key: t.nodes[k].key, Value: t.value(k)}
	}
	return jsonjs.ObjectValue(ms)
}

// defName names a new definition after the first copy's property.
func defName(prop string, taken map[string]bool) string {
	base := "schema"
	if p := prop; plainName(p) {
		base = p
	}
	name := base
	for k := 2; taken[name]; k++ {
		name = base + "_" + strconv.Itoa(k)
	}
	return name
}

// plainName reports whether s is a name of ASCII letters, digits, _ and
// -, not starting with a digit (so never integer-like, never escaped).
func plainName(s string) bool {
	if s == "" || len(s) > 64 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func refValue(container, name string) jsonjs.Value {
	return jsonjs.ObjectValue([]jsonjs.Member{{Key: "$ref", Value: jsonjs.StringValue("#/" + container + "/" + name)}})
}

// refLen is jsonjs.StringifyLen(refValue(container, name)), added up
// without building it: `{"$ref":""}` and "#//" around the two names,
// each escaped as a key is (less its quotes). The names are joined
// between ASCII characters, so escaping each apart is escaping the
// whole.
func refLen(container, name string) int {
	return len(`{"$ref":""}`) + len("#//") + keyLen(container) - 2 + keyLen(name) - 2
}

// schemaKey reports whether the keyword k holds a schema, or an array of
// schemas.
func schemaKey(k string) bool {
	switch k {
	case "items", "additionalItems", "prefixItems", "contains", "additionalProperties",
		"unevaluatedProperties", "unevaluatedItems", "propertyNames", "not", "if", "then", "else",
		"anyOf", "allOf", "oneOf":
		return true
	}
	return false
}
