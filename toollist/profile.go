package toollist

import (
	"fmt"
	"sort"

	"github.com/readmeter/readmeter/jsonjs"
)

// The components of a profile, in the order they are defined. Every byte a
// model reads of a tool belongs to exactly one of them; see ByteProfile.
const (
	// CompName is the tool's name value, quotes included.
	CompName = "name"
	// CompDescription is the tool's description value, quotes included.
	CompDescription = "description"
	// CompFraming is what JSON.stringify writes around the three members
	// a model reads: the braces, the keys "name", "description" and
	// "input_schema", their colons and the commas between them.
	CompFraming = "framing"
	// CompFieldDescriptions is each "description" member of a schema
	// inside input_schema (key, colon, value and its comma).
	CompFieldDescriptions = "field_descriptions"
	// CompPropertyNames is each key of a "properties" (or
	// "patternProperties", "dependentSchemas") object, with its colon and
	// comma; the schema it names is attributed by its own members.
	CompPropertyNames = "property_names"
	// CompDefsUsed is each root definition ($defs or definitions) that a
	// local $ref reaches, whole, with the container's own framing when at
	// least one is used.
	CompDefsUsed = "definitions_used"
	// CompDefsUnused is each root definition no $ref reaches, whole.
	CompDefsUnused = "definitions_unused"
	// CompEnumConst is each "enum" and "const" member, whole.
	CompEnumConst = "enum_const"
	// CompTitles is each "title" member of a schema.
	CompTitles = "titles"
	// CompDefaultsExamples is each "default", "examples" and "example"
	// member, whole.
	CompDefaultsExamples = "defaults_examples"
	// CompStructure is the rest of input_schema: types, required,
	// combinators, $refs, formats, bounds, keys, braces and commas.
	CompStructure = "structure"
)

// ProfileComponents lists the model-read components in the order they are
// defined, each with a line saying what it holds (for help texts).
var ProfileComponents = []struct{ Name, About string }{
	{CompName, "the tool's name, quotes included"},
	{CompDescription, "the tool's description, quotes included"},
	{CompFraming, "the braces, keys, colons and commas JSON.stringify writes around name, description and input_schema"},
	{CompFieldDescriptions, `every "description" member of a schema inside input_schema, key and comma included`},
	{CompPropertyNames, "every key of properties (and patternProperties, dependentSchemas), with its colon and comma"},
	{CompDefsUsed, "root $defs/definitions entries a local $ref reaches, transitively, whole"},
	{CompDefsUnused, "root $defs/definitions entries no $ref reaches, whole: --drop-unused-defs removes them"},
	{CompEnumConst, `every "enum" and "const" member, whole`},
	{CompTitles, `every "title" member of a schema`},
	{CompDefaultsExamples, `every "default", "examples" and "example" member, whole`},
	{CompStructure, "the rest of input_schema: types, required, combinators, $refs, bounds, braces and commas"},
}

// Component is the bytes of one component, of one tool or of a list.
type Component struct {
	// Name is the component's name (CompName ... CompStructure), or of a
	// wire-only member, the member's key.
	Name string `json:"name"`
	// Bytes is its UTF-8 bytes.
	Bytes int64 `json:"bytes"`
}

// ToolProfile is where the bytes of one tool go.
type ToolProfile struct {
	// Name is the tool's name, or "tools[i]" when it has no string name.
	Name string `json:"name"`
	// ModelReadBytes is the bytes a model reads of the tool; the
	// components add up to it.
	ModelReadBytes int64 `json:"model_read_bytes"`
	// Components are the model-read components with bytes, largest first
	// (ties in the order of ProfileComponents).
	Components []Component `json:"components"`
	// Wire are the tool's members a client does not hand to a model
	// (outputSchema, annotations, _meta, title, icons, execution, ...),
	// each as its key, colon, value and comma in the tool's JSON, largest
	// first.
	Wire []Component `json:"wire,omitempty"`
}

