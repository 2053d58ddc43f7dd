package toollist

import (
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// Transform is a what-if: a rewrite of each tool of a list, as a server
// change would make it.
type Transform interface {
	// Name is the transform's name in reports, as --json writes it:
	// "lean", "drop_empty_output_schemas", "words".
	Name() string
	// apply returns the tool rewritten and how many changes it made.
	apply(tool jsonjs.Value, name string) (jsonjs.Value, int, error)
	// finish reports what the transform could not apply after every tool
	// was seen.
	finish() error
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

func (lean) apply(tool jsonjs.Value, _ string) (jsonjs.Value, int, error) {
	total := 0
	for _, key := range []string{"inputSchema", "outputSchema"} {
		s, ok := tool.Get(key)
		if !ok {
			continue
		}
		ns, n := leanValue(s)
		if n > 0 {
			tool = setMember(tool, key, ns)
			total += n
		}
	}
	return tool, total, nil
}

// leanValue removes $schema and safe-integer maximums from v at any depth.
func leanValue(v jsonjs.Value) (jsonjs.Value, int) {
	switch v.Kind() {
	case jsonjs.Object:
		ms := v.Members()
		var out []jsonjs.Member
		total := 0
		for i, m := range ms {
			drop := m.Key == "$schema" ||
				(m.Key == "maximum" && m.Value.Kind() == jsonjs.Number && m.Value.Num() == MaxSafeInteger)
			var nv jsonjs.Value
			n := 0
			if !drop {
				nv, n = leanValue(m.Value)
			}
			if (drop || n > 0) && out == nil {
				out = append(make([]jsonjs.Member, 0, len(ms)), ms[:i]...)
			}
			switch {
			case drop:
				total++
			case out != nil:
				out = append(out, jsonjs.Member{Key: m.Key, Value: nv})
				total += n
			}
		}
		if out == nil {
			return v, 0
		}
		return jsonjs.ObjectValue(out), total
	case jsonjs.Array:
		es := v.Elems()
		var out []jsonjs.Value
		total := 0
		for i, e := range es {
			ne, n := leanValue(e)
			if n > 0 && out == nil {
				out = append(make([]jsonjs.Value, 0, len(es)), es[:i]...)
			}
			if out != nil {
				out = append(out, ne)
			}
			total += n
		}
		if out == nil {
			return v, 0
		}
		return jsonjs.ArrayValue(out), total
	}
	return v, 0
}

// DropEmptyOutputSchemas returns the transform that removes each tool's
// outputSchema when it declares no property: it has no "properties", or
// "properties" is not an object with at least one member.
func DropEmptyOutputSchemas() Transform { return dropEmpty{} }

type dropEmpty struct{}

func (dropEmpty) Name() string  { return "drop_empty_output_schemas" }
func (dropEmpty) finish() error { return nil }

func (dropEmpty) apply(tool jsonjs.Value, _ string) (jsonjs.Value, int, error) {
	s, ok := tool.Get("outputSchema")
	if !ok || s.Kind() != jsonjs.Object {
		return tool, 0, nil
	}
	if p, ok := s.Get("properties"); ok && p.Kind() == jsonjs.Object && len(p.Members()) > 0 {
		return tool, 0, nil
	}
	return deleteMember(tool, "outputSchema"), 1, nil
}

// Words is a set of new texts: tool descriptions and field descriptions.
type Words struct {
	path  string
	desc  map[string]string      // tool -> new description
	paths map[string][]wordsPath // tool -> new texts inside inputSchema
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
	w := &Words{path: path, desc: map[string]string{}, paths: map[string][]wordsPath{}, keys: map[string]string{}, used: map[string]bool{}}
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
	return w, nil
}

// Transform returns the words as a transform. Each use starts afresh.
func (w *Words) Transform() Transform {
	c := *w
	c.used = map[string]bool{}
	return &c
}

// Name returns "words".
func (w *Words) Name() string { return "words" }

func (w *Words) apply(tool jsonjs.Value, name string) (jsonjs.Value, int, error) {
	if _, ok := w.keys[name]; !ok {
		return tool, 0, nil
	}
	w.used[name] = true
	n := 0
	if d, ok := w.desc[name]; ok {
		tool = setMember(tool, "description", jsonjs.StringValue(d))
		n++
	}
	if ps := w.paths[name]; len(ps) > 0 {
		s, ok := tool.Get("inputSchema")
		if !ok {
			return tool, 0, inputErr(w.path, "%q: tool %s has no inputSchema", ps[0].key, name)
		}
		for _, p := range ps {
			ns, err := setPointer(s, p.pointer, jsonjs.StringValue(p.text))
			if err != "" {
				return tool, 0, inputErr(w.path, "%q: tool %s's inputSchema has no %s", p.key, name, err)
			}
			s = ns
			n++
		}
		tool = setMember(tool, "inputSchema", s)
	}
	return tool, n, nil
}

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

// setPointer returns v with the value at pointer replaced by nv. The value
// must exist; when it does not, the pointer prefix that is missing is
// returned as a string.
func setPointer(v jsonjs.Value, pointer []string, nv jsonjs.Value) (jsonjs.Value, string) {
	return setAt(v, pointer, 0, nv)
}

func setAt(v jsonjs.Value, ptr []string, i int, nv jsonjs.Value) (jsonjs.Value, string) {
	if i == len(ptr) {
		return nv, ""
	}
	missing := func() string { return "/" + escapePointer(ptr[:i+1]) }
	switch v.Kind() {
	case jsonjs.Object:
		c, ok := v.Get(ptr[i])
		if !ok {
			return v, missing()
		}
		nc, err := setAt(c, ptr, i+1, nv)
		if err != "" {
			return v, err
		}
		return setMember(v, ptr[i], nc), ""
	case jsonjs.Array:
		k, err := strconv.Atoi(ptr[i])
		es := v.Elems()
		if err != nil || k < 0 || k >= len(es) || strconv.Itoa(k) != ptr[i] {
			return v, missing()
		}
		nc, e := setAt(es[k], ptr, i+1, nv)
		if e != "" {
			return v, e
		}
		out := append([]jsonjs.Value(nil), es...)
		out[k] = nc
		return jsonjs.ArrayValue(out), ""
	}
	return v, missing()
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
