package toollist

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

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
// Each tool's profile is kept packed, a few dozen bytes a tool; Tool
// unpacks one.
type ByteProfile struct {
	// ModelReadBytes is the bytes a model reads of the list: the sum of
	// Components.
	ModelReadBytes int64 `json:"model_read_bytes"`
	// Components are the totals over the tools, largest first.
	Components []Component `json:"components"`
	// Wire are the totals of the wire-only members, largest first.
	Wire []Component `json:"wire,omitempty"`
	// Findings are what the list repeats across its tools (estimates).
	Findings []Finding `json:"findings"`
	// Warnings say which tools' definitions could not be judged used or
	// unused (they are counted as used), one line each.
	Warnings []string `json:"warnings,omitempty"`

	tokenizers []string       // the names of the tokenizers counted
	wireKeys   []string       // the wire members' keys, each once
	wireKey    map[string]int // key -> index in wireKeys
	wireTotal  []int64        // the bytes of each key over the tools
	packed     []byte         // the tools' profiles, one after the other (see pack)
	at         []int          // where each tool's starts in packed
}

// Tools returns how many tools the profile holds.
func (p *ByteProfile) Tools() int { return len(p.at) }

// Tool returns the profile of the i-th tool, in the capture's order.
func (p *ByteProfile) Tool(i int) ToolProfile {
	var tp ToolProfile
	p.ToolInto(i, &tp)
	return tp
}

// ToolInto is Tool into tp, in the room of its components and wire
// members: a caller that reads the tools one at a time spares an
// allocation a tool.
func (p *ByteProfile) ToolInto(i int, tp *ToolProfile) {
	b := p.packed[p.at[i]:]
	next := func() int64 {
		v, n := binary.Uvarint(b)
		b = b[n:]
		return int64(v)
	}
	nl := next()
	*tp = ToolProfile{Name: string(b[:nl]), Components: tp.Components[:0], Wire: tp.Wire[:0]}
	b = b[nl:]
	var comps [nComponents]int64
	for k := range comps {
		comps[k] = next()
		tp.ModelReadBytes += comps[k]
	}
	var toks [][]int64
	if len(p.tokenizers) > 0 {
		toks = make([][]int64, nComponents)
		for k := range toks {
			toks[k] = make([]int64, len(p.tokenizers))
			for j := range toks[k] {
				toks[k][j] = next()
			}
		}
	}
	tp.Components = sortedComponents(tp.Components, comps[:], toks, p.tokenizers)
	for w := next(); w > 0; w-- {
		key := p.wireKeys[next()]
		tp.Wire = append(tp.Wire, Component{Name: key, Bytes: next()})
	}
	if len(tp.Wire) == 0 {
		tp.Wire = nil // none, as Tool says it
	}
	sortWire(tp.Wire)
}

