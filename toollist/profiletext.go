package toollist

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strconv"
	"unsafe"

	"github.com/readmeter/readmeter/jsonjs"
)

// textProfile profiles one tool from its validated text in one walk,
// building nothing: its components, its wire members, which of its root
// definitions its $refs use (as analyzeRefs), and what the findings take
// in (as crossOf). It gives up on a tool with an object whose keys
// JavaScript would reorder or merge (a repeated, escaped or integer-like
// key): the tool is parsed then. Its scratch is kept from tool to tool.
type textProfile struct {
	b    []byte
	s    *toolSummary
	bad  bool
	keys [][]byte // the keys of the objects being walked, a stack
	num  []byte
	// the $refs of the inputSchema (when an object), as analyzeRefs
	// follows them
	refsOn bool
	schema int // where the inputSchema starts in b
	prob   *refProblem
	cprob  [2]*refProblem // a definitions container that is not an object
	path   []rawStep
	refs   []textRef
	defs   []textDef
	cframe [2]int64 // the bytes of each container's own framing
	cobj   [2]bool  // the container is there, an object
	has    [2]bool  // the container is there
	def    int32    // the definition being walked, or -1
	objs   []objAt  // the objects resolve has read
	// the $refs to a root definitions container or one of its
	// definitions, followed once the walk has met the containers, and
	// the paths they were at
	pending []pendingRef
	steps   []rawStep
	dsh     subtree // the description's shape (tagNull: none)
}

// pendingRef is a $ref to a root definitions container or one of its
// definitions ("#/$defs", "#/$defs/a"): as written and its tokens, the
// definition it lies in, and where it was: at the path
// steps[from:to], under key.
type pendingRef struct {
	ref      string
	toks     []string
	in       int32
	from, to int
	key      []byte
}

// objAt is an object resolve has read: where it starts, its members.
type objAt struct {
	at int
	ms []memberAt
}

type rawStep struct {
	key   []byte
	index int
}

// textRef is a local $ref's pointer, and the definition it lies in (-1:
// outside them).
type textRef struct {
	in   int32
	toks []string
}

// textDef is a root definition: its container (0 $defs, 1 definitions),
// name, and bytes as a member.
type textDef struct {
	c    int
	name []byte
	n    int64
	used bool
}

// walk context flags
const (
	wAttrib = 1 << iota // attribute the value's bytes to structure
	wData               // inside enum, const, default, examples or example
	wRoot               // the inputSchema itself
)

// view returns b as a string without copying it: for reading, never
// kept.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// tool profiles the i-th tool, text b, into s, and reports whether it
// could (see textProfile).
func (w *textProfile) tool(b []byte, i int, s *toolSummary) bool {
	for k := range w.objs {
		clear(w.objs[k].ms)
	}
	*w = textProfile{keys: w.keys[:0], num: w.num[:0], path: w.path[:0], refs: w.refs[:0], defs: w.defs[:0], def: -1, objs: w.objs[:0],
		pending: w.pending[:0], steps: w.steps[:0], dsh: subtree{h: tagNull}}
	w.b, w.s = b, s
	// name, description, inputSchema: where each value starts, or -1.
	// Each is walked where it is met, which finds where it ends, but for
	// an inputSchema met before a description: the findings take in the
	// description's values before the schema's, so the schema is walked
	// after the members then.
	at := [3]int{-1, -1, -1}
	var ssh subtree
	schemaWalked := false
	j := jsonjs.SkipSpace(b, 0) + 1
	for idx := 0; ; idx++ {
		key, v, ok := jsonjs.NextMemberValid(b, j)
		if !ok {
			break
		}
		if !jsonjs.PlainKey(key) {
			return false
		}
		w.keys = append(w.keys, key)
		var end int
		switch string(key) {
		case "name":
			at[0] = v
			end = w.name(v)
		case "description":
			at[1] = v
			end = w.description(v)
		case "inputSchema":
			at[2] = v
			if at[1] < 0 {
				end = jsonjs.SkipValid(b, v)
				break
			}
			end, ssh = w.inputSchema(v)
			schemaWalked = true
		default:
			var n int
			end, n, _ = jsonjs.MeasureValid(b, v, "")
			m := int64(len(key) + 3 + n)
			if idx > 0 {
				m++ // the comma before it
			}
			s.wire = append(s.wire, wireBytes{view(key), m})
		}
		j = end
	}
	if jsonjs.HasDuplicate(w.keys) {
		return false
	}
	w.keys = w.keys[:0]
	s.comps[cFraming] += 2
	first := true
	for k, key := range [3]string{"name", "description", "input_schema"} {
		if at[k] < 0 {
			continue
		}
		f := int64(len(key) + 3)
		if !first {
			f++ // the comma before it
		}
		first = false
		s.comps[cFraming] += f
	}
	if s.name == "" && (at[0] < 0 || b[at[0]] != '"') {
		s.name = "tools[" + strconv.Itoa(i) + "]"
	}
	if at[1] < 0 {
		s.cross.vals = append(s.cross.vals, tagNull)
	}
	if at[2] < 0 {
		s.cross.vals = s.cross.vals[:0] // no shape without an inputSchema
		return !w.bad
	}
	if !schemaWalked {
		_, ssh = w.inputSchema(at[2])
	}
	if w.bad {
		return false
	}
	dsh := w.dsh
	sb := startObject()
	sb.member("d", dsh)
	sb.member("s", ssh)
	s.cross.hasShape, s.cross.shape = true, sb.end().h
	if w.refsOn {
		w.defsUsed()
	}
	return true
}

