package toollist

import (
	"bytes"
	"io"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/readmeter/readmeter/jsonjs"
)

// whatIf applies the transforms to every tool, in order, and reports each
// one's saving against the result of the ones before. When w is not nil it
// also writes the capture, transformed, to w in the capture's own form (see
// the package doc), tool by tool as they are done; on an error, what was
// written is incomplete and must be thrown away.
//
// Each tool is transformed once, stage by stage (see runner.tool). Without
// w, the tools the validating pass
// p (nil for none) handed over were transformed by its workers while they
// measured them, and only the rest are transformed here; with w, the
// tools are transformed on several goroutines, a run at a time, a few
// runs ahead of the writer.
func whatIf(c *Capture, p *pass, ts []Transform, w io.Writer) (_ []Saving, err error) {
	defer c.pg.caught(c.pg.guard(), &err)
	savings := make([]Saving, len(ts))
	for k, t := range ts {
		savings[k] = Saving{Name: t.Name(), Tools: []string{}}
	}
	pl := stagesOf(ts)
	if w != nil {
		err = whatIfWrite(c, ts, pl, savings, w)
	} else {
		err = c.whatIfWalked(p, ts, pl, savings)
	}
	if p != nil {
		p.walked = nil
	}
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if err := t.finish(); err != nil {
			return nil, err
		}
	}
	return savings, nil
}

// walked is what the what-ifs found of the tools measured while the
// capture was validated: measure takes each batch's pieces from the
// batches it copies (before measure, they are read from the batches).
type walked struct {
	used    []string // the tools the words applied to
	batches []walkedBatch
}

// walkedBatch is what the what-ifs found of the n tools from start.
type walkedBatch struct {
	start, n int
	pieces   []piece
}

// take keeps the pieces of the measured batches.
func (wk *walked) take(pre []*prescanned) {
	if wk == nil {
		return
	}
	for _, b := range pre {
		wk.batches = append(wk.batches, walkedBatch{start: b.start, n: len(b.tools), pieces: b.pieces})
	}
}

// piece is a run of tools' savings, with the warnings the transforms gave
// on them (by transform, in the tools' order), or a tool left to the
// runner that applies the transforms themselves (at, or -1): a tool whose
// transforms failed on a worker, transformed again in the capture's order
// so that the error is the first tool's.
type piece struct {
	at      int
	savings []Saving
	warns   [][]string
}

// batch transforms the tools of a batch being measured and measures them:
// the walk's first stage is each tool as given, so that its figures are
// the walk's (a tool the walk leaves is measured on its own), and names
// them as measure will.
func (r *runner) batch(b *prescanned) []piece {
	pieces, _, _ := r.run(b.start, b.tools, b.figs, b.scans, false, nil, nil)
	return pieces
}

// run transforms the tools from start. When figs is not nil, it measures
// each into figs and scans and names it by its figures; with write, it
// appends their texts to out, each ending where ends says (a tool left to
// the runner of the capture's order writes nothing there).
func (r *runner) run(start int, tools [][]byte, figs []ToolFigures, scans []scanned, write bool, out []byte, ends []int) ([]piece, []byte, []int) {
	var pieces []piece
	cur := r.newPiece()
	if figs != nil {
		// a batch: the names of the tools changed fit at once
		for k := range cur.savings {
			cur.savings[k].Tools = make([]string, 0, len(tools))
		}
	}
	for j, t := range tools {
		i := start + j
		mark := len(out)
		r.res.out = out
		walked, err := r.tool(t, i, write)
		if write {
			out = r.res.out
			if err != nil {
				out = out[:mark]
			}
			ends = append(ends, len(out))
		}
		if figs != nil {
			if walked {
				r.res.figures(&figs[j], &scans[j])
			} else {
				scanTool(t, &figs[j], &scans[j])
			}
		}
		if err != nil {
			pieces = append(pieces, cur, piece{at: i})
			cur = r.newPiece()
			continue
		}
		var name string
		if figs != nil {
			name = figs[j].Name // the name when it is a string
			if name == "" {
				name = "tools[" + strconv.Itoa(i) + "]"
			}
		} else if r.changed() {
			name = r.name(i)
		}
		recordAs(cur.savings, &r.res, name)
		r.takeWarnings(cur.warns)
	}
	return append(pieces, cur), out, ends
}

// newPiece returns an empty run of the runner's transforms.
func (r *runner) newPiece() piece {
	return piece{at: -1, savings: savingsOf(r.ts), warns: make([][]string, len(r.ts))}
}

// changed reports whether a transform changed the tool just transformed.
func (r *runner) changed() bool {
	for _, n := range r.res.changes[1:] {
		if n != 0 {
			return true
		}
	}
	return false
}

