package toollist

import (
	"fmt"
	"hash/maphash"
	"runtime"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/readmeter/readmeter/internal/testhook"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
)

// Figures are what a model reads of one tool list, in exact integers.
type Figures struct {
	// WireBytes is the size of the answer as received.
	WireBytes int64
	// Tools is how many tools the list holds.
	Tools int
	// ModelReadBytes is the sum over tools of the UTF-8 bytes of
	// JSON.stringify({name, description, input_schema: inputSchema}).
	ModelReadBytes int64
	// ModelReadTokens is floor(ModelReadBytes / 3).
	ModelReadTokens int64
	// DescriptionBytes is the UTF-8 bytes of the tools' string descriptions.
	DescriptionBytes int64
	// FieldDescriptionBytes is the UTF-8 bytes of every string under a key
	// named "description" inside the tools' input schemas.
	FieldDescriptionBytes int64
	// Tokenizers holds each real tokenizer's count of what a model reads,
	// summed over the tools, when Options.Counters asked for them.
	Tokenizers []TokenizerCount
	// Longest is the longest tool description.
	Longest Longest
	// PerTool holds each tool's figures in the capture's order.
	PerTool []ToolFigures
	// NameJSON holds JSON.stringify(t.name) of each tool whose name is not
	// a string (a report writes it as Node would), by the tool's index;
	// nil when every name is a string. It is kept here, not in
	// ToolFigures, as ToolTokenCounts is: a tool's figures are written by
	// the measuring workers tool by tool, and each byte they take is
	// memory to be touched ten thousand times over on a long list.
	NameJSON map[int]string
	// ToolTokenCounts holds each tool's counts by the real tokenizers,
	// when Options.Counters asked for them (nil otherwise): the i-th tool's
	// count by the k-th of Tokenizers is ToolTokenCounts[i*len(Tokenizers)+k],
	// -1 where a report read back lacks it. ToolTokens gives one tool's.
	ToolTokenCounts []int64
	// Warnings are what the reader should know, each a sentence naming the
	// file and the place.
	Warnings []string
}

// ToolTokens returns the i-th tool's counts by the real tokenizers (see
// ToolTokenCounts), nil when there are none.
func (f *Figures) ToolTokens(i int) []TokenizerCount {
	var out []TokenizerCount
	for k, n := range f.toolCounts(i) {
		if n >= 0 {
			out = append(out, TokenizerCount{Name: f.Tokenizers[k].Name, Tokens: n})
		}
	}
	return out
}

// toolCounts returns the i-th tool's part of ToolTokenCounts, nil when
// there is none.
func (f *Figures) toolCounts(i int) []int64 {
	k := len(f.Tokenizers)
	if k == 0 || i < 0 || (i+1)*k > len(f.ToolTokenCounts) {
		return nil
	}
	return f.ToolTokenCounts[i*k : (i+1)*k]
}

// Longest is the longest tool description: the tool (the first on ties)
// and its length in UTF-16 code units. Tool is "" and Index -1 when no tool
// has a string description.
type Longest struct {
	Tool  string
	Index int
	Chars int
}

// ToolFigures are one tool's figures.
type ToolFigures struct {
	// Name is the tool's name, or "tools[i]" when its name is not a string.
	Name string
	// Index is the tool's place in the capture.
	Index int
	// HasName reports whether the tool has a name member at all (when it
	// is not a string, Figures.NameJSON holds it).
	HasName bool
	// HasInputSchema reports whether the tool has an inputSchema member,
	// which MCP requires (true for a tool read from a report).
	HasInputSchema bool
	// ModelReadBytes is the UTF-8 bytes of what a model reads of the tool.
	ModelReadBytes int64
	// ModelReadTokens is floor(ModelReadBytes / 3).
	ModelReadTokens int64
	// DescriptionChars is the description's length in UTF-16 code units,
	// 0 when it is not a string.
	DescriptionChars int
	// DescriptionBytes is the description's UTF-8 bytes, 0 when it is not
	// a string.
	DescriptionBytes int64
	// FieldDescriptionBytes is the UTF-8 bytes of the descriptions inside
	// the tool's inputSchema.
	FieldDescriptionBytes int64
}

