package toollist

import (
	"fmt"
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

func (d *dropDefs) apply(tool jsonjs.Value, name string) (jsonjs.Value, int, error) {
	s, ok := tool.Get("inputSchema")
	if !ok || s.Kind() != jsonjs.Object || !hasDefs(s) {
		return tool, 0, nil
	}
	ns, n, prob := dropUnused(s)
	if prob != nil {
		d.add("drop_unused_defs: %s: inputSchema%s: %s: left unchanged", name, prob.path[1:], prob.what)
		return tool, 0, nil
	}
	if n == 0 {
		return tool, 0, nil
	}
	return setMember(tool, "inputSchema", ns), n, nil
}

// dropUnused returns schema without its unused root definitions, and how
// many it removed.
func dropUnused(schema jsonjs.Value) (jsonjs.Value, int, *refProblem) {
	u, prob := analyzeRefs(schema)
	if prob != nil {
		return schema, 0, prob
	}
	n := 0
	for _, k := range defsKeys {
		names, ok := u.used[k]
		if !ok || u.whole[k] {
			continue
		}
		c, _ := schema.Get(k)
		var keep []jsonjs.Member
		for _, m := range c.Members() {
			if names[m.Key] {
				keep = append(keep, m)
			}
		}
		if len(keep) == len(c.Members()) {
			continue
		}
		n += len(c.Members()) - len(keep)
		if len(keep) == 0 {
			schema = deleteMember(schema, k)
		} else {
			schema = setMember(schema, k, jsonjs.ObjectValue(keep))
		}
	}
	return schema, n, nil
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
	s, ok := tool.Get("inputSchema")
	if !ok || s.Kind() != jsonjs.Object {
		return tool, 0, nil
	}
	ns, n, prob := hoistSchema(s)
	if prob != nil {
		h.add("hoist_repeated: %s: inputSchema%s: %s: left unchanged", name, prob.path[1:], prob.what)
		return tool, 0, nil
	}
	if n == 0 {
		return tool, 0, nil
	}
	return setMember(tool, "inputSchema", ns), n, nil
}

// occurrence is where a subschema lies: the path of member keys and
// array indexes from the root.
type occurrence struct {
	path []pathStep
}

// hoistSchema hoists the repeats of schema until none saves bytes.
func hoistSchema(schema jsonjs.Value) (jsonjs.Value, int, *refProblem) {
	u, prob := analyzeRefs(schema)
	if prob != nil {
		return schema, 0, prob
	}
	if !u.onlyWhole() {
		for _, r := range u.refs {
			if !wholeDef(r.toks) {
				return schema, 0, &refProblem{r.path, fmt.Sprintf("%q points inside a subschema, which hoisting could move", r.ref)}
			}
		}
	}
	total := 0
	for {
		ns, n, ok := hoistOnce(schema)
		if !ok {
			return schema, total, nil
		}
		schema = ns
		total += n
	}
}

func (u *refUse) onlyWhole() bool {
	for _, r := range u.refs {
		if !wholeDef(r.toks) {
			return false
		}
	}
	return true
}

// wholeDef reports whether the pointer is the root, or a whole root
// definition.
func wholeDef(toks []string) bool {
	return len(toks) == 0 || len(toks) == 2 && (toks[0] == "$defs" || toks[0] == "definitions")
}

// hoistOnce hoists the repeat that saves the most bytes, if one saves any.
func hoistOnce(schema jsonjs.Value) (jsonjs.Value, int, bool) {
	container := "$defs"
	if _, ok := schema.Get("$defs"); !ok {
		if _, ok := schema.Get("definitions"); ok {
			container = "definitions"
		}
	}
	defs, hasContainer := schema.Get(container)
	if hasContainer && defs.Kind() != jsonjs.Object {
		return schema, 0, false
	}
	type cand struct {
		count int
		prop  string // the property the first copy is the schema of
		len   int
	}
	cands := map[subtree]*cand{}
	var order []subtree
	// collect: on the second walk, the candidate whose copies are
	// gathered, with their paths
	var collect *subtree
	var occ []occurrence
	var path []pathStep
	// walk looks for candidates in v; candidate says v is at a schema
	// position, inSchema that its members are schema keywords. It returns
	// whether v holds what must not move, and v's subtree.
	var walk func(v jsonjs.Value, prop string, candidate, inSchema bool) (bool, subtree)
	// mapping walks an object whose members' values are schemas (props:
	// named by their keys as properties), and returns its subtree.
	mapping := func(v jsonjs.Value, props, candidate bool) (bool, subtree) {
		pinned := false
		b := startObject()
		for _, d := range v.Members() {
			prop := ""
			if props {
				prop = d.Key
			}
			path = append(path, pathStep{key: d.Key, index: -1})
			pin, st := walk(d.Value, prop, candidate, true)
			path = path[:len(path)-1]
			pinned = pinned || pin
			b.member(d.Key, st)
		}
		return pinned, b.end()
	}
	walk = func(v jsonjs.Value, prop string, candidate, inSchema bool) (bool, subtree) {
		pinned := false
		switch v.Kind() {
		case jsonjs.Array:
			b := startArray()
			for i, e := range v.Elems() {
				path = append(path, pathStep{index: i})
				pin, st := walk(e, "", candidate, inSchema)
				path = path[:len(path)-1]
				pinned = pinned || pin
				b.add(st)
			}
			return pinned, b.end()
		case jsonjs.Object:
		default:
			return false, leafSubtree(v)
		}
		root := len(path) == 0
		b := startObject()
		for _, m := range v.Members() {
			path = append(path, pathStep{key: m.Key, index: -1})
			var st subtree
			pin := false
			switch {
			case m.Key == "$id" || m.Key == "$anchor" || m.Key == "$dynamicAnchor":
				pin, st = true, subtreeOf(m.Value)
			case !inSchema:
				pin, st = walk(m.Value, "", false, false)
			case dataKey(m.Key):
				st = subtreeOf(m.Value)
			case root && (m.Key == "$defs" || m.Key == "definitions") && m.Value.Kind() == jsonjs.Object:
				// a definition itself stays where its $refs point; what
				// is inside it may move
				pin, st = mapping(m.Value, false, false)
			case mapKey(m.Key) && m.Value.Kind() == jsonjs.Object:
				pin, st = mapping(m.Value, true, true)
			default:
				sub := schemaKey(m.Key)
				pin, st = walk(m.Value, "", sub, sub)
			}
			path = path[:len(path)-1]
			pinned = pinned || pin
			b.member(m.Key, st)
		}
		st := b.end()
		if candidate && inSchema && !pinned && !root {
			switch {
			case collect != nil:
				if st == *collect {
					occ = append(occ, occurrence{path: append([]pathStep(nil), path...)})
				}
			case cands[st] == nil:
				cands[st] = &cand{count: 1, prop: prop, len: st.n}
				order = append(order, st)
			default:
				cands[st].count++
			}
		}
		return pinned, st
	}
	walk(schema, "", false, true)
	taken := map[string]bool{}
	for _, m := range defs.Members() {
		taken[m.Key] = true
	}
	var best subtree
	bestSave, bestName, bestCount := 0, "", 0
	for _, k := range order {
		c := cands[k]
		if c.count < 2 {
			continue
		}
		name := defName(c.prop, taken)
		ref := refLen(container, name)
		add := keyLen(name) + 1 + c.len
		switch {
		case !hasContainer:
			add += 1 + keyLen(container) + 1 + 2 // ,"$defs":{...}
		case len(defs.Members()) > 0:
			add++ // its comma
		}
		save := c.count*(c.len-ref) - add
		if save > bestSave {
			best, bestSave, bestName, bestCount = k, save, name, c.count
		}
	}
	if bestCount == 0 {
		return schema, 0, false
	}
	collect = &best
	walk(schema, "", false, true)
	// the copies' texts are compared, not only their hashes
	first, _ := valueAt(schema, occ[0].path)
	text := jsonjs.Stringify(first)
	for _, o := range occ[1:] {
		v, _ := valueAt(schema, o.path)
		if string(jsonjs.Stringify(v)) != string(text) {
			return schema, 0, false // two texts with one hash: leave the rest as it is
		}
	}
	r := refValue(container, bestName)
	for _, o := range occ {
		schema = replaceAt(schema, o.path, r)
	}
	defs, _ = schema.Get(container) // with the copies inside it replaced
	nd := append(append([]jsonjs.Member(nil), defs.Members()...), jsonjs.Member{Key: bestName, Value: first})
	schema = setMember(schema, container, jsonjs.ObjectValue(nd))
	return schema, len(occ), true
}

// valueAt returns the value at path in v.
func valueAt(v jsonjs.Value, path []pathStep) (jsonjs.Value, bool) {
	for _, s := range path {
		if s.index >= 0 {
			if v.Kind() != jsonjs.Array || s.index >= len(v.Elems()) {
				return v, false
			}
			v = v.Elems()[s.index]
			continue
		}
		c, ok := v.Get(s.key)
		if !ok {
			return v, false
		}
		v = c
	}
	return v, true
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

func refLen(container, name string) int { return jsonjs.StringifyLen(refValue(container, name)) }

// replaceAt returns v with the value at path replaced by nv.
func replaceAt(v jsonjs.Value, path []pathStep, nv jsonjs.Value) jsonjs.Value {
	if len(path) == 0 {
		return nv
	}
	s := path[0]
	if s.index >= 0 {
		es := append([]jsonjs.Value(nil), v.Elems()...)
		es[s.index] = replaceAt(es[s.index], path[1:], nv)
		return jsonjs.ArrayValue(es)
	}
	c, _ := v.Get(s.key)
	return setMember(v, s.key, replaceAt(c, path[1:], nv))
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
