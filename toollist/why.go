package toollist

import (
	"sort"
	"strconv"

	"github.com/readmeter/readmeter/jsonjs"
)

// Change is one place of a tool list whose model-read bytes moved between
// two captures: a tool added or removed, or a JSON path inside what a
// model reads of a tool.
type Change struct {
	// Tool is the tool's name (or "tools[i]").
	Tool string
	// Path is the place in what a model reads of the tool, dotted
	// ("description", "input_schema.properties.query.description"; a key
	// that is not an identifier in brackets, as JSON.stringify quotes it;
	// an array element as [i]); "" for the whole tool.
	Path string
	// Status is "added" or "removed" for a path (or tool) only in one of
	// the lists, "changed" for a value in both, "structure" for the commas
	// and braces a container gained or lost with its members.
	Status string
	// Old and New are the bytes the path takes in each list (a member's
	// key, colon and value, and its comma; a value's own bytes).
	Old, New int64
}

// Delta is New less Old.
func (c Change) Delta() int64 { return c.New - c.Old }

// Why attributes every byte by which what a model reads of the list moved,
// from old to new, to the tool and the JSON path that moved, largest
// growth first: the deltas add up to the change of the model-read bytes.
// Tools are matched by name (a repeated name by its occurrence), as
// Compare matches them. Inside a tool, objects are compared member by
// member and arrays of the same length element by element; any other
// value (an array that changed length, a value of another kind) is one
// change.
func Why(old, new *Capture) ([]Change, error) {
	type key struct {
		name string
		nth  int
	}
	load := func(c *Capture) ([]jsonjs.Value, []key, error) {
		vs := make([]jsonjs.Value, len(c.Tools))
		ks := make([]key, len(c.Tools))
		seen := map[string]int{}
		for i := range c.Tools {
			t, err := c.tool(i)
			if err != nil {
				return nil, nil, err
			}
			vs[i] = ModelRead(t)
			name, _ := toolLabel(t, i)
			ks[i] = key{name, seen[name]}
			seen[name]++
		}
		return vs, ks, nil
	}
	ov, ok, err := load(old)
	if err != nil {
		return nil, err
	}
	nv, nk, err := load(new)
	if err != nil {
		return nil, err
	}
	at := make(map[key]int, len(ok))
	for i, k := range ok {
		at[k] = i
	}
	var out []Change
	matched := make([]bool, len(ok))
	for i, k := range nk {
		j, found := at[k]
		if !found {
			out = append(out, Change{Tool: k.name, Status: "added", New: int64(jsonjs.StringifyLen(nv[i]))})
			continue
		}
		matched[j] = true
		attribute(ov[j], nv[i], k.name, "", &out)
	}
	for j, m := range matched {
		if !m {
			out = append(out, Change{Tool: ok[j].name, Status: "removed", Old: int64(jsonjs.StringifyLen(ov[j]))})
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Delta() > out[b].Delta() })
	return out, nil
}

// attribute appends the changes from o to n at path of the tool, adding
// up to the change of their JSON.stringify lengths.
func attribute(o, n jsonjs.Value, tool, path string, out *[]Change) {
	ol, nl := int64(jsonjs.StringifyLen(o)), int64(jsonjs.StringifyLen(n))
	start := len(*out)
	switch {
	case o.Kind() == jsonjs.Object && n.Kind() == jsonjs.Object:
		member := func(m jsonjs.Member, count int) int64 {
			b := int64(len(jsonjs.AppendQuote(nil, m.Key))+1) + int64(jsonjs.StringifyLen(m.Value))
			if count > 1 {
				b++ // its comma
			}
			return b
		}
		for _, m := range n.Members() {
			if v, ok := o.Get(m.Key); ok {
				attribute(v, m.Value, tool, join(path, m.Key), out)
				continue
			}
			*out = append(*out, Change{Tool: tool, Path: join(path, m.Key), Status: "added", New: member(m, len(n.Members()))})
		}
		for _, m := range o.Members() {
			if _, ok := n.Get(m.Key); !ok {
				*out = append(*out, Change{Tool: tool, Path: join(path, m.Key), Status: "removed", Old: member(m, len(o.Members()))})
			}
		}
	case o.Kind() == jsonjs.Array && n.Kind() == jsonjs.Array && len(o.Elems()) == len(n.Elems()):
		for i := range n.Elems() {
			attribute(o.Elems()[i], n.Elems()[i], tool, path+"["+strconv.Itoa(i)+"]", out)
		}
	default:
		if ol != nl {
			*out = append(*out, Change{Tool: tool, Path: path, Status: "changed", Old: ol, New: nl})
		}
		return
	}
	var sum int64
	for _, c := range (*out)[start:] {
		sum += c.Delta()
	}
	if rest := (nl - ol) - sum; rest != 0 {
		c := Change{Tool: tool, Path: path, Status: "structure"}
		if rest > 0 {
			c.New = rest
		} else {
			c.Old = -rest
		}
		*out = append(*out, c)
	}
}

// join appends key to a dotted path, in brackets (quoted as JSON) when it
// is not an identifier.
func join(path, key string) string {
	if !identifier(key) {
		return path + "[" + string(jsonjs.AppendQuote(nil, key)) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