// whatIfWalked adds up what the validating pass's workers found of the
// tools they measured, and transforms the rest in the capture's order:
// the tools no batch held, and those whose transforms failed on a worker.
func (c *Capture) whatIfWalked(ps *pass, ts []Transform, p []stage, savings []Saving) error {
	var bs []walkedBatch
	if ps != nil && ps.walked != nil {
		if ps.pre != nil { // not measured yet
			ps.walked.take(ps.pre)
			for _, b := range ps.pre {
				b.pieces = nil
			}
		}
		bs = ps.walked.batches
		markUsed(ts, ps.walked.used)
	}
	slices.SortFunc(bs, func(a, b walkedBatch) int { return a.start - b.start })
	// the names of the tools changed, held at once
	for k := range savings {
		n := len(c.Tools) - len(bs)*prescanBatch
		for _, b := range bs {
			for _, pc := range b.pieces {
				if pc.at < 0 {
					n += len(pc.savings[k].Tools)
				}
			}
		}
		savings[k].Tools = make([]string, 0, max(n, 0))
	}
	r := newRunner(c, ts, p)
	back := c.behindFrom(0)
	one := func(i int) error {
		back.at(c.Tools[i])
		if err := r.one(i, false); err != nil {
			return err
		}
		r.record(savings, i)
		return nil
	}
	next := 0
	for _, b := range bs {
		for ; next < b.start; next++ {
			if err := one(next); err != nil {
				return err
			}
		}
		for _, pc := range b.pieces {
			if pc.at < 0 {
				addPiece(ts, savings, pc)
			} else if err := one(pc.at); err != nil {
				return err
			}
		}
		next = b.start + b.n
	}
	for ; next < len(c.Tools); next++ {
		if err := one(next); err != nil {
			return err
		}
	}
	return nil
}

// runner transforms tools one at a time. The runner of the capture's
// order applies the transforms given; a worker's applies copies of those
// that keep state (see copier), whose findings it hands back with its
// pieces, so that they read in the capture's order.
type runner struct {
	c      *Capture // nil on a worker
	ts     []Transform
	stages []stage
	tw     toolWalk
	res    toolResult
	worker bool
	// the texts between stages, and the tool as JSON.stringify writes it
	// when the walk cannot follow its text
	texts [2][]byte
	norm  []byte
	// parser parses a tool at a time, each dropped before the next
	parser jsonjs.Parser
	refs   refScratch // the room of the finders' $ref analyses
}

func newRunner(c *Capture, ts []Transform, stages []stage) *runner {
	n := len(ts)
	return &runner{c: c, ts: ts, stages: stages,
		res: toolResult{L: make([]int, n+1), M: make([]int, n+1), changes: make([]int, n+1)}}
}

// newWorker returns a runner for a goroutine of its own.
func newWorker(ts []Transform, p []stage) *runner {
	own := make([]Transform, len(ts))
	for k, t := range ts {
		own[k] = t
		if cp, ok := t.(copier); ok {
			own[k] = cp.copyFor()
		}
	}
	r := newRunner(nil, own, p)
	r.worker = true
	return r
}

// copier is a transform that keeps state (the words it applied, the
// warnings it gave): each worker applies a copy of its own.
type copier interface {
	copyFor() Transform
}

func (w *Words) copyFor() Transform { return w.Transform() }

func (*dropDefs) copyFor() Transform { return DropUnusedDefs() }

func (*hoist) copyFor() Transform { return HoistRepeated() }

// sink gives the lines a transform's warnings hold.
func (w *warnings) sink() *warnings { return w }

// takeWarnings moves the warnings a worker's transforms gave on the tool
// just transformed into warns, by transform.
func (r *runner) takeWarnings(warns [][]string) {
	if !r.worker {
		return
	}
	for k, t := range r.ts {
		if s, ok := t.(interface{ sink() *warnings }); ok {
			w := s.sink()
			if len(w.lines) > 0 {
				warns[k] = append(warns[k], w.lines...)
				w.lines = w.lines[:0]
			}
		}
	}
}

// used returns the tools a worker's words were applied to.
func (r *runner) used() []string {
	names := r.tw.used
	for _, t := range r.ts {
		if w, ok := t.(*Words); ok {
			for name := range w.used {
				names = append(names, name)
			}
		}
	}
	return names
}

// markUsed records, in the words of ts, the tools a worker applied words
// to.
func markUsed(ts []Transform, names []string) {
	for _, t := range ts {
		if w, ok := t.(*Words); ok {
			for _, name := range names {
				if _, has := w.keys[name]; has {
					w.used[name] = true
				}
			}
		}
	}
}

// tool transforms one tool, whose validated text is b, into r.res, a
// stage at a time: a run of the transforms the walk follows walks the
// text, and a run of the others rewrites the parsed tool; the text each
// stage writes, as JSON.stringify would, is the next one's. A text the
// walk cannot follow (objects whose keys JavaScript orders otherwise or
// repeats) is first written as JSON.stringify would. It reports whether
// the first stage walked b as it is, which then gives the tool's figures.
// An error is a worker's sign to leave the tool to the runner of the
// capture's order, which reports it.
func (r *runner) tool(b []byte, i int, write bool) (walked bool, err error) {
	res := &r.res
	res.name, res.nameTok, res.descTok, res.fieldDesc, res.hasSchema = "", nil, nil, 0, false
	res.changes[0] = 0
	out, text := res.out, b
	if len(r.stages) > 1 {
		defer func() {
			if err != nil {
				res.out = out // not a text between stages
			}
		}()
	}
	for k, st := range r.stages {
		last := k == len(r.stages)-1
		if last {
			res.out = out
		} else {
			res.out = r.texts[k%2][:0]
		}
		emit := write || !last
		if st.p != nil {
			mark := len(res.out)
			r.tw.p, r.tw.normal = st.p, k > 0
			var followed bool
			followed, err = r.tw.tool(text, i, emit, res, st.from)
			if k == 0 {
				walked = followed
			}
			if !followed {
				var tool jsonjs.Value
				if tool, err = r.parse(text, i); err != nil {
					return false, err
				}
				r.norm = jsonjs.AppendStringify(r.norm[:0], tool)
				text, res.out, r.tw.normal = r.norm, res.out[:mark], true
				_, err = r.tw.tool(text, i, emit, res, st.from)
			}
			if err != nil {
				return false, err
			}
		} else {
			tool, err := r.parse(text, i)
			if err != nil {
				return false, err
			}
			// the tool's lengths as given, when a stage after this one
			// needs them (see apply)
			abs := k > 0 || len(r.stages) > 1
			if k == 0 {
				res.name, _ = toolLabel(tool, i)
				res.L[0], res.M[0] = 0, 0
				if abs {
					res.L[0], res.M[0] = toolLens(tool)
				}
			}
			if tool, err = r.apply(tool, i, st, abs, emit); err != nil {
				return false, err
			}
			if emit {
				res.out = jsonjs.AppendStringify(res.out, tool)
			}
		}
		if !last {
			r.texts[k%2], text = res.out, res.out
		}
	}
	return walked, nil
}