// ByteProfile is where the model-read bytes of a tool list go, per tool and in
// total. It is plain data with exact integers, fit to be written as JSON.
type ByteProfile struct {
	// ModelReadBytes is the bytes a model reads of the list: the sum of
	// Components.
	ModelReadBytes int64 `json:"model_read_bytes"`
	// Components are the totals over the tools, largest first.
	Components []Component `json:"components"`
	// Wire are the totals of the wire-only members, largest first.
	Wire []Component `json:"wire,omitempty"`
	// PerTool is each tool's profile, in the capture's order.
	PerTool []ToolProfile `json:"per_tool"`
	// Findings are what the list repeats across its tools (estimates).
	Findings []Finding `json:"findings"`
	// Warnings say which tools' definitions could not be judged used or
	// unused (they are counted as used), one line each.
	Warnings []string `json:"warnings,omitempty"`
}

// ProfileBytes profiles every tool of the capture: each model-read byte of a
// tool is attributed to one component (see ProfileComponents), and the
// components of each tool must add up to its model-read bytes, as
// JSON.stringify writes them; a sum that does not is reported as an error.
func ProfileBytes(c *Capture) (_ *ByteProfile, err error) {
	defer c.pg.caught(c.pg.guard(), &err)
	p := &ByteProfile{PerTool: make([]ToolProfile, 0, len(c.Tools)), Findings: []Finding{}}
	total := map[string]int64{}
	wire := map[string]int64{}
	cross := newCrossTools(c.tool)
	for i := range c.Tools {
		tool, err := c.tool(i)
		if err != nil {
			return nil, err
		}
		name, _ := toolLabel(tool, i)
		tp, warn, err := profileTool(tool, name)
		if err != nil {
			return nil, inputErr(c.Path, "%s[%d]: %v", c.toolsAt(), i, err)
		}
		if warn != "" {
			p.Warnings = append(p.Warnings, warn)
		}
		for _, cp := range tp.Components {
			total[cp.Name] += cp.Bytes
		}
		for _, cp := range tp.Wire {
			wire[cp.Name] += cp.Bytes
		}
		p.ModelReadBytes += tp.ModelReadBytes
		p.PerTool = append(p.PerTool, tp)
		cross.add(tool, name)
	}
	p.Components = sortedComponents(total, true)
	p.Wire = sortedComponents(wire, false)
	p.Findings = cross.findings()
	return p, nil
}

// ProfileTool profiles one tool (a parsed tools[] element). warn is not
// empty when its definitions could not be judged (they count as used).
func ProfileTool(tool jsonjs.Value, name string) (ToolProfile, string, error) {
	return profileTool(tool, name)
}

func profileTool(tool jsonjs.Value, name string) (ToolProfile, string, error) {
	a := map[string]int64{}
	mr := ModelRead(tool)
	warn := ""
	// the framing of {name, description, input_schema}
	a[CompFraming] += 2
	for i, m := range mr.Members() {
		if i > 0 {
			a[CompFraming]++
		}
		a[CompFraming] += int64(keyLen(m.Key)) + 1
		switch m.Key {
		case "name":
			a[CompName] += int64(jsonjs.StringifyLen(m.Value))
		case "description":
			a[CompDescription] += int64(jsonjs.StringifyLen(m.Value))
		case "input_schema":
			var u *refUse
			if m.Value.Kind() == jsonjs.Object {
				var prob *refProblem
				u, prob = analyzeRefs(m.Value)
				if prob != nil {
					if hasDefs(m.Value) {
						warn = fmt.Sprintf("%s: inputSchema%s: definitions counted as used: %s", name, prob.path[1:], prob.what)
					}
					u = nil
				}
			}
			profileSchema(m.Value, a, u, true)
		}
	}
	tp := ToolProfile{Name: name, ModelReadBytes: int64(jsonjs.StringifyLen(mr)), Components: sortedComponents(a, true)}
	var sum int64
	for _, c := range tp.Components {
		sum += c.Bytes
	}
	if sum != tp.ModelReadBytes {
		return tp, "", fmt.Errorf("tool %s: the profile's components add up to %d bytes, not the %d a model reads: a bug in the profile", name, sum, tp.ModelReadBytes)
	}
	ms := tool.Members()
	wm := map[string]int64{}
	for i, m := range ms {
		switch m.Key {
		case "name", "description", "inputSchema":
			continue
		}
		n := int64(keyLen(m.Key) + 1 + jsonjs.StringifyLen(m.Value))
		if i > 0 {
			n++ // its comma
		}
		wm[m.Key] += n
	}
	tp.Wire = sortedComponents(wm, false)
	return tp, warn, nil
}