// pack appends a tool's profile to the list's: its name, its components'
// bytes in the order of ProfileComponents (and each one's tokens by each
// tokenizer), and its wire members, each as the index of its key and its
// bytes, as unsigned varints.
func (p *ByteProfile) pack(s *toolSummary) {
	p.at = append(p.at, len(p.packed))
	b := binary.AppendUvarint(p.packed, uint64(len(s.name)))
	b = append(b, s.name...)
	for _, n := range s.comps {
		b = binary.AppendUvarint(b, uint64(n))
	}
	for _, n := range s.tokens {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = binary.AppendUvarint(b, uint64(len(s.wire)))
	for _, w := range s.wire {
		k, ok := p.wireKey[w.key]
		if !ok {
			k = len(p.wireKeys)
			p.wireKeys = append(p.wireKeys, strings.Clone(w.key))
			p.wireKey[p.wireKeys[k]] = k
			p.wireTotal = append(p.wireTotal, 0)
		}
		p.wireTotal[k] += w.n
		b = binary.AppendUvarint(b, uint64(k))
		b = binary.AppendUvarint(b, uint64(w.n))
	}
	p.packed = b
}

// nComponents is the number of model-read components.
const nComponents = 11

// compIndex is each component's place in ProfileComponents.
var compIndex = func() map[string]int {
	m := map[string]int{}
	for i, c := range ProfileComponents {
		m[c.Name] = i
	}
	return m
}()

// toolSummary is what profiling one tool finds: what the list keeps of it
// (pack), and what the findings take in (cross).
type toolSummary struct {
	name   string
	comps  [nComponents]int64
	tokens []int64 // by component, then tokenizer
	wire   []wireBytes
	warn   string
	cross  toolCross
	err    error
}

type wireBytes struct {
	key string // a view into the tool's text, or its parsed key
	n   int64
}

func (s *toolSummary) reset() {
	s.name, s.comps, s.tokens, s.warn, s.err = "", [nComponents]int64{}, s.tokens[:0], "", nil
	clear(s.wire)
	s.wire = s.wire[:0]
	s.cross.reset()
}

// profileBatch is how many tools the workers of ProfileBytes take at a
// time, between which the findings take in what they found, in order.
const profileBatch = 64

// ProfileBytes profiles every tool of the capture: each model-read byte of a
// tool is attributed to one component (see ProfileComponents), and the
// components of each tool must add up to its model-read bytes, as
// JSON.stringify writes them; a sum that does not is reported as an error.
//
// Each counter given that is a PieceCounter also counts each component's
// tokens.
//
// A tool is read from its text, once, building nothing, unless its
// objects hold keys JavaScript would reorder or merge (a repeated, escaped
// or integer-like key) or counters are given: it is parsed then. The tools
// are read on several goroutines, a batch at a time; what the tools repeat
// across each other is taken in between, in the capture's order.
func ProfileBytes(c *Capture, counters ...Counter) (_ *ByteProfile, err error) {
	defer c.pg.caught(c.pg.guard(), &err)
	p := &ByteProfile{Findings: []Finding{}, wireKey: map[string]int{}, at: make([]int, 0, len(c.Tools))}
	var pcs []PieceCounter
	for _, k := range counters {
		if pc, ok := k.(PieceCounter); ok {
			pcs = append(pcs, pc)
			p.tokenizers = append(p.tokenizers, pc.Name())
		}
	}
	back := c.behindFrom(0)
	cross := newCrossTools(c.rereader(&back), p.modelBytes, p.name)
	workers := min(runtime.GOMAXPROCS(0), 4)
	if len(c.Tools) < 2*profileBatch/workers+1 {
		workers = 1
	}
	sums := make([]toolSummary, min(profileBatch, len(c.Tools)))
	walkers := make([]*profileWalk, workers)
	for k := range walkers {
		walkers[k] = &profileWalk{}
	}
	var total [nComponents]int64
	tokens := make([]int64, nComponents*len(pcs))
	for lo := 0; lo < len(c.Tools); lo += profileBatch {
		hi := min(lo+profileBatch, len(c.Tools))
		back.at(c.Tools[lo])
		one := func(w *profileWalk, i int) {
			s := &sums[i-lo]
			s.reset()
			s.err = w.tool(c, i, pcs, s)
		}
		if workers == 1 {
			for i := lo; i < hi; i++ {
				one(walkers[0], i)
			}
		} else {
			var wg sync.WaitGroup
			var next atomic.Int64
			next.Store(int64(lo))
			for _, w := range walkers {
				wg.Go(func() {
					defer c.pg.caught(c.pg.guard(), nil)
					for {
						i := int(next.Add(1)) - 1
						if i >= hi {
							return
						}
						one(w, i)
					}
				})
			}
			wg.Wait()
			if err := c.pg.failed(); err != nil {
				return nil, err
			}
		}
		for i := lo; i < hi; i++ {
			s := &sums[i-lo]
			if s.err != nil {
				return nil, s.err
			}
			var sum int64
			for k, n := range s.comps {
				total[k] += n
				sum += n
			}
			p.ModelReadBytes += sum
			for k, n := range s.tokens {
				tokens[k] += n
			}
			if s.warn != "" {
				p.Warnings = append(p.Warnings, s.warn)
			}
			p.pack(s)
			cross.add(&s.cross)
		}
		cross.flush()
	}
	var toks [][]int64
	if len(pcs) > 0 {
		toks = make([][]int64, nComponents)
		for k := range toks {
			toks[k] = tokens[k*len(pcs) : (k+1)*len(pcs)]
		}
	}
	p.Components = sortedComponents(nil, total[:], toks, p.tokenizers)
	for k, n := range p.wireTotal {
		p.Wire = append(p.Wire, Component{Name: p.wireKeys[k], Bytes: n})
	}
	sortWire(p.Wire)
	p.Findings = cross.findings()
	return p, nil
}

// name returns the name of the t-th tool.
func (p *ByteProfile) name(t int) string {
	b := p.packed[p.at[t]:]
	nl, n := binary.Uvarint(b)
	return string(b[n : n+int(nl)])
}

// ToolModelReadBytes returns the model-read bytes of the i-th tool, the
// sum of its components: Tool(i).ModelReadBytes, without unpacking the
// rest.
func (p *ByteProfile) ToolModelReadBytes(i int) int64 { return p.modelBytes(i) }

// modelBytes returns the model-read bytes of the t-th tool.
func (p *ByteProfile) modelBytes(t int) int64 {
	b := p.packed[p.at[t]:]
	nl, n := binary.Uvarint(b)
	b = b[n+int(nl):]
	var sum int64
	for range nComponents {
		v, n := binary.Uvarint(b)
		b = b[n:]
		sum += int64(v)
	}
	return sum
}

// profileWalk profiles tools one at a time, keeping its scratch between
// them.
type profileWalk struct {
	text textProfile
}

// tool profiles the i-th tool into s: from its text, or parsed when the
// text walk cannot (see ProfileBytes).
func (w *profileWalk) tool(c *Capture, i int, pcs []PieceCounter, s *toolSummary) error {
	if len(pcs) == 0 && w.text.tool(c.Tools[i], i, s) {
		return nil
	}
	s.reset()
	tool, err := c.tool(i)
	if err != nil {
		return err
	}
	return profileValue(tool, i, pcs, s, c.Path, c.toolsAt())
}

// profileValue profiles the parsed i-th tool into s.
func profileValue(tool jsonjs.Value, i int, pcs []PieceCounter, s *toolSummary, path, at string) error {
	name, _ := toolLabel(tool, i)
	s.name = name
	runs, warn, err := profileRuns(tool, name, s)
	if err != nil {
		return inputErr(path, "%s[%d]: %v", at, i, err)
	}
	s.warn = warn
	if len(pcs) > 0 {
		s.tokens = tokensByComponent(runs, tool, pcs, s.tokens)
	}
	crossOf(tool, &s.cross)
	return nil
}

func grow(s []int64, n int) []int64 {
	if len(s) < n {
		return append(s, make([]int64, n-len(s))...)
	}
	return s
}

// tokensByComponent counts the tool's model-read text with each counter
// and gives each token to the component its piece starts in: it appends
// to dst the tokens by component, then counter.
func tokensByComponent(runs []run, tool jsonjs.Value, pcs []PieceCounter, dst []int64) []int64 {
	text := string(jsonjs.Stringify(ModelRead(tool)))
	base := len(dst)
	dst = grow(dst, base+nComponents*len(pcs))
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
			dst[base+compIndex[runs[r].comp]*len(pcs)+k] += int64(tokens)
		})
	}
	return dst
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