// parse parses the i-th tool's text b.
func (r *runner) parse(b []byte, i int) (jsonjs.Value, error) {
	tool, err := r.parser.Parse(b) // the tool parsed before is dropped
	if err != nil && r.c != nil {
		err = inputErr(r.c.Path, "%s[%d]: %v", r.c.toolsAt(), i, err)
	}
	return tool, err
}

// apply applies the transforms of a stage of parsed tools to the i-th
// tool, recording each one's lengths and changes in r.res. With abs, the
// lengths before it are the tool's; else they are counted from 0 (only
// their differences are read), until a transform that does not say what
// it cut needs the tool's own: the tool is then measured, and the lengths
// before moved to it. Unless emit, the tool the last transform changes
// is not wanted.
func (r *runner) apply(tool jsonjs.Value, i int, st stage, abs, emit bool) (jsonjs.Value, error) {
	res := &r.res
	name, _ := toolLabel(tool, i)
	seen := refsSeen{sc: &r.refs}
	was := -1 // the tool's length, once a transform needs it
	for k := st.from; k < st.from+st.n; k++ {
		// the tool changed is wanted by the next transform, or to be
		// written
		keep := k < st.from+st.n-1 || emit
		nt, n, shrunk, err := applyMeasured(r.ts[k].(valueTransform), tool, name, &seen, keep)
		if err != nil {
			return tool, err
		}
		res.changes[k+1] = n
		switch {
		case n > 0 && shrunk >= 0:
			tool = nt
			res.L[k+1], res.M[k+1] = res.L[k]-shrunk, res.M[k]-shrunk
			if was >= 0 {
				was -= shrunk
			}
		case n > 0:
			if !abs {
				wire, model := toolLens(tool)
				dl, dm := wire-res.L[k], model-res.M[k]
				for j := 0; j <= k; j++ {
					res.L[j] += dl
					res.M[j] += dm
				}
				abs, was = true, wire
			}
			if was < 0 {
				was = jsonjs.StringifyLen(tool)
			}
			tool = nt
			wire, model := toolLens(tool)
			res.L[k+1], res.M[k+1] = res.L[k]+wire-was, model
			was = wire
		default:
			res.L[k+1], res.M[k+1] = res.L[k], res.M[k]
		}
	}
	return tool, nil
}

// one transforms the i-th tool of the capture, in its order.
func (r *runner) one(i int, write bool) error {
	r.res.out = r.res.out[:0]
	if _, err := r.tool(r.c.Tools[i], i, write); err != nil {
		return err
	}
	if len(r.tw.used) > 0 {
		markUsed(r.ts, r.tw.used)
		r.tw.used = r.tw.used[:0]
	}
	return nil
}

// name returns the tool's name in reports.
func (r *runner) name(i int) string {
	if r.res.name != "" {
		return r.res.name
	}
	if t := r.res.nameTok; len(t) > 0 && t[0] == '"' {
		return jsonjs.StringValid(t)
	}
	return "tools[" + strconv.Itoa(i) + "]"
}

// record adds the i-th tool's changes to the savings.
func (r *runner) record(savings []Saving, i int) {
	for k := 1; k < len(r.res.changes); k++ {
		if r.res.changes[k] != 0 {
			recordAs(savings, &r.res, r.name(i))
			return
		}
	}
}

// recordAs adds a tool's changes, res, to the savings under its name.
func recordAs(savings []Saving, res *toolResult, name string) {
	for k := 1; k < len(res.changes); k++ {
		if res.changes[k] == 0 {
			continue
		}
		s := &savings[k-1]
		s.WireSavingBytes += int64(res.L[k-1] - res.L[k])
		s.ModelReadSavingBytes += int64(res.M[k-1] - res.M[k])
		s.Changes += res.changes[k]
		s.Tools = append(s.Tools, name)
	}
}

// written is a run of tools transformed and written by a worker of
// whatIfWrite: their texts (the i-th ends at ends[i-start]; a tool left
// to the writer has none there), and their savings.
type written struct {
	start, n int
	out      []byte
	ends     []int
	pieces   []piece
	left     map[int][]byte // the texts of the tools left to the writer
	done     chan struct{}
}

// runWritten transforms and writes a run of whatIfWrite, and says it is
// done even when the file changed under it (see pages).
func (r *runner) runWritten(c *Capture, b *written) {
	defer close(b.done)
	defer c.pg.caught(c.pg.guard(), nil)
	if c.pg.failed() != nil {
		return
	}
	b.pieces, b.out, b.ends = r.run(b.start, c.Tools[b.start:b.start+b.n], nil, nil, true, b.out, b.ends)
}

