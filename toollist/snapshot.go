package toollist

import (
	"sort"

	"github.com/readmeter/readmeter/jsonjs"
)

// snapshotOrder is the order Snapshot writes the members of the MCP
// specification's Tool in.
var snapshotOrder = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "execution", "icons", "_meta"}

// Snapshot returns a tool, every member the server listed kept, in an
// order that holds however the server orders its keys: the Tool members of
// the MCP specification first (name, title, description, inputSchema,
// outputSchema, annotations, execution, icons, _meta), then any other
// member by key; inside them, every object's keys sorted (as JavaScript
// orders them: integer-like keys first) and arrays in their order. A
// value that is not an object is returned as it is.
func Snapshot(tool jsonjs.Value) jsonjs.Value {
	if tool.Kind() != jsonjs.Object {
		return tool
	}
	rank := func(k string) int {
		for i, o := range snapshotOrder {
			if o == k {
				return i
			}
		}
		return len(snapshotOrder)
	}
	ms := make([]jsonjs.Member, len(tool.Members()))
	for i, m := range tool.Members() {
		ms[i] = jsonjs.Member{Key: m.Key, Value: sortKeys(m.Value)}
	}
	sort.SliceStable(ms, func(a, b int) bool {
		ra, rb := rank(ms[a].Key), rank(ms[b].Key)
		if ra != rb {
			return ra < rb
		}
		return ms[a].Key < ms[b].Key
	})
	return jsonjs.ObjectValue(ms)
}

// sortKeys returns v with every object's keys sorted.
func sortKeys(v jsonjs.Value) jsonjs.Value {
	switch v.Kind() {
	case jsonjs.Array:
		es := make([]jsonjs.Value, len(v.Elems()))
		for i, e := range v.Elems() {
			es[i] = sortKeys(e)
		}
		return jsonjs.ArrayValue(es)
	case jsonjs.Object:
		ms := make([]jsonjs.Member, len(v.Members()))
		for i, m := range v.Members() {
			ms[i] = jsonjs.Member{Key: m.Key, Value: sortKeys(m.Value)}
		}
		sort.Slice(ms, func(a, b int) bool { return ms[a].Key < ms[b].Key })
		return jsonjs.ObjectValue(ms)
	}
	return v
}