func hasDefs(s jsonjs.Value) bool {
	for _, k := range defsKeys {
		if _, ok := s.Get(k); ok {
			return true
		}
	}
	return false
}

func keyLen(k string) int { return jsonjs.StringifyLen(jsonjs.StringValue(k)) }

// memberLen is the bytes of an object's member: key, colon, value, and
// the comma before it unless it is the first.
func memberLen(i int, m jsonjs.Member) int64 {
	n := int64(keyLen(m.Key) + 1 + jsonjs.StringifyLen(m.Value))
	if i > 0 {
		n++
	}
	return n
}

// profileSchema attributes the bytes of a schema value. u says which root
// definitions are used (nil: all count as used).
func profileSchema(v jsonjs.Value, a map[string]int64, u *refUse, root bool) {
	switch v.Kind() {
	case jsonjs.Array:
		a[CompStructure] += int64(len(v.Elems())) + 1 // brackets and commas
		if len(v.Elems()) == 0 {
			a[CompStructure]++
		}
		for _, e := range v.Elems() {
			profileSchema(e, a, u, false)
		}
	case jsonjs.Object:
		ms := v.Members()
		a[CompStructure] += 2
		for i, m := range ms {
			comp := ""
			switch {
			case m.Key == "description" && m.Value.Kind() == jsonjs.String:
				comp = CompFieldDescriptions
			case m.Key == "title" && m.Value.Kind() == jsonjs.String:
				comp = CompTitles
			case m.Key == "enum" || m.Key == "const":
				comp = CompEnumConst
			case m.Key == "default" || m.Key == "examples" || m.Key == "example":
				comp = CompDefaultsExamples
			}
			if comp != "" {
				a[comp] += memberLen(i, m)
				continue
			}
			// the key, colon and comma
			frame := int64(keyLen(m.Key) + 1)
			if i > 0 {
				frame++
			}
			switch {
			case root && (m.Key == "$defs" || m.Key == "definitions") && m.Value.Kind() == jsonjs.Object:
				names := map[string]bool(nil)
				if u != nil {
					names = u.used[m.Key]
				}
				anyUsed := false
				for j, d := range m.Value.Members() {
					c := CompDefsUsed
					if u != nil && !names[d.Key] {
						c = CompDefsUnused
					} else {
						anyUsed = true
					}
					a[c] += memberLen(j, d)
				}
				c := CompDefsUsed
				if !anyUsed && u != nil {
					c = CompDefsUnused
				}
				a[c] += frame + 2
			case mapKey(m.Key) && m.Value.Kind() == jsonjs.Object:
				a[CompStructure] += frame + 2
				for j, d := range m.Value.Members() {
					n := int64(keyLen(d.Key) + 1)
					if j > 0 {
						n++
					}
					a[CompPropertyNames] += n
					profileSchema(d.Value, a, u, false)
				}
			default:
				a[CompStructure] += frame
				profileSchema(m.Value, a, u, false)
			}
		}
	default:
		a[CompStructure] += int64(jsonjs.StringifyLen(v))
	}
}

// sortedComponents returns the components with bytes, largest first; ties
// in the order of ProfileComponents (model) or by name (wire).
func sortedComponents(m map[string]int64, model bool) []Component {
	out := make([]Component, 0, len(m))
	for k, n := range m {
		if n != 0 {
			out = append(out, Component{Name: k, Bytes: n})
		}
	}
	rank := map[string]int{}
	for i, c := range ProfileComponents {
		rank[c.Name] = i
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		if model {
			return rank[out[i].Name] < rank[out[j].Name]
		}
		return out[i].Name < out[j].Name
	})
	return out
}
