package toollist

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/readmeter/readmeter/jsonjs"
)

// defsKeys are the members of a schema's root that hold definitions:
// "$defs" (JSON Schema 2019-09 on) and "definitions" (draft-07 and before).
var defsKeys = [2]string{"$defs", "definitions"}

// defsIndex returns the place in defsKeys of the definitions container
// named k, or -1 when k names none.
func defsIndex(k string) int {
	switch k {
	case defsKeys[0]:
		return 0
	case defsKeys[1]:
		return 1
	}
	return -1
}

// dataKeys are the schema keywords whose values are data, not schemas: a
// "$ref" or "description" inside them is not a keyword.
func dataKey(k string) bool {
	switch k {
	case "enum", "const", "default", "examples", "example":
		return true
	}
	return false
}

// mapKey reports whether the schema keyword k holds an object whose
// members' values are schemas and whose keys are names, not keywords.
func mapKey(k string) bool {
	switch k {
	case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
		return true
	}
	return false
}

// refUse is what the local references of one inputSchema use of its root
// definitions.
type refUse struct {
	// defs[c]: what they use of the container defsKeys[c], when the
	// schema has it
	defs [len(defsKeys)]defsUse
	// refs: every local $ref found, as written, at its JSON path.
	refs []refAt
	// the room of an analysis, kept by refScratch for the next
	inside []refAt
	states []defState
	at     []pathStep
}

// refScratch is the room of one goroutine's $ref analyses, each dropped
// before the next (see analyzeRefsIn), and the tokens of the pointers it
// has decoded: tools repeat their $refs.
type refScratch struct {
	u    refUse
	toks map[string][]string
}

// pointer returns localPointer(ref), decoded once for the pointers met
// lately; the tokens are shared, never changed.
func (sc *refScratch) pointer(ref string) ([]string, string) {
	if toks, ok := sc.toks[ref]; ok {
		return toks, ""
	}
	toks, what := localPointer(ref)
	if what == "" {
		if sc.toks == nil || len(sc.toks) >= 1024 {
			sc.toks = make(map[string][]string, 64)
		}
		sc.toks[ref] = toks
	}
	return toks, what
}

// defsUse is what the local references of a schema use of one of its
// root definitions containers.
type defsUse struct {
	has     bool
	whole   bool            // a $ref points at the container itself
	members []jsonjs.Member // its definitions
	state   []defState      // by definition, as members
	index   map[string]int  // the definitions by name, among many
}

// defState is what the references use of one definition: used, when a
// $ref reaches it, directly or through other definitions; the refs inside
// it are refs[lo:hi] of those found inside the definitions.
type defState struct {
	used   bool
	lo, hi int32
}

// uses returns what the references use of the container named k, or nil
// when the schema has none.
func (u *refUse) uses(k string) *defsUse {
	if c := defsIndex(k); c >= 0 && u.defs[c].has {
		return &u.defs[c]
	}
	return nil
}

// used reports whether the j-th definition is used.
func (d *defsUse) used(j int) bool { return d.state[j].used }

// anyUsed reports whether a definition is used.
func (d *defsUse) anyUsed() bool {
	for _, s := range d.state {
		if s.used {
			return true
		}
	}
	return false
}

// find returns the index of the definition named name, or -1.
func (d *defsUse) find(name string) int {
	if len(d.members) > 32 {
		if d.index == nil {
			d.index = make(map[string]int, len(d.members))
			for j, m := range d.members {
				d.index[m.Key] = j
			}
		}
		if j, ok := d.index[name]; ok {
			return j
		}
		return -1
	}
	for j, m := range d.members {
		if m.Key == name {
			return j
		}
	}
	return -1
}

type refAt struct {
	// path: the JSON path of the member, "$.properties.a.$ref", written
	// only for a pointer that is not the root or a whole root
	// definition (see wholeDef), the ones a caller names
	path string
	ref  string   // as written
	toks []string // the pointer's tokens, decoded
}