// whatIfWrite writes the transformed capture with the tools transformed
// on several goroutines, each a run of tools at a time, a few runs ahead
// of the writer, which takes the runs in order (and transforms the tools
// a worker left to it).
func whatIfWrite(c *Capture, ts []Transform, p []stage, savings []Saving, w io.Writer) error {
	workers := min(runtime.GOMAXPROCS(0), 8)
	const run = 64
	runs := make(chan *written, 2*workers) // in the capture's order
	todo := make(chan *written, 2*workers) // for the workers
	stop := make(chan struct{})
	spare := make(chan *written, 4*workers) // runs written, to fill again
	var used []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			r := newWorker(ts, p)
			for b := range todo {
				r.runWritten(c, b)
			}
			mu.Lock()
			used = append(used, r.used()...)
			mu.Unlock()
		})
	}
	go func() {
		defer close(todo)
		defer close(runs)
		for lo := 0; lo < len(c.Tools); lo += run {
			var b *written
			select {
			case b = <-spare:
				b.out, b.ends, b.left = b.out[:0], b.ends[:0], nil
			default:
				b = &written{}
			}
			b.start, b.n, b.done = lo, min(run, len(c.Tools)-lo), make(chan struct{})
			select {
			case runs <- b:
			case <-stop:
				return
			}
			todo <- b
		}
	}()
	em := &emitter{w: w, buf: make([]byte, 0, 64<<10)}
	r := newRunner(c, ts, p)
	back := c.behindFrom(0)
	var cur *written
	// guarded, so that the workers and the feeder are let go below even
	// when the file changes under the writer
	err := guarded(c.pg, func() error {
		return c.encode(em, func(i int) ([]byte, error) {
			back.at(c.Tools[i])
			if cur == nil || i >= cur.start+cur.n {
				if cur != nil {
					select {
					case spare <- cur:
					default:
					}
				}
				cur = <-runs
				<-cur.done
				if err := c.pg.failed(); err != nil {
					return nil, err // the run was not walked
				}
				for _, pc := range cur.pieces {
					if pc.at < 0 {
						addPiece(ts, savings, pc)
						continue
					}
					if err := r.one(pc.at, true); err != nil {
						return nil, err
					}
					r.record(savings, pc.at)
					if cur.left == nil {
						cur.left = map[int][]byte{}
					}
					cur.left[pc.at] = append([]byte(nil), r.res.out...)
				}
			}
			if out, ok := cur.left[i]; ok {
				return out, nil
			}
			k := i - cur.start
			from := 0
			if k > 0 {
				from = cur.ends[k-1]
			}
			return cur.out[from:cur.ends[k]], nil
		})
	})
	close(stop)
	for b := range runs { // let the feeder end
		<-b.done
	}
	wg.Wait()
	markUsed(ts, used)
	if err == nil {
		err = em.flush()
	}
	return err
}

// savingsOf returns empty savings of the transforms ts.
func savingsOf(ts []Transform) []Saving {
	out := make([]Saving, len(ts))
	for k, t := range ts {
		out[k].Name = t.Name()
	}
	return out
}

// addPiece adds a run's savings to savings, and its warnings to the
// transforms ts that gave them.
func addPiece(ts []Transform, dst []Saving, pc piece) {
	for k := range dst {
		src := pc.savings[k]
		dst[k].WireSavingBytes += src.WireSavingBytes
		dst[k].ModelReadSavingBytes += src.ModelReadSavingBytes
		dst[k].Changes += src.Changes
		dst[k].Tools = append(dst[k].Tools, src.Tools...)
		if len(pc.warns[k]) > 0 {
			ts[k].(interface{ sink() *warnings }).sink().addLines(pc.warns[k])
		}
	}
}

// addLines adds lines a copy gave on a worker.
func (w *warnings) addLines(lines []string) {
	w.mu.Lock()
	w.lines = append(w.lines, lines...)
	w.mu.Unlock()
}

// toolResult is what the transforms make of one tool: its JSON.stringify
// length (L, less a length that is the same at every stage: only the
// differences are read) and model-read bytes (M) after 0, 1, ...
// transforms, the
// changes each transform made (changes[k] for the k-th, from 1), the
// tool's name in reports, and its final text when it is written.
type toolResult struct {
	L, M, changes []int
	name          string // the name when the words needed it
	nameTok       []byte // the name's text, when the walk saw it
	descTok       []byte // the description's text, when the walk saw it
	// fieldDesc: the UTF-8 bytes of the string descriptions inside
	// inputSchema as given (FieldDescriptionBytes), when the walk wrote
	// nothing
	fieldDesc int64
	hasSchema bool // the tool has an inputSchema
	out       []byte
}

// emitter writes the transformed capture in large pieces.
type emitter struct {
	w   io.Writer
	buf []byte
	err error
}

func (e *emitter) write(b []byte) {
	if e.err != nil {
		return
	}
	if len(e.buf)+len(b) > cap(e.buf) {
		if e.err = e.flush(); e.err != nil {
			return
		}
		if len(b) >= cap(e.buf) {
			_, e.err = e.w.Write(b)
			return
		}
	}
	e.buf = append(e.buf, b...)
}

func (e *emitter) flush() error {
	if e.err != nil {
		return e.err
	}
	if len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
		e.buf = e.buf[:0]
	}
	return e.err
}