// name walks the tool's name, at b[v], and returns where it ends.
func (w *textProfile) name(v int) int {
	s, b := w.s, w.b
	mark := len(s.cross.vals)
	end, st, _ := w.val(v, wData)
	s.cross.vals = s.cross.vals[:mark]
	s.comps[cName] += int64(st.n)
	if b[v] == '"' {
		s.name = jsonjs.StringValid(b[v:end])
	}
	return end
}

// description walks the tool's description, at b[v], and returns where
// it ends.
func (w *textProfile) description(v int) int {
	b := w.b
	end, st, dsh := w.val(v, wData)
	w.dsh = dsh
	w.s.comps[cDescription] += int64(st.n)
	if b[v] == '"' {
		w.sentences(b[v:end])
	}
	return end
}

// inputSchema walks the tool's inputSchema, at b[v], and returns where it
// ends and its shape.
func (w *textProfile) inputSchema(v int) (int, subtree) {
	w.schema = v
	w.refsOn = w.b[v] == '{'
	end, _, ssh := w.val(v, wAttrib|wRoot)
	return end, ssh
}

// The components' places in ProfileComponents.
const (
	cName = iota
	cDescription
	cFraming
	cFieldDescriptions
	cPropertyNames
	cDefsUsed
	cDefsUnused
	cEnumConst
	cTitles
	cDefaultsExamples
	cStructure
)

// sentences adds the sentences of the string token t (quotes included).
func (w *textProfile) sentences(t []byte) {
	if bytes.IndexByte(t, '\\') < 0 {
		w.s.cross.sentence(view(t[1 : len(t)-1]))
		return
	}
	w.s.cross.sentence(jsonjs.StringValid(t))
}

// val walks the value at b[i] and returns where it ends, its subtree and
// its shape (see shapeHash).
func (w *textProfile) val(i int, c int) (int, subtree, subtree) {
	b := w.b
	var st subtree
	end := 0
	switch b[i] {
	case '{':
		return w.object(i, c)
	case '[':
		return w.array(i, c)
	case '"':
		end = jsonjs.StringEnd(b, i)
		raw := b[i+1 : end-1]
		if bytes.IndexByte(raw, '\\') < 0 {
			st = subtree{mix(tagString, maphash.Bytes(hashSeed, raw)), len(raw) + 2}
		} else {
			st = leafSubtree(jsonjs.StringValue(jsonjs.StringValid(b[i:end])))
		}
	case 't':
		st, end = subtree{tagTrue, 4}, i+4
	case 'f':
		st, end = subtree{tagFalse, 5}, i+5
	case 'n':
		st, end = subtree{tagNull, 4}, i+4
	default:
		end = i
		for end < len(b) {
			if c := b[end]; c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			end++
		}
		w.num = jsonjs.AppendNumberText(w.num[:0], b[i:end])
		st = subtree{mix(tagNumber, maphash.Bytes(hashSeed, w.num)), len(w.num)}
	}
	if c&wAttrib != 0 {
		w.s.comps[cStructure] += int64(st.n)
	}
	w.s.cross.vals = append(w.s.cross.vals, st.h)
	return end, st, subtree{h: tagNull}
}