// ModelRead returns the object a model reads of tool:
// {name, description, input_schema: inputSchema}, absent members dropped.
func ModelRead(tool jsonjs.Value) jsonjs.Value {
	ms := make([]jsonjs.Member, 0, 3)
	if v, ok := tool.Get("name"); ok {
		ms = append(ms, jsonjs.Member{Key: "name", Value: v})
	}
	if v, ok := tool.Get("description"); ok {
		ms = append(ms, jsonjs.Member{Key: "description", Value: v})
	}
	if v, ok := tool.Get("inputSchema"); ok {
		ms = append(ms, jsonjs.Member{Key: "input_schema", Value: v})
	}
	return jsonjs.ObjectValue(ms)
}

// toolLens returns the UTF-8 bytes of JSON.stringify of tool and those
// of what a model reads of it (ModelRead), writing each member once.
func toolLens(tool jsonjs.Value) (wire, model int) {
	wire, model = 2, 2
	n, read := 0, 0
	for _, m := range tool.Members() {
		v := jsonjs.StringifyLen(m.Value)
		wire += keyLen(m.Key) + 1 + v
		if n > 0 {
			wire++
		}
		n++
		var k int
		switch m.Key {
		case "name", "description":
			k = len(m.Key) + 2
		case "inputSchema":
			k = len("input_schema") + 2
		default:
			continue
		}
		model += k + 1 + v
		if read > 0 {
			model++
		}
		read++
	}
	if tool.Kind() != jsonjs.Object {
		wire = jsonjs.StringifyLen(tool)
	}
	return wire, model
}

// scanned is what the parallel phase of Measure finds of one tool's name
// and description for the naming phase, besides its figures: whether it
// has them, and whether they are strings. A byte a tool: the naming phase
// reads the rare name or description that is not a string from the text
// again.
type scanned uint8

// The flags of scanned.
const (
	hasName scanned = 1 << iota
	hasDesc
	nameStr
	descStr
	hasSchema
)

// scanOf returns the flags of a tool whose name and description texts
// are name and desc (nil when absent), with an inputSchema or not.
func scanOf(name, desc []byte, schema bool) scanned {
	var sc scanned
	if schema {
		sc |= hasSchema
	}
	if name != nil {
		sc |= hasName
		if name[0] == '"' {
			sc |= nameStr
		}
	}
	if desc != nil {
		sc |= hasDesc
		if desc[0] == '"' {
			sc |= descStr
		}
	}
	return sc
}

// scanTool counts one tool from its validated text, in one pass:
// model-read bytes, description and field description sizes. Of a
// repeated member, the last counts, as JavaScript keeps it.
func scanTool(raw []byte, tf *ToolFigures, sc *scanned) {
	var nameLen, descLen, schemaLen int
	var name, desc []byte
	var hasSchema bool
	var fields int64
	for i := jsonjs.SkipSpace(raw, 0) + 1; ; {
		key, v, more := jsonjs.NextMemberValid(raw, i)
		if !more {
			break
		}
		i = v
		switch {
		case jsonjs.KeyIs(key, "name"):
			e, n, _ := jsonjs.MeasureValid(raw, i, "")
			name, nameLen = raw[i:e], n
			i = e
		case jsonjs.KeyIs(key, "description"):
			e, n, _ := jsonjs.MeasureValid(raw, i, "")
			desc, descLen = raw[i:e], n
			i = e
		case jsonjs.KeyIs(key, "inputSchema"):
			e, n, fd := jsonjs.MeasureValid(raw, i, "description")
			hasSchema, schemaLen, fields = true, n, fd
			i = e
		default:
			i = jsonjs.SkipValid(raw, i)
		}
	}
	// JSON.stringify({name, description, input_schema}): braces, then each
	// present member as "key":value, commas between.
	n, count := 2, 0
	for _, m := range [...]struct {
		quoted, len int
		ok          bool
	}{{len(`"name"`), nameLen, name != nil}, {len(`"description"`), descLen, desc != nil}, {len(`"input_schema"`), schemaLen, hasSchema}} {
		if !m.ok {
			continue
		}
		if count > 0 {
			n++
		}
		n += m.quoted + 1 + m.len
		count++
	}
	fill(tf, sc, name, desc, hasSchema, int64(n), fields)
}