// refProblem is why the definitions of a schema cannot be judged: the
// JSON path and what is there.
type refProblem struct {
	path string
	what string
}

// analyzeRefs follows the $refs of schema (an inputSchema object) from
// outside its root definitions into them, transitively. It returns a
// problem when one $ref cannot be followed as a local JSON Pointer (a
// reference to another document, an anchor, $dynamicRef, $recursiveRef, a
// nested $id, a pointer to nothing, a bad escape), or when a definitions
// container is not an object.
func analyzeRefs(schema jsonjs.Value) (*refUse, *refProblem) {
	return analyzeRefsIn(nil, schema)
}

// analyzeRefsIn is analyzeRefs in the room of sc, when not nil: what it
// returns is valid until its next analysis.
func analyzeRefsIn(sc *refScratch, schema jsonjs.Value) (*refUse, *refProblem) {
	u := &refUse{}
	pointer := localPointer
	if sc != nil {
		u = &sc.u
		*u = refUse{refs: u.refs[:0], inside: u.inside[:0], states: u.states[:0], at: u.at[:0]}
		pointer = sc.pointer
	}
	ndefs := 0
	for c, k := range defsKeys {
		if d, ok := schema.Get(k); ok {
			if d.Kind() != jsonjs.Object {
				return nil, &refProblem{"$." + k, "is " + article(d.Kind()) + ", not an object of definitions"}
			}
			u.defs[c] = defsUse{has: true, members: d.Members()}
			ndefs += len(d.Members())
		}
	}
	// the refs outside the root definitions are found into u.refs; those
	// inside them into inside, one definition after another (see
	// defState)
	u.states = append(u.states[:0], make([]defState, ndefs)...)
	states := u.states
	for c := range u.defs {
		n := len(u.defs[c].members)
		u.defs[c].state, states = states[:n:n], states[n:]
	}
	inside := u.inside
	var prob *refProblem
	// the path is kept as a stack of keys and indexes, written out only
	// where a $ref or a problem is met
	at := u.at
	if at == nil {
		at = make([]pathStep, 0, 16)
	}
	here := func() string { return writePath(at) }
	var walk func(v jsonjs.Value, root bool, sink *[]refAt)
	walk = func(v jsonjs.Value, root bool, sink *[]refAt) {
		if prob != nil {
			return
		}
		switch v.Kind() {
		case jsonjs.Array:
			for i, e := range v.Elems() {
				at = append(at, pathStep{index: i})
				walk(e, false, sink)
				at = at[:len(at)-1]
			}
		case jsonjs.Object:
			for _, m := range v.Members() {
				at = append(at, pathStep{key: m.Key, index: -1})
				switch {
				case m.Key == "$dynamicRef" || m.Key == "$recursiveRef":
					prob = &refProblem{here(), m.Key + " is not followed"}
				case m.Key == "$id" && !root:
					prob = &refProblem{here(), "a nested $id changes what its $refs point at"}
				case m.Key == "$ref":
					if m.Value.Kind() != jsonjs.String {
						prob = &refProblem{here(), "is " + article(m.Value.Kind()) + ", not a reference"}
						break
					}
					toks, what := pointer(m.Value.Str())
					if what != "" {
						prob = &refProblem{here(), fmt.Sprintf("%q %s", m.Value.Str(), what)}
						break
					}
					if _, ok := resolvePointer(schema, toks); !ok {
						prob = &refProblem{here(), fmt.Sprintf("%q points at nothing", m.Value.Str())}
						break
					}
					path := ""
					if !wholeDef(toks) {
						path = here()
					}
					*sink = append(*sink, refAt{path, m.Value.Str(), toks})
				case dataKey(m.Key):
				case root && defsIndex(m.Key) >= 0:
					du := u.uses(m.Key)
					for j, d := range m.Value.Members() {
						lo := len(inside)
						at = append(at, pathStep{key: d.Key, index: -1})
						walk(d.Value, false, &inside)
						at = at[:len(at)-1]
						du.state[j].lo, du.state[j].hi = int32(lo), int32(len(inside))
					}
				case mapKey(m.Key) && m.Value.Kind() == jsonjs.Object:
					for _, d := range m.Value.Members() {
						at = append(at, pathStep{key: d.Key, index: -1})
						walk(d.Value, false, sink)
						at = at[:len(at)-1]
					}
				default:
					walk(m.Value, false, sink)
				}
				at = at[:len(at)-1]
				if prob != nil {
					return
				}
			}
		}
	}
	walk(schema, true, &u.refs)
	u.inside, u.at = inside, at[:0] // the room, for the next
	if prob != nil {
		return nil, prob
	}
	// the refs to follow are the refs found, in order: those outside the
	// definitions, then those inside each definition they reach
	reach := func(du *defsUse, j int) {
		if st := &du.state[j]; !st.used {
			st.used = true
			u.refs = append(u.refs, inside[st.lo:st.hi]...)
		}
	}
	for q := 0; q < len(u.refs); q++ {
		r := u.refs[q]
		if len(r.toks) == 0 {
			continue
		}
		du := u.uses(r.toks[0])
		if du == nil {
			continue
		}
		if len(r.toks) == 1 {
			if !du.whole {
				du.whole = true
				for j := range du.state {
					reach(du, j)
				}
			}
			continue
		}
		if j := du.find(r.toks[1]); j >= 0 {
			reach(du, j)
		}
	}
	return u, nil
}