// encode writes the capture with every tool replaced by what tool(i)
// returns, in the capture's form: the message as JSON.stringify writes it
// (members in JavaScript's order, a repeated key once), framed as the
// capture was.
func (c *Capture) encode(em *emitter, tool func(i int) ([]byte, error)) error {
	a := c.ans
	head, tail := a.frameParts()
	em.write(head)
	path := []string{"result", "tools"}
	if c.Form == Result {
		path = path[1:]
	}
	var err error
	writeTools := func() {
		em.write([]byte{'['})
		for i := range c.Tools {
			if i > 0 {
				em.write([]byte{','})
			}
			var out []byte
			if out, err = tool(i); err != nil {
				return
			}
			em.write(out)
		}
		em.write([]byte{']'})
	}
	var scratch []byte
	var object func(text []byte, path []string)
	object = func(text []byte, path []string) {
		em.write([]byte{'{'})
		ms := jsonjs.OrderValid(jsonjs.MembersValid(nil, text))
		for j, m := range ms {
			if err != nil {
				return
			}
			scratch = scratch[:0]
			if j > 0 {
				scratch = append(scratch, ',')
			}
			scratch = append(jsonjs.AppendKeyValid(scratch, m.Key), ':')
			if !jsonjs.KeyIs(m.Key, path[0]) {
				scratch, _ = jsonjs.AppendStringifyValid(scratch, m.Value, 0)
				em.write(scratch)
				continue
			}
			em.write(scratch)
			if len(path) == 1 {
				writeTools()
			} else {
				object(m.Value, path[1:])
			}
		}
		em.write([]byte{'}'})
	}
	object(a.msg, path)
	if err != nil {
		return err
	}
	em.write(tail)
	return em.err
}

// maxSteps is how many transforms the walk follows at once.
const maxSteps = 3

// lens holds a length for each stage: the tool as given, then after each
// transform.
type lens [maxSteps + 1]int

// stage is a run of the transforms, from the from-th: n that the walk
// follows (p), or n that rewrite the parsed tool (p is nil).
type stage struct {
	from, n int
	p       *plan
}

// stagesOf splits the transforms ts into stages: runs of those the walk
// follows, at most maxSteps and one Words a run, and runs of the others.
// With no transforms, one stage walks the tools through none, to write
// them.
func stagesOf(ts []Transform) []stage {
	out := []stage{{p: &plan{}}}
	for k, t := range ts {
		walks := false
		switch t.(type) {
		case lean, dropEmpty, *Words:
			walks = true
		}
		s := &out[len(out)-1]
		if k > 0 && (s.p != nil) == walks && (!walks || s.p.add(t, k-s.from+1)) {
			s.n++
			continue
		}
		if k > 0 {
			out = append(out, stage{from: k})
			s = &out[len(out)-1]
		}
		s.n, s.p = 1, nil
		if walks {
			s.p = &plan{}
			s.p.add(t, 1)
		}
	}
	return out
}

// plan is what the walk needs to know of the transforms of a stage.
type plan struct {
	n         int
	firstLean int // the first lean stage, 0 when none
	drops     []int
	words     *Words
	wordsAt   int // the words transform's stage, 0 when none
}

// add adds the transform t, to be applied at the given step, and reports
// whether the walk can follow it with those before.
func (p *plan) add(t Transform, step int) bool {
	if step > maxSteps {
		return false
	}
	switch t := t.(type) {
	case lean:
		if p.firstLean == 0 {
			p.firstLean = step
		}
	case dropEmpty:
		p.drops = append(p.drops, step)
	case *Words:
		if p.words != nil {
			return false
		}
		p.words, p.wordsAt = t, step
	}
	p.n = step
	return true
}

// toolWalk walks one tool's text (see whatIf).
type toolWalk struct {
	p *plan
	// normal: the text is as JSON.stringify writes it (keys in
	// JavaScript's order, none repeated), so that any key is followed
	normal  bool
	b       []byte
	out     []byte
	slow    bool // met keys JavaScript orders otherwise or repeats
	changes lens
	// the words for this tool: its texts inside inputSchema, as a tree,
	// and the nodes of the tree the walk found, in place at the words'
	// step
	ptrs    []wordsPath
	tree    *ptrTree
	reached []bool
	// the first stage at which outputSchema.properties has no member
	// left, when it is an object
	props    int
	propsObj bool
	scratch  []jsonjs.MemberValid
	// keys: the keys of the objects being walked, a stack, to find
	// repeats (when the text is not normal)
	keys [][]byte
	used []string // the tools the words were applied to
	// inSchema: the walk is inside inputSchema, adding the string
	// descriptions it meets to fieldDesc
	inSchema  bool
	fieldDesc int64
}