// fill sets a tool's figures and flags from its model-read bytes, the
// UTF-8 bytes of its field descriptions, and its name and description
// texts (nil when absent), with an inputSchema or not.
func fill(tf *ToolFigures, sc *scanned, name, desc []byte, schema bool, modelRead, fieldDesc int64) {
	tf.ModelReadBytes = modelRead
	tf.ModelReadTokens = units.Tokens(modelRead)
	*sc = scanOf(name, desc, schema)
	if *sc&nameStr != 0 {
		tf.Name = jsonjs.StringValid(name)
	}
	if *sc&descStr != 0 {
		tf.DescriptionChars, tf.DescriptionBytes = stringLens(desc)
	}
	tf.FieldDescriptionBytes = fieldDesc
}

// figures sets the figures of the tool a walk that wrote nothing has just
// walked: its first stage is the tool as given.
func (res *toolResult) figures(tf *ToolFigures, sc *scanned) {
	fill(tf, sc, res.nameTok, res.descTok, res.hasSchema, int64(res.M[0]), res.fieldDesc)
}

// lastMember returns the value of the last member named key of the
// validated object text tool.
func lastMember(tool []byte, key string) []byte {
	v, _ := jsonjs.LastMember(jsonjs.MembersValid(nil, tool), key)
	return v
}

// stringLens returns the length in UTF-16 code units and the UTF-8 bytes
// (WTF-8) of the validated string token s, once parsed.
func stringLens(s []byte) (units int, n int64) {
	u, b := jsonjs.StringLensValid(s)
	return u, int64(b)
}

// prescanBatch is how many tools the validating pass hands over at once
// to be measured on another goroutine.
var prescanBatch = 128

// prescanned is one batch of tools measured while the capture was being
// validated: the tools' texts, from the start-th, and their figures.
type prescanned struct {
	start int
	tools [][]byte
	figs  []ToolFigures
	scans []scanned
	// pieces: what the what-ifs found of the batch's tools (see walked),
	// when they were applied while measuring
	pieces []piece
	shared bool // figs and scans lie in the prescan's arrays, in place
	seq    int  // the batch's place among the batches
	check  bool // the tools are to be checked to be UTF-8
	// tokens: the counters' counts of the batch's tools, by tool then
	// counter, when the prescan counts them
	tokens []int64
}

// prescan measures the tools on other goroutines as the validating pass
// hands them over, so that measuring overlaps validating. Only full
// batches are handed over; whatever is left, or anything unexpected (a
// second array, a repeated key that replaces the array), is left to
// Measure.
type prescan struct {
	k       int // the path whose array is being measured, +1; 0 before any
	next    int // the place of the next element expected
	aborted bool
	batch   [][]byte
	ch      chan *prescanned
	wg      sync.WaitGroup
	mu      sync.Mutex
	done    []*prescanned
	pg      *pages // the mapping, whose pages a batch measured gives back
	// the what-ifs applied to each tool measured, when asked for; used
	// collects the tools the words applied to
	ts     []Transform
	stages []stage
	used   []string
	// counters count each tool's tokens as it is measured
	counters []Counter
	// the arrays the batches' figures are measured into, in place, and
	// what sizes them: the text's bytes, and the tools' bytes so far
	figs        []ToolFigures
	scans       []scanned
	size, bytes int
	// check: a tool kept was handed over unchecked, so the prescan checks
	// the tools it keeps; notUTF8: one of them is not UTF-8 (see elemFunc)
	check   bool
	notUTF8 atomic.Bool
	// the pages given back behind the batches measured: up to released;
	// ends holds where each batch measured ends, by seq, until every
	// batch before it (from low) is measured too
	relMu         sync.Mutex
	ends          map[int]int
	low, released int
	batches       int
	ahead         chan struct{} // a token for each batch handed over and not yet done in order
}

// taking reports whether the batches measured give back the pages of the
// elements the validating pass hands over (so that it need not).
func (p *prescan) taking() bool { return p.ch != nil && !p.aborted }

