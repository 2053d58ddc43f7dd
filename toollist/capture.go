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

// Capture is a tools/list answer read from a file and located, ready to be
// measured or transformed. Its tools are kept as text and parsed one at a
// time.
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

	ans   *answer
	unmap func() error
	pre   []*prescanned // tools measured while the capture was validated
	// the arrays most of them were measured into, in place
	preFigs  []ToolFigures
	preScans []scanned
	walked   *walked // the what-ifs applied while they were measured
	pg       *pages  // the mapping of a mapped capture
	// counted: the counters ReadCounting counted the tools with while it
	// measured them; tokens their counts, by tool then counter, -1 for a
	// tool left to CountTokens
	counted []Counter
	tokens  []int64
}

// mapAbove is the size from which Read maps a capture instead of reading
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
	c.unmap, c.Tools, c.ans, c.pre, c.walked = nil, nil, nil, nil, nil
	c.preFigs, c.preScans = nil, nil
	return err
}

// Read reads the capture at path. Its errors are *Error, naming the file
// and what is wrong. A capture of 1 MiB or more is mapped into memory
// rather than read; Close releases it.
func Read(path string) (*Capture, error) {
	return ReadWith(path)
}

// ReadWith is Read that also applies the what-ifs ts to each tool while
// it is measured, in the same pass over its text: WhatIf with the same
// transforms and no writer then adds up what was found instead of reading
// the tools again.
//
// A file that another writer cuts or rewrites while it is read (here, or
// later by Measure, WhatIf or CountTokens, which read a mapped capture's
// text again) gives an *Error saying so, never a crash.
func ReadWith(path string, ts ...Transform) (*Capture, error) {
	return readWith(path, nil, ts)
}

// ReadCounting is ReadWith that also counts, with each counter, the
// tokens of every tool's model-read text while it measures the tool, on
// the same goroutines, while its text is at hand: CountTokens with the
// same counters then records the counts without reading the tools again.
func ReadCounting(path string, counters []Counter, ts ...Transform) (*Capture, error) {
	return readWith(path, counters, ts)
}

// StdinName is the name a capture read from standard input goes by in
// messages and reports (measure -).
const StdinName = "stdin"

// ReadFrom is ReadCounting for a capture that is not a file: it reads r
// to its end (at most MaxFile bytes) and measures the text, named name.
func ReadFrom(name string, r io.Reader, counters []Counter, ts ...Transform) (*Capture, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFile+1))
	if err != nil {
		return nil, inputErr(name, "cannot be read: %v", err)
	}
	if len(data) > MaxFile {
		return nil, inputErr(name, "larger than the %d bytes (2 GiB) a capture may be", int64(MaxFile))
	}
	return parse(name, data, nil, counters, ts)
}

// readWith is ReadCounting.
func readWith(path string, counters []Counter, ts []Transform) (*Capture, error) {
	st, err := checkFile(path)
	if err != nil {
		return nil, err
	}
	if st.Size() >= mapAbove {
		if c, err := readMapped(path, counters, ts); err == nil {
			return c, nil
		} else if _, ok := err.(*Error); ok {
			return nil, err
		}
		// mapping failed: read the file instead
	}
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return parse(path, data, nil, counters, ts)
}

// errNotMapped says a file is, as it is now, not to be mapped: smaller
// than mapAbove, larger than MaxFile, or no longer a regular file.
var errNotMapped = errors.New("toollist: not to be mapped")

// readMapped maps the file and parses it. Errors that are not *Error mean
// the file could not be mapped, or is not to be.
func readMapped(path string, counters []Counter, ts []Transform) (c *Capture, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
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
		return nil, err
	}
	data, unmap, err := mapFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	pg := &pages{data: data, path: path, f: f, size: st.Size(), mod: st.ModTime()}
	defer func() {
		if err != nil {
			c = nil
			unmap()
			f.Close()
		}
	}()
	defer pg.caught(pg.guard(), &err)
	if testhook.Mapped != nil {
		testhook.Mapped(path, data)
	}
	if c, err = parse(path, data, pg, counters, ts); err != nil {
		return nil, err
	}
	c.unmap = func() error {
		err := unmap()
		f.Close()
		return err
	}
	return c, nil
}

// Parse reads a capture from its bytes; path names it in errors. The
// capture keeps data (or its decoded copy) and slices of it.
func Parse(path string, data []byte) (*Capture, error) {
	return parse(path, data, nil, nil, nil)
}

// parse is Parse; pg is the mapping data lies in, given back behind each
// pass, or nil; counters count each tool's tokens, and ts are the what-ifs
// to apply, while measuring.
func parse(path string, data []byte, pg *pages, counters []Counter, ts []Transform) (*Capture, error) {
	// The text is taken to be UTF-8 and checked as it is validated; when
	// it is not, it is read again, decoded first.
	var pre prescan
	var a *answer
	var err error
	for later := true; ; later = false {
		pre = prescan{pg: pg, size: len(data), counters: counters}
		if walkTools && len(ts) > 0 {
			pre.ts, pre.plan = ts, newPlan(ts)
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
		return nil, err
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
			return nil, inputErr(path, "an initialize answer, not a tools/list answer: give it with --init, or beside its capture as %s", filepath.Base(InitPath("CAPTURE.json")))
		}
		return nil, inputErr(path, "%s has no tools array: a capture holds a tools/list answer", where)
	}
	at := "tools"
	if a.form != Result {
		at = "result.tools"
	}
	if k := jsonjs.KindValid(raw); k != jsonjs.Array {
		return nil, inputErr(path, "%s is %s, not an array", at, article(k))
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
			return nil, inputErr(path, "%s[%d] is %s, not an object", at, checked+i, article(k))
		}
	}
	c := &Capture{Path: path, Form: a.form, WireBytes: a.wire, Replaced: a.replaced, Tools: tools, ans: a, pre: pres, pg: pg}
	if pres != nil {
		c.preFigs, c.preScans = pre.figs, pre.scans
	}
	if pres != nil && pre.plan != nil {
		c.walked = &walked{ts: ts, used: pre.used}
	}
	if len(counters) > 0 {
		c.counted, c.tokens = counters, make([]int64, len(tools)*len(counters))
		for i := range c.tokens {
			c.tokens[i] = -1
		}
		for _, b := range pres {
			copy(c.tokens[b.start*len(counters):], b.tokens)
		}
	}
	pg.release(0, len(data))
	return c, nil
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