// tool walks the i-th tool, whose text is b, into res, its stages from
// the at-th (the tool as given when at is 0, which alone sets the tool's
// name, description and figures in res). It reports false, with nothing
// in res, when the text has keys JavaScript orders otherwise or repeats
// and is not normal; an error is the words'.
func (t *toolWalk) tool(b []byte, i int, write bool, res *toolResult, at int) (bool, error) {
	p := t.p
	n := p.n
	t.b, t.out, t.slow, t.changes, t.propsObj, t.props = b, res.out, false, lens{}, false, 0
	t.ptrs, t.tree = nil, nil
	t.inSchema, t.fieldDesc = false, 0
	first := at == 0

	var desc, name string
	descWords := false
	w := p.words
	hasWords := false
	if w != nil {
		// The name first: the words to apply depend on it. When it is
		// the first member, it is the one JavaScript keeps (a repeated key
		// is written as JSON.stringify would first); a name without escapes is
		// looked up as it is written.
		nv, ok := firstMember(b, "name")
		if !ok {
			t.scratch = jsonjs.MembersValid(t.scratch[:0], b)
			nv, ok = jsonjs.LastMember(t.scratch, "name")
		}
		switch {
		case ok && nv[0] == '"' && bytes.IndexByte(nv, '\\') < 0:
			if _, has := w.keys[string(nv[1:len(nv)-1])]; has {
				name = string(nv[1 : len(nv)-1])
			}
		case ok && nv[0] == '"':
			name = jsonjs.StringValid(nv)
		default:
			name = "tools[" + strconv.Itoa(i) + "]"
		}
		if _, ok := w.keys[name]; ok && name != "" {
			hasWords = true
			desc, descWords = w.desc[name]
			t.ptrs, t.tree = w.paths[name], w.trees[name]
			if t.tree != nil {
				t.reached = append(t.reached[:0], make([]bool, t.tree.nodes)...)
			}
			if descWords {
				t.changes[p.wordsAt]++
			}
			t.changes[p.wordsAt] += len(t.ptrs)
		}
	}
	if first {
		res.name = name
	}

	var L, M, count lens
	for s := 0; s <= n; s++ {
		L[s] = 2
	}
	var nameLen, schemaLen, descLen lens
	hasName, hasDesc, hasSchema := false, false, false
	if write {
		t.out = append(t.out, '{')
	}
	wrote := false
	t.keys = t.keys[:0]
	j := jsonjs.SkipSpace(b, 0) + 1
	for {
		j = jsonjs.SkipSpace(b, j)
		if j >= len(b) || b[j] == '}' {
			break
		}
		if b[j] == ',' {
			j++
			continue
		}
		ke, escaped := jsonjs.KeyEnd(b, j)
		key := b[j+1 : ke-1]
		if !t.normal {
			if !plainKey(key, escaped) {
				return false, nil
			}
			t.keys = append(t.keys, key)
		}
		vi := jsonjs.SkipSpace(b, jsonjs.SkipSpace(b, ke)+1)
		kl := len(key) + 2
		mark := len(t.out)
		if write {
			if wrote {
				t.out = append(t.out, ',')
			}
			t.out = append(append(t.out, b[j:ke]...), ':')
		}
		var vl lens
		var e int
		death := n + 1
		switch string(key) {
		case "description":
			hasDesc = true
			var ln int
			e, ln, _ = jsonjs.MeasureValid(b, vi, "")
			if first {
				res.descTok = b[vi:e]
			}
			if descWords {
				for s := 0; s <= n; s++ {
					if s < p.wordsAt {
						vl[s] = ln
					} else {
						vl[s] = quoteLen(desc)
					}
				}
				if write {
					t.out = jsonjs.AppendQuote(t.out, desc)
				}
			} else {
				vl = same(ln, n)
				if write {
					t.out, _ = jsonjs.AppendStringifyValid(t.out, b, vi)
				}
			}
			descLen = vl
		case "inputSchema":
			hasSchema = true
			var root *ptrNode
			if t.tree != nil {
				root = &t.tree.root
			}
			switch {
			case p.firstLean == 0 && root == nil && !write:
				var ln int
				e, ln, t.fieldDesc = jsonjs.MeasureValid(b, vi, "description")
				vl = same(ln, n)
			case p.firstLean == 0 && root == nil:
				e, vl = t.plain(vi, write, n)
			default:
				t.inSchema = first
				e, vl = t.value(vi, n+1, write, root, false)
				t.inSchema = false
			}
			schemaLen = vl
		case "outputSchema":
			if p.firstLean == 0 && len(p.drops) == 0 {
				e, vl = t.plain(vi, write, n)
				break
			}
			before := t.changes
			if b[vi] != '{' {
				e, vl = t.value(vi, n+1, write, nil, false)
				break
			}
			e, vl, _ = t.object(vi, n+1, write, nil, true)
			for _, k := range p.drops {
				if !t.propsObj || t.props <= k-1 {
					death = k
					// what later transforms did inside it is undone
					copy(t.changes[k:n+1], before[k:n+1])
					t.changes[k]++
					break
				}
			}
		case "name":
			hasName = true
			e, vl = t.plain(vi, write, n)
			nameLen = vl
			if first {
				res.nameTok = b[vi:e]
			}
		default:
			if !write {
				// the same at every stage: only the differences count
				e = jsonjs.SkipValid(b, vi)
				break
			}
			e, vl = t.plain(vi, write, n)
		}
		if t.slow {
			return false, nil
		}
		if death <= n {
			t.out = t.out[:mark]
		} else {
			wrote = true
		}
		for s := 0; s < death && s <= n; s++ {
			L[s] += kl + 1 + vl[s]
			count[s]++
		}
		j = e
	}
	if !t.normal && jsonjs.HasDuplicate(t.keys) {
		return false, nil
	}
	if descWords && !hasDesc {
		// The new description goes last, as JavaScript adds it.
		for s := p.wordsAt; s <= n; s++ {
			descLen[s] = quoteLen(desc)
			L[s] += len(`"description"`) + 1 + descLen[s]
			count[s]++
		}
		if write {
			if wrote {
				t.out = append(t.out, ',')
			}
			t.out = jsonjs.AppendQuote(append(t.out, `"description":`...), desc)
		}
	}
	if err := t.wordsErr(name, hasSchema); err != nil {
		return true, err
	}
	if write {
		t.out = append(t.out, '}')
	}
	for s := 0; s <= n; s++ {
		if count[s] > 1 {
			L[s] += count[s] - 1
		}
		// JSON.stringify({name, description, input_schema}), absent
		// members dropped.
		m, parts := 2, 0
		add := func(quoted, ln int) {
			if parts > 0 {
				m++
			}
			m += quoted + 1 + ln
			parts++
		}
		if hasName {
			add(len(`"name"`), nameLen[s])
		}
		if hasDesc || (descWords && s >= p.wordsAt) {
			add(len(`"description"`), descLen[s])
		}
		if hasSchema {
			add(len(`"input_schema"`), schemaLen[s])
		}
		M[s] = m
	}
	if hasWords {
		t.used = append(t.used, name)
	}
	if at == 0 {
		res.L[0] = L[0]
	}
	for s := 1; s <= n; s++ {
		res.L[at+s] = res.L[at] + L[s] - L[0]
	}
	copy(res.M[at:], M[:n+1])
	copy(res.changes[at+1:], t.changes[1:n+1])
	res.out = t.out
	if first {
		res.fieldDesc, res.hasSchema = t.fieldDesc, hasSchema
	}
	return true, nil
}

