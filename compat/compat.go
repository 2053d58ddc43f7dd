// Package compat says what a change to a tool list does to the clients of
// the server: every change between two lists, each with a stable rule id,
// the tool, the JSON path and a level (breaking, warning or compatible).
//
//	changes := compat.Compare(oldTools, newTools) // parsed tools, as tools/list lists them
//	if compat.Worst(changes) >= compat.Breaking { ... }
//
// The stance is oasdiff's and buf breaking's: a client was written against
// the old list, so a change is judged by what it does to calls that used
// to work (the input schema: narrowing breaks) and to code that reads
// results (the output schema: widening breaks), and by what the
// annotations promise (a promise withdrawn is a warning). Every change is
// listed, the compatible ones too, so that the list is also a review aid.
//
// The steps:
//
//  1. Tools are matched by name. A tool only in the old list is removed,
//     or renamed when a tool only in the new list has the same input
//     schema; a tool only in the new list is added.
//  2. A matched tool's members are compared: title and description,
//     annotations (by the value each hint means, its default included),
//     execution, _meta, icons, and the two schemas.
//  3. Schemas are compared by meaning: local $refs are resolved first
//     (a reference cycle is followed once), key order is ignored, a type
//     written as an array of one is that type, required and enum are
//     sets. Hoisting definitions into $defs is no change.
//  4. Changes come out worst first; within a level, in the new list's
//     order of tools, then the removed ones.
package compat

import (
	"sort"
	"strconv"

	"github.com/readmeter/readmeter/jsonjs"
)

// Change is one difference between two tool lists.
type Change struct {
	// Rule is the id of the rule that classified the change (see Rules).
	Rule string
	// Level is the rule's level.
	Level Level
	// Tool is the tool's name in the old list (the new one for a tool
	// added); "tools[i]" for a tool without a string name.
	Tool string
	// Path is the JSON path inside the tool, as tools/list writes it
	// ("inputSchema.properties.path.maxLength", "annotations.readOnlyHint";
	// a key that is not an identifier in brackets, quoted as JSON); ""
	// for the whole tool.
	Path string
	// Old and New are the JSON text of the value at Path in each list
	// (keys sorted), "" where it is absent. Of a renamed tool, the names.
	Old, New string
}

// Says returns the sentence of the change's rule.
func (c Change) Says() string { return Rules[c.Rule].Says }

// Worst returns the highest level among the changes, and false when there
// are none.
func Worst(changes []Change) (Level, bool) {
	w := Compatible
	for _, c := range changes {
		w = max(w, c.Level)
	}
	return w, len(changes) > 0
}

// Count returns how many of the changes are at each level, indexed by
// Level.
func Count(changes []Change) [3]int {
	var n [3]int
	for _, c := range changes {
		n[c.Level]++
	}
	return n
}

// Compare lists every change from the old tools to the new ones, worst
// first. Each tool is a parsed element of tools/list's tools array.
func Compare(old, new []jsonjs.Value) []Change {
	type key struct {
		name string
		nth  int
	}
	keys := func(ts []jsonjs.Value) []key {
		seen := map[string]int{}
		out := make([]key, len(ts))
		for i, t := range ts {
			n := toolName(t, i)
			out[i] = key{n, seen[n]}
			seen[n]++
		}
		return out
	}
	okeys, nk := keys(old), keys(new)
	at := make(map[key]int, len(okeys))
	for i, k := range okeys {
		at[k] = i
	}
	var out []Change
	matched := make([]bool, len(old))
	var added []int
	for i, k := range nk {
		j, found := at[k]
		if !found {
			added = append(added, i)
			continue
		}
		matched[j] = true
		c := &comparer{out: &out, tool: k.name}
		c.members(old[j], new[i])
	}
	var removed []int
	for j, m := range matched {
		if !m {
			removed = append(removed, j)
		}
	}
	// A removed tool whose input schema an added one has, by meaning, was
	// renamed.
	renamedTo := map[int]int{}
	took := map[int]bool{}
	for _, j := range removed {
		oi, _ := old[j].Get("inputSchema")
		for _, i := range added {
			ni, _ := new[i].Get("inputSchema")
			if !took[i] && canonical(oi, oi) == canonical(ni, ni) {
				renamedTo[j], took[i] = i, true
				break
			}
		}
	}
	for _, i := range added {
		if !took[i] {
			out = append(out, Change{Rule: ruleToolAdded, Tool: nk[i].name, New: text(new[i], true)})
		}
	}
	for _, j := range removed {
		if i, found := renamedTo[j]; found {
			out = append(out, Change{Rule: ruleToolRenamed, Tool: okeys[j].name, Old: quote(okeys[j].name), New: quote(nk[i].name)})
			continue
		}
		out = append(out, Change{Rule: ruleToolRemoved, Tool: okeys[j].name, Old: text(old[j], true)})
	}
	for i := range out {
		out[i].Level = Rules[out[i].Rule].Level
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Level > out[b].Level })
	return out
}

// toolName names the i-th tool: its name when that is a string.
func toolName(t jsonjs.Value, i int) string {
	if n, ok := t.Get("name"); ok && n.Kind() == jsonjs.String {
		return n.Str()
	}
	return "tools[" + strconv.Itoa(i) + "]"
}

func quote(s string) string { return string(jsonjs.AppendQuote(nil, s)) }

// join appends key to a dotted path, in brackets (quoted as JSON) when it
// is not an identifier.
func join(path, key string) string {
	if !identifier(key) {
		return path + "[" + quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// identifier reports whether k is ASCII letters, digits, _ and $, not
// starting with a digit.
func identifier(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c == '$' || 'a' <= c|0x20 && c|0x20 <= 'z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