// profileRuns profiles one tool into s (its components and wire
// members) and returns the runs of its model-read text, in order.
func profileRuns(tool jsonjs.Value, name string, s *toolSummary) ([]run, string, error) {
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
						warn = defsWarning(name, prob)
					}
					u = nil
				}
				a.u = u
			}
			a.schema(m.Value, true)
		}
	}
	a.emit(CompFraming, 1)
	var sum int64
	for _, r := range a.runs {
		s.comps[compIndex[r.comp]] += r.n
		sum += r.n
	}
	if want := int64(jsonjs.StringifyLen(mr)); sum != want {
		return nil, "", fmt.Errorf("tool %s: the profile's components add up to %d bytes, not the %d a model reads: a bug in the profile", name, sum, want)
	}
	for i, m := range tool.Members() {
		switch m.Key {
		case "name", "description", "inputSchema":
			continue
		}
		s.wire = append(s.wire, wireBytes{m.Key, memberLen(i, m)})
	}
	return a.runs, warn, nil
}

// defsWarning is the line of a tool whose definitions are counted as used
// because its $refs cannot all be followed.
func defsWarning(name string, prob *refProblem) string {
	return fmt.Sprintf("%s: inputSchema%s: definitions counted as used: %s", name, prob.path[1:], prob.what)
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
			case root && defsIndex(m.Key) >= 0 && m.Value.Kind() == jsonjs.Object:
				var du *defsUse
				if a.u != nil {
					du = a.u.uses(m.Key)
				}
				c := CompDefsUsed
				if du != nil && !du.anyUsed() {
					c = CompDefsUnused
				}
				a.emit(c, frame+1)
				for j, d := range m.Value.Members() {
					dc := CompDefsUsed
					if du != nil && !du.used(j) {
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

// sortedComponents appends to dst the components with bytes (bytes in
// the order of ProfileComponents; toks, when not nil, each one's tokens by
// each tokenizer named), largest first, ties in the order of
// ProfileComponents.
func sortedComponents(dst []Component, bytes []int64, toks [][]int64, tokenizers []string) []Component {
	out := slices.Grow(dst, nComponents)
	for k, n := range bytes {
		if n == 0 {
			continue
		}
		c := Component{Name: ProfileComponents[k].Name, Bytes: n}
		if toks != nil {
			c.Tokenizers = make([]ComponentTokens, len(tokenizers))
			for j, name := range tokenizers {
				c.Tokenizers[j] = ComponentTokens{name, toks[k][j]}
			}
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b Component) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out
}

// sortWire sorts wire members, largest first, ties by name.
func sortWire(ws []Component) {
	slices.SortFunc(ws, func(a, b Component) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
}