func (w *textProfile) array(i, c int) (int, subtree, subtree) {
	b := w.b
	st, sh := startArray(), startArray()
	attrib := c&wAttrib != 0
	if attrib {
		w.s.comps[cStructure] += 2
	}
	c &^= wRoot
	j := jsonjs.SkipSpace(b, i+1)
	for k := 0; b[j] != ']'; k++ {
		if b[j] == ',' {
			j = jsonjs.SkipSpace(b, j+1)
		}
		if k > 0 && attrib {
			w.s.comps[cStructure]++
		}
		w.path = append(w.path, rawStep{index: k})
		end, est, esh := w.val(j, c)
		w.path = w.path[:len(w.path)-1]
		st.add(est)
		sh.add(esh)
		j = jsonjs.SkipSpace(b, end)
	}
	return j + 1, st.end(), sh.end()
}

// problem notes the first $ref that cannot be followed, at the path
// walked and its last key.
func (w *textProfile) problem(key []byte, what string) {
	if w.prob != nil {
		return
	}
	w.prob = problemAt(w.path, key, what)
}

// problemAt is the problem what at the path walked and its last key.
func problemAt(path []rawStep, key []byte, what string) *refProblem {
	steps := make([]pathStep, 0, len(path)+1)
	for _, s := range path {
		if s.index >= 0 {
			steps = append(steps, pathStep{index: s.index})
		} else {
			steps = append(steps, pathStep{key: string(s.key), index: -1})
		}
	}
	if key != nil {
		steps = append(steps, pathStep{key: string(key), index: -1})
	}
	return &refProblem{writePath(steps), what}
}

func (w *textProfile) object(i, c int) (int, subtree, subtree) {
	b := w.b
	st, sh := startObject(), startObject()
	attrib, data, root := c&wAttrib != 0, c&wData != 0, c&wRoot != 0
	refs := w.refsOn && !data
	if attrib {
		w.s.comps[cStructure] += 2
	}
	mark := len(w.keys)
	j := i + 1
	for idx := 0; ; idx++ {
		key, v, ok := jsonjs.NextMemberValid(b, j)
		if !ok {
			j = jsonjs.SkipSpace(b, j)
			break
		}
		if !jsonjs.PlainKey(key) {
			w.bad = true
		}
		w.keys = append(w.keys, key)
		kn := len(key) + 2
		frame := int64(kn + 1)
		if idx > 0 {
			frame++
		}
		ks := view(key)
		vk := b[v]
		if refs {
			switch {
			case ks == "$dynamicRef" || ks == "$recursiveRef":
				w.problem(key, ks+" is not followed")
			case ks == "$id" && !root:
				w.problem(key, "a nested $id changes what its $refs point at")
			case ks == "$ref":
				w.ref(key, v)
			}
		}
		comp := -1
		switch {
		case ks == "description" && vk == '"':
			comp = cFieldDescriptions
			if !data {
				w.sentences(b[v:jsonjs.StringEnd(b, v)])
			}
		case ks == "title" && vk == '"':
			comp = cTitles
		case ks == "enum" || ks == "const":
			comp = cEnumConst
		case ks == "default" || ks == "examples" || ks == "example":
			comp = cDefaultsExamples
		}
		var end int
		var est, esh subtree
		w.path = append(w.path, rawStep{key: key, index: -1})
		switch {
		case comp >= 0:
			cc := c &^ (wAttrib | wRoot)
			if dataKey(ks) {
				cc |= wData
			}
			end, est, esh = w.val(v, cc)
			if attrib {
				w.s.comps[comp] += frame + int64(est.n)
			}
		case root && defsIndex(ks) >= 0:
			k := defsIndex(ks)
			w.has[k] = true
			if vk != '{' {
				w.cprob[k] = &refProblem{"$." + ks, "is " + article(jsonjs.KindValid(b[v:v+1])) + ", not an object of definitions"}
				if attrib {
					w.s.comps[cStructure] += frame
				}
				end, est, esh = w.val(v, c&^wRoot)
				break
			}
			w.cobj[k] = true
			if attrib {
				w.cframe[k] = frame + 2
			}
			end, est, esh = w.mapping(v, c&^(wRoot|wAttrib), k)
		case mapKey(ks) && vk == '{':
			if attrib {
				w.s.comps[cStructure] += frame + 2
			}
			end, est, esh = w.mapping(v, c&^wRoot, -1)
		default:
			if attrib {
				w.s.comps[cStructure] += frame
			}
			end, est, esh = w.val(v, c&^wRoot)
		}
		w.path = w.path[:len(w.path)-1]
		kh := maphash.Bytes(hashSeed, key)
		st.memberHashed(kh, kn, est)
		sh.memberHashed(kh, kn, esh)
		j = end
	}
	if jsonjs.HasDuplicate(w.keys[mark:]) {
		w.bad = true
	}
	w.keys = w.keys[:mark]
	s := st.end()
	if !data && !root && s.n >= minRepeat {
		w.s.cross.subs = append(w.s.cross.subs, s)
	}
	return j + 1, s, sh.end()
}

