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
	// used[container][name]: the definition is reached by a $ref,
	// directly or through other definitions.
	used map[string]map[string]bool
	// whole[container]: a $ref points at the container itself.
	whole map[string]bool
	// refs: every local $ref found, as written, at its JSON path.
	refs []refAt
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
	u := &refUse{used: make(map[string]map[string]bool, 1), whole: make(map[string]bool, 1)}
	ndefs := 0
	for _, k := range defsKeys {
		if d, ok := schema.Get(k); ok {
			if d.Kind() != jsonjs.Object {
				return nil, &refProblem{"$." + k, "is " + article(d.Kind()) + ", not an object of definitions"}
			}
			u.used[k] = make(map[string]bool, len(d.Members()))
			ndefs += len(d.Members())
		}
	}
	// refs outside the root definitions, then inside each definition
	// the refs inside the definitions, one after another: those of each
	// definition are inside[d.lo:d.hi] of its entry d in inDef
	var inside []refAt
	type defRefs struct {
		c, name string
		lo, hi  int
	}
	inDef := make([]defRefs, 0, ndefs)
	var prob *refProblem
	// the path is kept as a stack of keys and indexes, written out only
	// where a $ref or a problem is met
	at := make([]pathStep, 0, 16)
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
					toks, what := localPointer(m.Value.Str())
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
				case root && (m.Key == "$defs" || m.Key == "definitions"):
					for _, d := range m.Value.Members() {
						lo := len(inside)
						at = append(at, pathStep{key: d.Key, index: -1})
						walk(d.Value, false, &inside)
						at = at[:len(at)-1]
						inDef = append(inDef, defRefs{m.Key, d.Key, lo, len(inside)})
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
	if prob != nil {
		return nil, prob
	}
	// refsIn returns the refs inside a definition: looked up in inDef,
	// or, among many definitions, in a map of them
	type defKey struct{ c, name string }
	var index map[defKey]int
	if len(inDef) > 32 {
		index = make(map[defKey]int, len(inDef))
		for k, d := range inDef {
			index[defKey{d.c, d.name}] = k
		}
	}
	refsIn := func(c, name string) []refAt {
		if index != nil {
			if k, ok := index[defKey{c, name}]; ok {
				return inside[inDef[k].lo:inDef[k].hi]
			}
			return nil
		}
		for _, d := range inDef {
			if d.c == c && d.name == name {
				return inside[d.lo:d.hi]
			}
		}
		return nil
	}
	// the refs to follow are the refs found, in order: those outside the
	// definitions, then those inside each definition they reach
	for q := 0; q < len(u.refs); q++ {
		r := u.refs[q]
		if len(r.toks) == 0 {
			continue
		}
		c := r.toks[0]
		names, ok := u.used[c]
		if !ok {
			continue
		}
		if len(r.toks) == 1 {
			if !u.whole[c] {
				u.whole[c] = true
				d, _ := schema.Get(c)
				for _, m := range d.Members() {
					if !names[m.Key] {
						names[m.Key] = true
						u.refs = append(u.refs, refsIn(c, m.Key)...)
					}
				}
			}
			continue
		}
		if !names[r.toks[1]] {
			names[r.toks[1]] = true
			u.refs = append(u.refs, refsIn(c, r.toks[1])...)
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