// localPointer decodes a $ref that is a local JSON Pointer ("#", "#/a/b")
// into its tokens: percent-escapes first (it is a URI fragment), then ~1
// and ~0. Anything else gives why it is not one.
func localPointer(ref string) ([]string, string) {
	if !strings.HasPrefix(ref, "#") {
		return nil, "is not a local reference (it names another document)"
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil || !utf8.ValidString(frag) {
		return nil, "has a bad percent-escape"
	}
	if frag == "" {
		return []string{}, ""
	}
	if frag[0] != '/' {
		return nil, "is an anchor, not a JSON Pointer"
	}
	toks := strings.Split(frag[1:], "/")
	for i, t := range toks {
		for j := 0; j < len(t); j++ {
			if t[j] == '~' && (j+1 == len(t) || (t[j+1] != '0' && t[j+1] != '1')) {
				return nil, "has a bad ~ escape"
			}
		}
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, ""
}

// resolvePointer returns the value at the pointer's tokens in v.
func resolvePointer(v jsonjs.Value, toks []string) (jsonjs.Value, bool) {
	for _, t := range toks {
		switch v.Kind() {
		case jsonjs.Object:
			c, ok := v.Get(t)
			if !ok {
				return v, false
			}
			v = c
		case jsonjs.Array:
			k, err := strconv.Atoi(t)
			if err != nil || k < 0 || k >= len(v.Elems()) || strconv.Itoa(k) != t {
				return v, false
			}
			v = v.Elems()[k]
		default:
			return v, false
		}
	}
	return v, true
}

// pathStep is a step of a JSON path: a member's key, or an array's index
// (index >= 0).
type pathStep struct {
	key   string
	index int
}

// writePath writes a JSON path: "$.properties.a", "$.anyOf[0]".
func writePath(steps []pathStep) string {
	b := []byte{'$'}
	for _, s := range steps {
		if s.index >= 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
			continue
		}
		b = append(b, pathKey(s.key)...)
	}
	return string(b)
}

// pathKey writes a member's key as a step of a JSON path: ".key" for an
// identifier, `["key"]` (JSON-quoted) for anything else.
func pathKey(k string) string {
	ident := k != ""
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			ident = false
			break
		}
	}
	if ident {
		return "." + k
	}
	return "[" + string(jsonjs.AppendQuote(nil, k)) + "]"
}
