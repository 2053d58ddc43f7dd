package toollist

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/readmeter/readmeter/internal/testhook"
	"github.com/readmeter/readmeter/jsonjs"
)

// Capture is a tools/list answer read and measured: its tools, kept as
// text and parsed one at a time, and every figure Options asked for.
type Capture struct {
	// Path is the file the capture was read from, as given.
	Path string
	// Form is how the file holds the answer.
	Form Form
	// WireBytes is the size of the answer as received.
	WireBytes int64
	// Replaced counts invalid UTF-8 sequences decoded as U+FFFD.
	Replaced int
	// Tools holds each tool's JSON text, in the capture's order. Of a
	// mapped capture (1 MiB or more, read from a file), the texts lie in
	// the file's mapping: once another writer cuts the file, reading them
	// faults; the package's functions turn that into an *Error, code
	// reading them itself must guard against it.
	Tools [][]byte
	// Figures are the capture's figures, with the counts of
	// Options.Counters.
	Figures *Figures
	// Savings holds the saving of each of Options.Transforms, in the
	// order given, each against the result of the ones before.
	Savings []Saving
	// Profile is the byte profile, when Options.Profile asks for it.
	Profile *ByteProfile

	ans   *answer
	unmap func() error
	pg    *pages // the mapping of a mapped capture
}

// Options says what Open computes of a capture besides its figures.
type Options struct {
	// Counters count the tokens of every tool's model-read text
	// (Figures.Tokenizers, Figures.ToolTokenCounts), in their order.
	Counters []Counter
	// Transforms are the what-ifs to apply, in order (Result.Savings).
	Transforms []Transform
	// Write, when not nil, receives the capture after the transforms, in
	// its own form (see the package doc). On an error, what was written is
	// incomplete and must be thrown away.
	Write io.Writer
	// Profile asks for the byte profile (ProfileBytes, with Counters),
	// made beside the rest: it reads the tools and nothing else.
	Profile bool
}

// mapAbove is the size from which Open maps a capture instead of reading
// it into memory.
var mapAbove int64 = 1 << 20

// Close releases the memory a large capture's file was mapped into. The
// capture and its Tools must not be used after Close. Closing a capture
// that was read into memory does nothing.
func (c *Capture) Close() error {
	if c.unmap == nil {
		return nil
	}
	err := c.unmap()
	c.unmap, c.Tools, c.ans = nil, nil, nil
	return err
}

// Open reads the capture at path and computes, in one pass over its
// tools, its figures and whatever o asks for besides. Its errors are
// *Error, naming the file and what is wrong. A capture of 1 MiB or more
// is mapped into memory rather than read; Close releases it.
//
// A file that another writer cuts or rewrites while it is read gives an
// *Error saying so, never a crash.
func Open(path string, o Options) (*Capture, error) {
	c, p, err := read(path, o)
	if err != nil {
		return nil, err
	}
	return c.result(p, o)
}

// StdinName is the name a capture read from standard input goes by in
// messages and reports (measure -).
const StdinName = "stdin"

// OpenReader is Open for a capture that is not a file: it reads r to its
// end (at most MaxFile bytes) and measures the text, named name.
func OpenReader(name string, r io.Reader, o Options) (*Capture, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFile+1))
	if err != nil {
		return nil, inputErr(name, "cannot be read: %v", err)
	}
	if len(data) > MaxFile {
		return nil, inputErr(name, "larger than the %d bytes (2 GiB) a capture may be", int64(MaxFile))
	}
	return openBytes(name, data, o)
}

// openBytes is Open of a capture's bytes, named path; the capture keeps
// data (or its decoded copy) and slices of it.
func openBytes(path string, data []byte, o Options) (*Capture, error) {
	c, p, err := parse(path, data, nil, o)
	if err != nil {
		return nil, err
	}
	return c.result(p, o)
}