// wordsErr returns the error applying the tool's word paths in their
// order gives, as the walk found them (nil when they all apply): the
// first path whose value is missing when it is applied, because the
// tool has no inputSchema, the walk did not find it in place, or a path
// before it made a text of a value on its way.
func (t *toolWalk) wordsErr(name string, hasSchema bool) error {
	if len(t.ptrs) == 0 {
		return nil
	}
	w := t.p.words
	if !hasSchema {
		return inputErr(w.path, "%q: tool %s has no inputSchema", t.ptrs[0].key, name)
	}
	for j, p := range t.ptrs {
		d := t.tree.cut[j]
		if d < 0 {
			n := &t.tree.root
			for d = 0; d < len(p.pointer); d++ {
				if n = n.kid(p.pointer[d]); !t.reached[n.id] {
					break
				}
			}
			if d == len(p.pointer) {
				continue
			}
		}
		return inputErr(w.path, "%q: tool %s's inputSchema has no /%s", p.key, name, escapePointer(p.pointer[:d+1]))
	}
	return nil
}

// firstMember returns the value of the object text b's first member when
// its key is key (written without escapes).
func firstMember(b []byte, key string) ([]byte, bool) {
	i := jsonjs.SkipSpace(b, jsonjs.SkipSpace(b, 0)+1)
	if i >= len(b) || b[i] != '"' {
		return nil, false
	}
	ke := jsonjs.StringEnd(b, i)
	if string(b[i+1:ke-1]) != key {
		return nil, false
	}
	vi := jsonjs.SkipSpace(b, jsonjs.SkipSpace(b, ke)+1)
	return b[vi:jsonjs.SkipValid(b, vi)], true
}

// plainKey reports whether the key, found escaped or not, is
// jsonjs.PlainKey: one whose place JavaScript keeps.
func plainKey(key []byte, escaped bool) bool {
	return !escaped && (len(key) == 0 || key[0] > '9' || key[0] < '0')
}

// same returns the length v at every stage (those past the walk's last
// are never read).
func same(v, _ int) lens {
	return lens{v, v, v, v}
}

// plain measures (and writes) a value no transform changes.
func (t *toolWalk) plain(i int, write bool, n int) (int, lens) {
	if write {
		mark := len(t.out)
		var e int
		t.out, e = jsonjs.AppendStringifyValid(t.out, t.b, i)
		return e, same(len(t.out)-mark, n)
	}
	e, ln, _ := jsonjs.MeasureValid(t.b, i, "")
	return e, same(ln, n)
}

// value walks a value inside a schema. until is the first stage at which
// the value no longer exists (n+1 when it lasts); write says whether the
// final text is written; node, when not nil, is the value's node of the
// tree of word paths.
func (t *toolWalk) value(i, until int, write bool, node *ptrNode, props bool) (int, lens) {
	b := t.b
	switch b[i] {
	case '{':
		e, l, _ := t.object(i, until, write, node, props)
		return e, l
	case '[':
		return t.array(i, until, write, node)
	}
	n := t.p.n
	switch {
	case write:
		mark := len(t.out)
		var e int
		t.out, e = jsonjs.AppendStringifyValid(t.out, b, i)
		return e, same(len(t.out)-mark, n)
	case b[i] == '"':
		e, ln, _ := jsonjs.MeasureStringValid(b, i)
		return e, same(ln, n)
	}
	e, ln, _ := jsonjs.MeasureValid(b, i, "")
	return e, same(ln, n)
}

// found records that the walk met the member or element of the word
// paths' node k, which exists until the stage given, and returns the
// stage from which it is a path's new text (n+1 when none).
func (t *toolWalk) found(k *ptrNode, exists int) int {
	if exists >= t.p.wordsAt {
		t.reached[k.id] = true
	}
	if k.last < 0 {
		return t.p.n + 1
	}
	return t.p.wordsAt
}

// below returns the node to follow into the value of the node k (nil when
// no path goes on past it).
func below(k *ptrNode) *ptrNode {
	if k == nil || len(k.kids) == 0 {
		return nil
	}
	return k
}