// mapping walks an object whose members' values are schemas: properties
// and the like (container < 0: their keys are property names), or a
// root definitions container (0 $defs, 1 definitions: each member is a
// definition, whole).
func (w *textProfile) mapping(i, c, container int) (int, subtree, subtree) {
	b := w.b
	st, sh := startObject(), startObject()
	attrib := c&wAttrib != 0
	mark := len(w.keys)
	j := i + 1
	for idx := 0; ; idx++ {
		key, v, ok := jsonjs.NextMemberValid(b, j)
		if !ok {
			j = jsonjs.SkipSpace(b, j)
			break
		}
		if !jsonjs.PlainKey(key) {
			w.bad = true
		}
		w.keys = append(w.keys, key)
		kn := len(key) + 2
		frame := int64(kn + 1)
		if idx > 0 {
			frame++
		}
		if attrib {
			w.s.comps[cPropertyNames] += frame
		}
		w.path = append(w.path, rawStep{key: key, index: -1})
		if container >= 0 {
			w.def = int32(len(w.defs))
			w.defs = append(w.defs, textDef{c: container, name: key})
		}
		end, est, esh := w.val(v, c)
		if container >= 0 {
			w.defs[w.def].n = frame + int64(est.n)
			w.def = -1
		}
		w.path = w.path[:len(w.path)-1]
		kh := maphash.Bytes(hashSeed, key)
		st.memberHashed(kh, kn, est)
		sh.memberHashed(kh, kn, esh)
		j = end
	}
	if jsonjs.HasDuplicate(w.keys[mark:]) {
		w.bad = true
	}
	w.keys = w.keys[:mark]
	return j + 1, st.end(), sh.end()
}

// ref follows the $ref whose value is at b[v], as analyzeRefs does.
func (w *textProfile) ref(key []byte, v int) {
	if w.prob != nil {
		return
	}
	b := w.b
	if b[v] != '"' {
		w.problem(key, "is "+article(jsonjs.KindValid(b[v:v+1]))+", not a reference")
		return
	}
	ref := jsonjs.StringValid(b[v:jsonjs.StringEnd(b, v)])
	toks, what := localPointer(ref)
	if what != "" {
		w.problem(key, fmt.Sprintf("%q %s", ref, what))
		return
	}
	if len(toks) > 0 && len(toks) <= 2 && defsIndex(toks[0]) >= 0 {
		// a root definition: known once the walk has met them all
		from := len(w.steps)
		w.steps = append(w.steps, w.path...)
		w.pending = append(w.pending, pendingRef{ref, toks, w.def, from, len(w.steps), key})
		return
	}
	if !w.resolve(toks) {
		w.problem(key, fmt.Sprintf("%q points at nothing", ref))
		return
	}
	w.refs = append(w.refs, textRef{in: w.def, toks: toks})
}

