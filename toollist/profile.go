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
	// Tokenizers are each tokenizer's tokens of the component, in the
	// order the tokenizers were given: a token belongs to the component
	// its piece (what the encoding splits the text into before merging)
	// starts in, so they add up to the tool's count. Model-read
	// components only.
	Tokenizers []ComponentTokens `json:"tokenizers,omitempty"`
}

// ComponentTokens is one tokenizer's tokens of a component.
type ComponentTokens struct {
	// Name is the tokenizer's short name (o200k).
	Name string `json:"name"`
	// Tokens is its count.
	Tokens int64 `json:"tokens"`
}

// PieceCounter is a Counter that also says, piece by piece, where its
// tokens lie in the text (tokenize.Tokenizer is one): what ProfileBytes
// needs to give each component its tokens.
type PieceCounter interface {
	Counter
	// CountPieces counts text, calling each with every piece's first
	// byte and tokens.
	CountPieces(text string, each func(start, tokens int)) int
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
//
// Each counter given that is a PieceCounter also counts each component's
// tokens.
func ProfileBytes(c *Capture, counters ...Counter) (_ *ByteProfile, err error) {
	defer c.pg.caught(c.pg.guard(), &err)
	p := &ByteProfile{PerTool: make([]ToolProfile, 0, len(c.Tools)), Findings: []Finding{}}
	total := map[string]int64{}
	wire := map[string]int64{}
	cross := newCrossTools(c.tool)
	var pcs []PieceCounter
	for _, k := range counters {
		if pc, ok := k.(PieceCounter); ok {
			pcs = append(pcs, pc)
		}
	}
	tokens := map[string][]int64{}
	for i := range c.Tools {
		tool, err := c.tool(i)
		if err != nil {
			return nil, err
		}
		name, _ := toolLabel(tool, i)
		tp, runs, warn, err := profileRuns(tool, name)
		if err != nil {
			return nil, inputErr(c.Path, "%s[%d]: %v", c.toolsAt(), i, err)
		}
		if len(pcs) > 0 {
			tokensByComponent(&tp, runs, tool, pcs)
			for _, cp := range tp.Components {
				for k, t := range cp.Tokenizers {
					tokens[cp.Name] = grow(tokens[cp.Name], len(pcs))
					tokens[cp.Name][k] += t.Tokens
				}
			}
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
	for i, cp := range p.Components {
		for k, n := range tokens[cp.Name] {
			p.Components[i].Tokenizers = append(p.Components[i].Tokenizers, ComponentTokens{pcs[k].Name(), n})
		}
	}
	p.Wire = sortedComponents(wire, false)
	p.Findings = cross.findings()
	return p, nil
}

func grow(s []int64, n int) []int64 {
	if len(s) < n {
		return append(s, make([]int64, n-len(s))...)
	}
	return s
}

// tokensByComponent counts the tool's model-read text with each counter
// and gives each token to the component its piece starts in.
func tokensByComponent(tp *ToolProfile, runs []run, tool jsonjs.Value, pcs []PieceCounter) {
	text := string(jsonjs.Stringify(ModelRead(tool)))
	byComp := map[string][]int64{}
	for k, pc := range pcs {
		r, end := 0, int64(0)
		if len(runs) > 0 {
			end = runs[0].n
		}
		pc.CountPieces(text, func(start, tokens int) {
			for int64(start) >= end && r+1 < len(runs) {
				r++
				end += runs[r].n
			}
			byComp[runs[r].comp] = grow(byComp[runs[r].comp], len(pcs))
			byComp[runs[r].comp][k] += int64(tokens)
		})
	}
	for i, cp := range tp.Components {
		for k, n := range grow(byComp[cp.Name], len(pcs)) {
			tp.Components[i].Tokenizers = append(tp.Components[i].Tokenizers, ComponentTokens{pcs[k].Name(), n})
		}
	}
}

// run is a stretch of a tool's model-read text that belongs to one
// component.
type run struct {
	comp string
	n    int64
}

// attrib writes down, in the order JSON.stringify writes the text, which
// component each stretch of it belongs to.
type attrib struct {
	runs []run
	u    *refUse // which root definitions are used; nil: all count as used
}

func (a *attrib) emit(comp string, n int64) {
	if n == 0 {
		return
	}
	if k := len(a.runs); k > 0 && a.runs[k-1].comp == comp {
		a.runs[k-1].n += n
		return
	}
	a.runs = append(a.runs, run{comp, n})
}

// profileRuns profiles one tool and returns the runs of its model-read
// text, in order.
func profileRuns(tool jsonjs.Value, name string) (ToolProfile, []run, string, error) {
	mr := ModelRead(tool)
	warn := ""
	a := &attrib{}
	a.emit(CompFraming, 1)
	for i, m := range mr.Members() {
		frame := int64(keyLen(m.Key)) + 1
		if i > 0 {
			frame++
		}
		a.emit(CompFraming, frame)
		switch m.Key {
		case "name":
			a.emit(CompName, int64(jsonjs.StringifyLen(m.Value)))
		case "description":
			a.emit(CompDescription, int64(jsonjs.StringifyLen(m.Value)))
		case "input_schema":
			if m.Value.Kind() == jsonjs.Object {
				u, prob := analyzeRefs(m.Value)
				if prob != nil {
					if hasDefs(m.Value) {
						warn = fmt.Sprintf("%s: inputSchema%s: definitions counted as used: %s", name, prob.path[1:], prob.what)
					}
					u = nil
				}
				a.u = u
			}
			a.schema(m.Value, true)
		}
	}
	a.emit(CompFraming, 1)
	sums := map[string]int64{}
	var sum int64
	for _, r := range a.runs {
		sums[r.comp] += r.n
		sum += r.n
	}
	tp := ToolProfile{Name: name, ModelReadBytes: int64(jsonjs.StringifyLen(mr)), Components: sortedComponents(sums, true)}
	if sum != tp.ModelReadBytes {
		return tp, nil, "", fmt.Errorf("tool %s: the profile's components add up to %d bytes, not the %d a model reads: a bug in the profile", name, sum, tp.ModelReadBytes)
	}
	wm := map[string]int64{}
	for i, m := range tool.Members() {
		switch m.Key {
		case "name", "description", "inputSchema":
			continue
		}
		wm[m.Key] += memberLen(i, m)
	}
	tp.Wire = sortedComponents(wm, false)
	return tp, a.runs, warn, nil
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

// schema attributes the bytes of a schema value, in order.
func (a *attrib) schema(v jsonjs.Value, root bool) {
	switch v.Kind() {
	case jsonjs.Array:
		a.emit(CompStructure, 1)
		for i, e := range v.Elems() {
			if i > 0 {
				a.emit(CompStructure, 1)
			}
			a.schema(e, false)
		}
		a.emit(CompStructure, 1)
	case jsonjs.Object:
		a.emit(CompStructure, 1)
		for i, m := range v.Members() {
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
				a.emit(comp, memberLen(i, m))
				continue
			}
			// the comma, the key and the colon
			frame := int64(keyLen(m.Key) + 1)
			if i > 0 {
				frame++
			}
			switch {
			case root && (m.Key == "$defs" || m.Key == "definitions") && m.Value.Kind() == jsonjs.Object:
				var names map[string]bool
				if a.u != nil {
					names = a.u.used[m.Key]
				}
				c := CompDefsUsed
				if a.u != nil && !slicesContainsUsed(m.Value, names) {
					c = CompDefsUnused
				}
				a.emit(c, frame+1)
				for j, d := range m.Value.Members() {
					dc := CompDefsUsed
					if a.u != nil && !names[d.Key] {
						dc = CompDefsUnused
					}
					a.emit(dc, memberLen(j, d))
				}
				a.emit(c, 1)
			case mapKey(m.Key) && m.Value.Kind() == jsonjs.Object:
				a.emit(CompStructure, frame+1)
				for j, d := range m.Value.Members() {
					n := int64(keyLen(d.Key) + 1)
					if j > 0 {
						n++
					}
					a.emit(CompPropertyNames, n)
					a.schema(d.Value, false)
				}
				a.emit(CompStructure, 1)
			default:
				a.emit(CompStructure, frame)
				a.schema(m.Value, false)
			}
		}
		a.emit(CompStructure, 1)
	default:
		a.emit(CompStructure, int64(jsonjs.StringifyLen(v)))
	}
}

// slicesContainsUsed reports whether a definition of defs is used.
func slicesContainsUsed(defs jsonjs.Value, used map[string]bool) bool {
	for _, d := range defs.Members() {
		if used[d.Key] {
			return true
		}
	}
	return false
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
