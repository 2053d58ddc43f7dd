package toollist

import (
	"strconv"

	"github.com/readmeter/readmeter/jsonjs"
)

// The transforms the walk applies, applied to a parsed tool instead: the
// oracle the walk is held to (see whatIfParsed), Node being the oracle of
// both.

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