// each is the validating pass's hook (an elemFunc): it takes over the
// UTF-8 check of every tool it keeps, checked as the tool is measured (or
// by finish, for the tools left in no full batch).
func (p *prescan) each(k, i int, elem []byte, unchecked bool) (takes bool) {
	if p.aborted {
		return false
	}
	if p.k == 0 {
		p.k = k + 1
	}
	if p.k != k+1 || i != p.next || elem[0] != '{' {
		// a tool that is not an object is Parse's to report
		p.aborted = true
		return false
	}
	p.next++
	if p.batch == nil {
		p.batch = make([][]byte, 0, prescanBatch)
	}
	p.batch = append(p.batch, elem)
	p.bytes += len(elem)
	p.check = p.check || unchecked
	if len(p.batch) < prescanBatch {
		return unchecked
	}
	if p.figs == nil {
		// The figures go straight into arrays for the whole list, sized by
		// the first batch's tools (at most one a 512 bytes of the text);
		// a batch past their end has its own, copied by Measure.
		est := p.size / max(p.bytes/len(p.batch), 1)
		est = min(est+est/8+prescanBatch, p.size/512+prescanBatch)
		p.figs, p.scans = make([]ToolFigures, est), make([]scanned, est)
	}
	if p.ch == nil {
		p.ch = make(chan *prescanned, 4) // the validating pass stays near the batches measured, and the pages read but not yet given back few
		p.ahead = make(chan struct{}, maxAhead)
		// One worker a core, the validating pass's too: measuring (and
		// the what-ifs, and counting tokens) is most of the work, and the
		// validating pass, waiting on a full channel, leaves its core to
		// them.
		for range max(1, min(runtime.GOMAXPROCS(0), 8)) {
			p.wg.Go(func() { p.work() })
		}
	}
	b := &prescanned{start: i + 1 - len(p.batch), tools: p.batch, seq: p.batches, check: p.check}
	p.batches++
	if end := b.start + len(b.tools); end <= len(p.figs) {
		b.figs, b.scans, b.shared = p.figs[b.start:end:end], p.scans[b.start:end:end], true
	}
	p.ahead <- struct{}{} // no further than maxAhead batches past the first not yet measured
	p.ch <- b
	p.batch = nil
	return unchecked
}

// maxAhead is how many batches the validating pass may hand over past
// the first one not yet measured: a worker held up (its processor taken
// by another program) holds back the pages of every batch after its own,
// and the validating pass then waits rather than map in more.
const maxAhead = 8

// work measures batches until the channel closes.
func (p *prescan) work() {
	var mine []*prescanned
	var r *runner
	if len(p.ts) > 0 {
		r = newWorker(p.ts, p.stages)
	}
	var text []byte // the model-read text of the tool being counted
	for b := range p.ch {
		if testhook.BatchTaken != nil {
			testhook.BatchTaken(b.seq)
		}
		ok := p.measure(b, r, &text)
		p.finished(b, ok)
		if !ok {
			continue // the file changed: the rest is only let go
		}
		mine = append(mine, b)
	}
	p.mu.Lock()
	p.done = append(p.done, mine...)
	if r != nil {
		p.used = append(p.used, r.used()...)
	}
	p.mu.Unlock()
}

// measure measures a batch, and walks it with r when r is not nil. It
// reports false when the file changed under it (see pages).
func (p *prescan) measure(b *prescanned, r *runner, text *[]byte) (ok bool) {
	defer p.pg.caught(p.pg.guard(), nil)
	if p.pg.failed() != nil {
		return false
	}
	if b.check {
		p.checkUTF8(b.tools)
	}
	if !b.shared {
		b.figs = make([]ToolFigures, len(b.tools))
		b.scans = make([]scanned, len(b.tools))
	}
	nc := len(p.counters)
	switch {
	case r != nil:
		b.pieces = r.batch(b) // measures the tools too
	case nc == 0:
		for j, t := range b.tools {
			scanTool(t, &b.figs[j], &b.scans[j])
		}
	}
	if nc > 0 {
		b.tokens = make([]int64, len(b.tools)*nc)
		for j, t := range b.tools {
			if r == nil {
				// measured from the text the counters read, written anyway
				*text = appendModelReadFigures((*text)[:0], t, &b.figs[j], &b.scans[j])
			} else {
				*text = appendModelRead((*text)[:0], t)
			}
			s := unsafe.String(unsafe.SliceData(*text), len(*text)) // see countTokens
			for k, ct := range p.counters {
				b.tokens[j*nc+k] = int64(ct.Count(s))
			}
		}
	}
	return true
}