// followPending follows the $refs to root definitions, as resolve would
// have when they were met. Each came before any problem the walk noted
// (none is noted after one), so the first that points at nothing is the
// first problem.
func (w *textProfile) followPending() {
	for _, p := range w.pending {
		k := defsIndex(p.toks[0])
		found := w.has[k]
		if found && len(p.toks) == 2 && w.cobj[k] {
			found = false
			for _, d := range w.defs {
				if d.c == k && string(d.name) == p.toks[1] {
					found = true
					break
				}
			}
		}
		// a container that is not an object is a problem of its own,
		// which defsUsed puts first
		if !found {
			w.prob = problemAt(w.steps[p.from:p.to], p.key, fmt.Sprintf("%q points at nothing", p.ref))
			return
		}
		w.refs = append(w.refs, textRef{in: p.in, toks: p.toks})
	}
}

// resolve reports whether the pointer's tokens lead to a value in the
// inputSchema.
func (w *textProfile) resolve(toks []string) bool {
	b := w.b
	i := w.schema
	for _, t := range toks {
		switch b[i] {
		case '{':
			found := -1
			for _, m := range w.members(i) {
				if jsonjs.KeyIs(m.key, t) {
					found = m.v // the last of a key, as JSON.parse keeps it
				}
			}
			if found < 0 {
				return false
			}
			i = found
		case '[':
			k, err := strconv.Atoi(t)
			if err != nil || k < 0 || strconv.Itoa(k) != t {
				return false
			}
			j := jsonjs.SkipSpace(b, i+1)
			for n := 0; ; n++ {
				if b[j] == ']' {
					return false
				}
				if b[j] == ',' {
					j = jsonjs.SkipSpace(b, j+1)
				}
				if n == k {
					break
				}
				j = jsonjs.SkipSpace(b, jsonjs.SkipValid(b, j))
			}
			i = j
		default:
			return false
		}
	}
	return true
}

// memberAt is a member of an object's text: its raw key and where its
// value starts.
type memberAt struct {
	key []byte
	v   int
}

// members returns the members of the object at b[i], read once a tool
// (the $refs of a tool mostly point into the same one or two objects).
func (w *textProfile) members(i int) []memberAt {
	for _, o := range w.objs {
		if o.at == i {
			return o.ms
		}
	}
	// the room of an object read for an earlier tool, kept
	var ms []memberAt
	if n := len(w.objs); n < cap(w.objs) {
		ms = w.objs[:n+1][n].ms[:0]
	}
	for j := i + 1; ; {
		key, v, ok := jsonjs.NextMemberValid(w.b, j)
		if !ok {
			break
		}
		ms = append(ms, memberAt{key, v})
		j = jsonjs.SkipValid(w.b, v)
	}
	w.objs = append(w.objs, objAt{i, ms})
	return ms
}

// defsUsed follows the $refs into the definitions, transitively, and
// gives each definition and container's framing its component.
func (w *textProfile) defsUsed() {
	w.followPending()
	prob := w.prob
	for k := 1; k >= 0; k-- {
		if w.cprob[k] != nil {
			prob = w.cprob[k]
		}
	}
	known := prob == nil
	if known {
		var queue []int32 // refs to follow: their indexes
		for r := range w.refs {
			if w.refs[r].in < 0 {
				queue = append(queue, int32(r))
			}
		}
		use := func(d int) {
			if w.defs[d].used {
				return
			}
			w.defs[d].used = true
			for r := range w.refs {
				if w.refs[r].in == int32(d) {
					queue = append(queue, int32(r))
				}
			}
		}
		for len(queue) > 0 {
			toks := w.refs[queue[0]].toks
			queue = queue[1:]
			if len(toks) == 0 {
				continue
			}
			k := defsIndex(toks[0])
			if k < 0 || !w.cobj[k] {
				continue
			}
			for d := range w.defs {
				if w.defs[d].c == k && (len(toks) == 1 || string(w.defs[d].name) == toks[1]) {
					use(d)
				}
			}
		}
	} else if w.has[0] || w.has[1] {
		w.s.warn = defsWarning(w.s.name, prob)
	}
	var any [2]bool
	for _, d := range w.defs {
		if d.used || !known {
			w.s.comps[cDefsUsed] += d.n
			any[d.c] = true
		} else {
			w.s.comps[cDefsUnused] += d.n
		}
	}
	for k := range 2 {
		if any[k] || !known {
			w.s.comps[cDefsUsed] += w.cframe[k]
		} else {
			w.s.comps[cDefsUnused] += w.cframe[k]
		}
	}
}