// object walks an object inside a schema (see value); it also returns the
// first stage at which the object has no member left (0 when it has none).
func (t *toolWalk) object(i, until int, write bool, node *ptrNode, props bool) (_ int, _ lens, alive int) {
	b := t.b
	p := t.p
	n := p.n
	l := same(2, n)
	if write {
		t.out = append(t.out, '{')
	}
	i = jsonjs.SkipSpace(b, i+1)
	if b[i] == '}' {
		if write {
			t.out = append(t.out, '}')
		}
		return i + 1, l, 0
	}
	base := len(t.keys)
	wrote := false
	for {
		ke, escaped := jsonjs.KeyEnd(b, i)
		key := b[i+1 : ke-1]
		if !t.normal {
			if !plainKey(key, escaped) {
				t.slow = true
				return i, l, alive
			}
			t.keys = append(t.keys, key)
		}
		kl := ke - i
		vi := jsonjs.SkipSpace(b, jsonjs.SkipSpace(b, ke)+1)
		death, r := n+1, n+1
		var k *ptrNode
		if node != nil {
			k = node.member(key)
		}
		if p.firstLean > 0 {
			switch string(key) {
			case "$schema":
				death = p.firstLean
			case "maximum":
				if k == nil || k.last < 0 || p.firstLean <= p.wordsAt {
					if isMaxSafe(b, vi) {
						death = p.firstLean
					}
				}
			}
		}
		if k != nil {
			r = t.found(k, min(until, death))
		}
		keep := write && death > n
		if keep {
			if wrote {
				t.out = append(t.out, ',')
			}
			t.out = append(append(t.out, b[i:ke]...), ':')
			wrote = true
		}
		childUntil := min(until, death, r)
		var e int
		var cl lens
		switch {
		case props && string(key) == "properties" && b[vi] == '{':
			var alive int
			e, cl, alive = t.object(vi, childUntil, keep && r > n, below(k), false)
			t.props, t.propsObj = alive, true
		case b[vi] == '{':
			e, cl, _ = t.object(vi, childUntil, keep && r > n, below(k), false)
		case b[vi] == '[':
			e, cl = t.array(vi, childUntil, keep && r > n, below(k))
		default:
			// a field description's bytes count too
			desc := t.inSchema && b[vi] == '"' && string(key) == "description"
			var ln, sb int
			switch {
			case keep && r > n:
				mark := len(t.out)
				t.out, e = jsonjs.AppendStringifyValid(t.out, b, vi)
				ln = len(t.out) - mark
				if desc {
					_, sb = jsonjs.StringLensValid(b[vi:e])
				}
			case b[vi] == '"':
				e, ln, sb = jsonjs.MeasureStringValid(b, vi)
			default:
				e, ln, _ = jsonjs.MeasureValid(b, vi, "")
			}
			if desc {
				t.fieldDesc += int64(sb)
			}
			cl = same(ln, n)
		}
		if t.slow {
			return i, l, alive
		}
		var text int
		if r <= n {
			text = quoteLen(t.ptrs[k.last].text)
			if keep {
				t.out = jsonjs.AppendQuote(t.out, t.ptrs[k.last].text)
			}
		}
		for s := range min(death, len(l)) { // death is n+1 at most
			v := cl[s]
			if s >= r {
				v = text
			}
			l[s] += kl + 2 + v // and a comma, but after the last
		}
		alive = max(alive, death)
		if death <= n && death < until {
			t.changes[death]++
		}
		i = jsonjs.SkipSpace(b, e)
		if b[i] == '}' {
			i++
			break
		}
		i = jsonjs.SkipSpace(b, i+1)
	}
	if !t.normal {
		if jsonjs.HasDuplicate(t.keys[base:]) {
			t.slow = true
			return i, l, alive
		}
		t.keys = t.keys[:base]
	}
	for s := range min(alive, len(l)) {
		l[s]-- // the comma after the last member
	}
	if write {
		t.out = append(t.out, '}')
	}
	return i, l, alive
}

func (t *toolWalk) array(i, until int, write bool, node *ptrNode) (int, lens) {
	b := t.b
	n := t.p.n
	l := same(2, n)
	if write {
		t.out = append(t.out, '[')
	}
	i = jsonjs.SkipSpace(b, i+1)
	if b[i] == ']' {
		if write {
			t.out = append(t.out, ']')
		}
		return i + 1, l
	}
	for idx := 0; ; idx++ {
		if idx > 0 {
			for s := range l {
				l[s]++
			}
			if write {
				t.out = append(t.out, ',')
			}
		}
		r := n + 1
		var k *ptrNode
		if node != nil {
			if k = node.kid(strconv.Itoa(idx)); k != nil {
				r = t.found(k, until)
			}
		}
		e, cl := t.value(i, min(until, r), write && r > n, below(k), false)
		if t.slow {
			return i, l
		}
		var text int
		if r <= n {
			text = quoteLen(t.ptrs[k.last].text)
			if write {
				t.out = jsonjs.AppendQuote(t.out, t.ptrs[k.last].text)
			}
		}
		for s := range l {
			if s >= r {
				l[s] += text
			} else {
				l[s] += cl[s]
			}
		}
		i = jsonjs.SkipSpace(b, e)
		if b[i] == ']' {
			i++
			break
		}
		i = jsonjs.SkipSpace(b, i+1)
	}
	if write {
		t.out = append(t.out, ']')
	}
	return i, l
}

// isMaxSafe reports whether the value at b[i] is the number
// 9007199254740991, however it is written.
func isMaxSafe(b []byte, i int) bool {
	if c := b[i]; c != '-' && (c < '0' || c > '9') {
		return false
	}
	e := jsonjs.SkipValid(b, i)
	if string(b[i:e]) == "9007199254740991" {
		return true
	}
	f, err := strconv.ParseFloat(string(b[i:e]), 64)
	return err == nil && f == MaxSafeInteger
}

// quoteLen returns the length of JSON.stringify of the string s.
func quoteLen(s string) int {
	var buf [64]byte
	if len(s) <= 16 {
		return len(jsonjs.AppendQuote(buf[:0], s))
	}
	return jsonjs.StringifyLen(jsonjs.StringValue(s))
}