// finished marks batch b done (measured, or let go when ok is false)
// and gives back the pages of the batches measured, in the capture's
// order, a releaseStep or more at a time: the first batch not yet done
// holds back the rest, and the validating pass's turn to hand over more
// (see maxAhead).
func (p *prescan) finished(b *prescanned, ok bool) {
	end := -1 // where the batch ends in the mapping, -1 when nothing is to be given back
	if last := b.tools[len(b.tools)-1]; ok {
		if hi, mapped := p.pg.offset(last); mapped {
			end = hi + len(last)
		}
	}
	p.relMu.Lock()
	if p.ends == nil {
		p.ends = map[int]int{}
	}
	p.ends[b.seq] = end
	upto, done := -1, 0
	for {
		e, ok := p.ends[p.low]
		if !ok {
			break
		}
		delete(p.ends, p.low)
		p.low++
		done++
		upto = max(upto, e)
	}
	lo := p.released
	if upto-lo < releaseStep {
		upto = -1
	} else {
		p.released = upto
	}
	p.relMu.Unlock()
	for range done {
		<-p.ahead
	}
	if upto >= 0 {
		p.pg.release(lo, upto)
	}
}

// checkUTF8 checks that tools whose check the prescan took over are
// UTF-8.
func (p *prescan) checkUTF8(tools [][]byte) {
	for _, t := range tools {
		if !utf8.Valid(t) {
			p.notUTF8.Store(true)
			return
		}
	}
}

// finish waits for the batches handed over, measuring some itself, and
// checks the tools kept in no full batch.
func (p *prescan) finish() {
	if p.check {
		p.checkUTF8(p.batch)
	}
	if p.ch == nil {
		return
	}
	close(p.ch)
	p.work()
	p.wg.Wait()
}

// result returns the batches measured of the array found at path k whose
// elements are tools, or nil when they are not all its elements' own; and
// how many tools from the first are known to be objects (all of them, when
// the batches are its own).
func (p *prescan) result(k int, tools [][]byte) ([]*prescanned, int) {
	if p.aborted || p.k != k+1 || p.next != len(tools) {
		return nil, 0
	}
	for _, b := range p.done {
		if b.start+len(b.tools) > len(tools) {
			return nil, 0
		}
		for j, t := range b.tools {
			u := tools[b.start+j]
			if len(t) != len(u) || &t[0] != &u[0] {
				return nil, 0
			}
		}
	}
	return p.done, p.next
}

// parallelAbove is the number of tools from which Measure scans tools on
// several goroutines.
const parallelAbove = 512