// result measures the capture, counts its tokens and applies the
// what-ifs, taking what the validating pass p already did.
func (c *Capture) result(p *pass, o Options) (_ *Capture, err error) {
	var prof chan error
	if o.Profile {
		prof = make(chan error, 1)
		go func() {
			var err error
			c.Profile, err = ProfileBytes(c, o.Counters...)
			prof <- err
		}()
	}
	defer func() {
		if prof != nil {
			if perr := <-prof; err == nil {
				err = perr
			}
		}
		if err != nil {
			c.Close()
		}
	}()
	if c.Figures, err = measure(c, p); err != nil {
		return nil, err
	}
	if err = countTokens(c, p, c.Figures, o.Counters); err != nil {
		return nil, err
	}
	if len(o.Transforms) > 0 {
		if c.Savings, err = whatIf(c, p, o.Transforms, o.Write); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// read reads the capture at path, mapped from mapAbove on, measuring (and
// counting and transforming, as o says) the tools the validating pass
// hands over.
func read(path string, o Options) (*Capture, *pass, error) {
	st, err := checkFile(path)
	if err != nil {
		return nil, nil, err
	}
	if st.Size() >= mapAbove {
		if c, p, err := readMapped(path, o); err == nil {
			return c, p, nil
		} else if _, ok := err.(*Error); ok {
			return nil, nil, err
		}
		// mapping failed: read the file instead
	}
	data, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	return parse(path, data, nil, o)
}

// errNotMapped says a file is, as it is now, not to be mapped: smaller
// than mapAbove, larger than MaxFile, or no longer a regular file.
var errNotMapped = errors.New("toollist: not to be mapped")

// readMapped maps the file and parses it. Errors that are not *Error mean
// the file could not be mapped, or is not to be.
func readMapped(path string, o Options) (c *Capture, p *pass, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	// The file as it is now, which may not be what checkFile saw.
	st, err := f.Stat()
	switch {
	case err != nil:
	case st.Size() < mapAbove || st.Size() > MaxFile || !st.Mode().IsRegular():
		err = errNotMapped // read it, or let readFile refuse it
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	data, unmap, err := mapFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	pg := &pages{data: data, path: path, f: f, size: st.Size(), mod: st.ModTime()}
	defer func() {
		if err != nil {
			c, p = nil, nil
			unmap()
			f.Close()
		}
	}()
	defer pg.caught(pg.guard(), &err)
	if testhook.Mapped != nil {
		testhook.Mapped(path, data)
	}
	if c, p, err = parse(path, data, pg, o); err != nil {
		return nil, nil, err
	}
	c.unmap = func() error {
		err := unmap()
		f.Close()
		return err
	}
	return c, p, nil
}

// pass is what the validating pass did besides: the tools it measured
// (and counted, and walked through the what-ifs), for measure, countTokens
// and whatIf to take rather than do again.
type pass struct {
	pre []*prescanned
	// the arrays most of them were measured into, in place
	figs  []ToolFigures
	scans []scanned
	// walked: the what-ifs applied while the tools were measured, nil when
	// they were not
	walked *walked
	// tokens: the counters' counts by tool then counter, -1 for a tool
	// left to countTokens; nil when there are no counters
	tokens []int64
}

// parse locates the tools of the capture data, named path; pg is the
// mapping data lies in, given back behind each pass, or nil. The tools
// handed over by the validating pass are measured, counted with
// o.Counters, and walked through o.Transforms (unless the capture is to
// be written, which walks them in order) on other goroutines, into the
// pass returned.
func parse(path string, data []byte, pg *pages, o Options) (*Capture, *pass, error) {
	counters, ts := o.Counters, o.Transforms
	if o.Write != nil {
		ts = nil
	}
	// The text is taken to be UTF-8 and checked as it is validated; when
	// it is not, it is read again, decoded first.
	var pre prescan
	var a *answer
	var err error
	for later := true; ; later = false {
		pre = prescan{pg: pg, size: len(data), counters: counters}
		if len(ts) > 0 {
			pre.ts, pre.stages = ts, stagesOf(ts)
		}
		// the workers measuring tools may be a few batches behind
		back := behind{p: pg, lag: 2 * releaseStep}
		err = guarded(pg, func() (err error) {
			a, err = readAnswerAs(path, data, "tools/list answer", pg, func(k, i int, elem []byte, unchecked bool) bool {
				takes := pre.each(k, i, elem, unchecked)
				if !pre.taking() {
					back.at(elem)
				}
				return takes
			}, later)
			return err
		})
		// the workers are let go even when the pass faulted
		pre.finish()
		if err == nil && pre.notUTF8.Load() {
			err = errNotUTF8 // a tool the workers checked
		}
		if err != errNotUTF8 {
			break
		}
	}
	if err == nil {
		err = pg.failed() // a worker's
	}
	if err != nil {
		return nil, nil, err
	}
	where := "result"
	if a.form == Result {
		where = "the answer"
	}
	var raw []byte
	var ok bool
	var tools [][]byte
	if a.found != nil {
		fd := a.found[findTools]
		if a.form != Result {
			fd = a.found[findResultTools]
		}
		raw, ok, tools = fd.Value, fd.Value != nil, fd.Elems
	} else {
		raw, ok = jsonjs.LastMember(jsonjs.MembersValid(nil, a.result), "tools")
		if ok && jsonjs.KindValid(raw) == jsonjs.Array {
			tools = jsonjs.ElemsValid(make([][]byte, 0, 64), raw)
		}
	}
	if !ok {
		if _, init := jsonjs.LastMember(jsonjs.MembersValid(nil, a.result), "protocolVersion"); init {
			return nil, nil, inputErr(path, "an initialize answer, not a tools/list answer: give it with --init, or beside its capture as %s", filepath.Base(InitPath("CAPTURE.json")))
		}
		return nil, nil, inputErr(path, "%s has no tools array: a capture holds a tools/list answer", where)
	}
	at := "tools"
	if a.form != Result {
		at = "result.tools"
	}
	if k := jsonjs.KindValid(raw); k != jsonjs.Array {
		return nil, nil, inputErr(path, "%s is %s, not an array", at, article(k))
	}
	if tools == nil {
		tools = [][]byte{}
	}
	var pres []*prescanned
	checked := 0 // tools known to be objects
	if a.found != nil {
		k := findTools
		if a.form != Result {
			k = findResultTools
		}
		pres, checked = pre.result(k, tools)
	}
	for i, t := range tools[checked:] {
		if k := jsonjs.KindValid(t); k != jsonjs.Object {
			return nil, nil, inputErr(path, "%s[%d] is %s, not an object", at, checked+i, article(k))
		}
	}
	c := &Capture{Path: path, Form: a.form, WireBytes: a.wire, Replaced: a.replaced, Tools: tools, ans: a, pg: pg}
	p := &pass{pre: pres}
	if pres != nil {
		p.figs, p.scans = pre.figs, pre.scans
	}
	if pres != nil && len(ts) > 0 {
		p.walked = &walked{used: pre.used}
	}
	if len(counters) > 0 {
		p.tokens = make([]int64, len(tools)*len(counters))
		for i := range p.tokens {
			p.tokens[i] = -1
		}
		for _, b := range pres {
			copy(p.tokens[b.start*len(counters):], b.tokens)
		}
	}
	pg.release(0, len(data))
	return c, p, nil
}

// toolsAt returns the JSON path of the tools array in messages.
func (c *Capture) toolsAt() string {
	if c.Form == Result {
		return "tools"
	}
	return "result.tools"
}

// tool parses the i-th tool.
func (c *Capture) tool(i int) (jsonjs.Value, error) {
	v, err := jsonjs.Parse(c.Tools[i])
	if err != nil {
		return v, inputErr(c.Path, "%s[%d]: %v", c.toolsAt(), i, err)
	}
	return v, nil
}

// toolLabel returns how the i-th tool is named in reports: its name when
// the name is a string, else "tools[i]".
func toolLabel(tool jsonjs.Value, i int) (string, bool) {
	if n, ok := tool.Get("name"); ok && n.Kind() == jsonjs.String {
		return n.Str(), true
	}
	return fmt.Sprintf("tools[%d]", i), false
}

// Tool parses the i-th tool, as JSON.parse would; an error names the
// capture and the tool's place in it.
func (c *Capture) Tool(i int) (jsonjs.Value, error) { return c.tool(i) }

// ToolLine returns the 1-based line of the file on which the i-th tool
// starts, or 0 when the tool's text is not the file's own (an event
// stream's data lines joined).
func (c *Capture) ToolLine(i int) int {
	if c.ans == nil || i < 0 || i >= len(c.Tools) || len(c.Tools[i]) == 0 {
		return 0
	}
	text, t := c.ans.text, c.Tools[i]
	off := cap(text) - cap(t)
	if off < 0 || off >= len(text) || &text[off] != &t[0] {
		return 0
	}
	return 1 + bytes.Count(text[:off], []byte{'\n'})
}