// measure counts the capture's figures, taking those of the tools the
// validating pass p measured (p may be nil). Each tool's text is walked
// on its own, without building the tool (on several cores for a long
// list), and nothing of it is kept but figures.
func measure(c *Capture, p *pass) (_ *Figures, err error) {
	defer c.pg.caught(c.pg.guard(), &err)
	if p == nil {
		p = &pass{}
	}
	f := &Figures{
		WireBytes: c.WireBytes,
		Tools:     len(c.Tools),
		Longest:   Longest{Index: -1},
	}
	if c.Replaced > 0 {
		f.Warnings = append(f.Warnings, fmt.Sprintf("%s: %d invalid UTF-8 %s decoded as U+FFFD, as Node decodes them",
			c.Path, c.Replaced, plural(c.Replaced, "sequence", "sequences")))
	}
	var scans []scanned
	if p.figs != nil && len(c.Tools) <= len(p.figs) {
		// measured in place while the capture was validated
		f.PerTool, scans = p.figs[:len(c.Tools):len(c.Tools)], p.scans[:len(c.Tools)]
	} else {
		f.PerTool, scans = make([]ToolFigures, len(c.Tools)), make([]scanned, len(c.Tools))
	}
	p.figs, p.scans = nil, nil
	// Tools measured while the capture was validated are copied (unless
	// they are in place); the rest are measured now.
	done := 0
	for _, b := range p.pre {
		if &b.figs[0] != &f.PerTool[b.start] {
			copy(f.PerTool[b.start:], b.figs)
			copy(scans[b.start:], b.scans)
		}
		done = max(done, b.start+len(b.tools))
	}
	p.walked.take(p.pre)
	p.pre = nil // copied: let the batches go
	rest := len(c.Tools) - done
	workers := 1
	if rest >= parallelAbove {
		workers = min(runtime.GOMAXPROCS(0), 8)
	}
	var wg sync.WaitGroup
	chunk := (rest + workers - 1) / workers
	for w := range workers {
		lo, hi := done+w*chunk, done+min((w+1)*chunk, rest)
		if lo >= hi {
			break
		}
		scan := func() {
			defer c.pg.caught(c.pg.guard(), nil)
			back := c.behindFrom(lo)
			for i := lo; i < hi; i++ {
				back.at(c.Tools[i])
				scanTool(c.Tools[i], &f.PerTool[i], &scans[i])
			}
		}
		if workers == 1 {
			scan() // here: a goroutine would wake a thread for nothing
			break
		}
		wg.Go(scan)
	}
	wg.Wait()
	if err := c.pg.failed(); err != nil {
		return nil, err
	}

	seen := newFirstNames(len(c.Tools))
	// Each kind of warning is listed for the first few tools, then counted.
	kinds := map[string]int{}
	var kindOrder []string
	warn := func(kind, msg string) {
		if kinds[kind] < maxWarningsPerKind {
			f.Warnings = append(f.Warnings, msg)
		}
		if kinds[kind] == 0 {
			kindOrder = append(kindOrder, kind)
		}
		kinds[kind]++
	}
	for i := range f.PerTool {
		tf, sc := &f.PerTool[i], scans[i]
		tf.Index, tf.HasName, tf.HasInputSchema = i, sc&hasName != 0, sc&hasSchema != 0
		at := func() string { return fmt.Sprintf("%s: %s[%d]", c.Path, c.toolsAt(), i) }
		switch {
		case sc&nameStr != 0:
			if j := seen.first(f.PerTool, i); j != i {
				warn("share a name with an earlier tool", fmt.Sprintf("%s: the name %q is also the name of %s[%d]", at(), tf.Name, c.toolsAt(), j))
			}
		case sc&hasName != 0:
			v, err := jsonjs.Parse(lastMember(c.Tools[i], "name"))
			if err != nil {
				return nil, inputErr(c.Path, "%s[%d].name: %v", c.toolsAt(), i, err)
			}
			tf.Name = fmt.Sprintf("tools[%d]", i)
			if f.NameJSON == nil {
				f.NameJSON = map[int]string{}
			}
			f.NameJSON[i] = string(jsonjs.Stringify(v))
			warn("have a name that is not a string", fmt.Sprintf("%s: name is %s, not a string", at(), article(v.Kind())))
		default:
			tf.Name = fmt.Sprintf("tools[%d]", i)
			warn("have no name", fmt.Sprintf("%s: has no name", at()))
		}
		if sc&hasDesc != 0 {
			if sc&descStr != 0 {
				if tf.DescriptionChars > f.Longest.Chars || f.Longest.Index < 0 {
					f.Longest = Longest{Tool: tf.Name, Index: i, Chars: tf.DescriptionChars}
				}
			} else {
				warn("have a description that is not a string", fmt.Sprintf("%s: description is %s, not a string; it counts in what a model reads, not in description bytes", at(), article(jsonjs.KindValid(lastMember(c.Tools[i], "description")))))
			}
		}
		f.ModelReadBytes += tf.ModelReadBytes
		f.DescriptionBytes += tf.DescriptionBytes
		f.FieldDescriptionBytes += tf.FieldDescriptionBytes
	}
	for _, k := range kindOrder {
		if n := kinds[k] - maxWarningsPerKind; n > 0 {
			f.Warnings = append(f.Warnings, fmt.Sprintf("%s: %d more %s %s", c.Path, n, plural(n, "tool", "tools"), k))
		}
	}
	f.ModelReadTokens = units.Tokens(f.ModelReadBytes)
	return f, nil
}

// firstNames finds, for each tool in turn, the first tool with its name:
// an open-addressing table of tool indexes (plus one; zero is empty),
// four bytes a slot at most half full, a quarter of what a map of the
// names takes.
type firstNames struct {
	slots []int32
	seed  maphash.Seed
}

func newFirstNames(n int) *firstNames {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return &firstNames{slots: make([]int32, size), seed: maphash.MakeSeed()}
}

// first returns the index of the first tool up to the i-th named as the
// i-th is (tools[i].Name, a string name), i itself when it is the first.
func (t *firstNames) first(tools []ToolFigures, i int) int {
	name := tools[i].Name
	mask := uint64(len(t.slots) - 1)
	for h := maphash.String(t.seed, name) & mask; ; h = (h + 1) & mask {
		j := int(t.slots[h]) - 1
		if j < 0 {
			t.slots[h] = int32(i + 1)
			return i
		}
		if tools[j].Name == name {
			return j
		}
	}
}

// maxWarningsPerKind is how many tools a kind of warning names before the
// rest are only counted.
const maxWarningsPerKind = 5

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
