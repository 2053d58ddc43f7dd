package toollist

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/readmeter/readmeter/internal/eventstream"
	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/jsonjs"
)

// Form is how a capture holds its answer.
type Form uint8

// The forms a capture comes in.
const (
	// JSONRPC is a JSON-RPC response: {"jsonrpc", "id", "result": {...}}.
	JSONRPC Form = iota + 1
	// Result is a bare result object, such as {"tools": [...]}.
	Result
	// EventStream is a text/event-stream body whose answer event carries
	// the JSON-RPC response.
	EventStream
)

// String returns the form's name: "json-rpc", "result" or "event-stream".
func (f Form) String() string {
	switch f {
	case JSONRPC:
		return "json-rpc"
	case Result:
		return "result"
	case EventStream:
		return "event-stream"
	}
	return "unknown"
}

// Error is input that cannot be measured: the file, and what is wrong with
// it (the place first: a line and column, or a JSON path).
type Error struct {
	Path string
	Msg  string
}

// Error returns "PATH: MSG".
func (e *Error) Error() string { return e.Path + ": " + e.Msg }

func inputErr(path, format string, args ...any) error {
	return &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// InitPath returns where the initialize (or server/discover) answer of the
// capture at capturePath is kept: beside it, the stem followed by ".init"
// and the same extension (captures/tools-mcp.json ->
// captures/tools-mcp.init.json).
func InitPath(capturePath string) string {
	dir, base := filepath.Split(capturePath)
	ext := filepath.Ext(base)
	return dir + strings.TrimSuffix(base, ext) + ".init" + ext
}

// answer is one answer file, read and located: the JSON-RPC message (or
// bare result) it holds, and for an event stream where that message sits.
type answer struct {
	path     string
	form     Form
	raw      int64 // bytes in the file
	wire     int64
	text     []byte // the file's text, decoded
	replaced int
	newline  bool   // a JSON capture ended with "\n"
	msg      []byte // the message's JSON text
	result   []byte // the result object's JSON text
	data     []dataLine
	// found holds what the validating pass found at findPaths in msg,
	// nil when msg was validated without looking (an event's data).
	found []jsonjs.Found
}

// findPaths are the members of a message that locating its result and
// tools reads, found while the message is validated; the find* constants
// index them.
var findPaths = [][]string{{"result"}, {"error"}, {"jsonrpc"}, {"tools"}, {"result", "tools"}}

const (
	findResult = iota
	findError
	findJSONRPC
	findTools
	findResultTools
)

// dataLine is one data line of the answer event: the line's span in text
// (end excludes the line terminator) and the length of its "data:" or
// "data: " prefix.
type dataLine struct {
	start, end, prefix int
	line               int // 1-based line number in the file
}

// MaxFile is the largest file the toolkit reads: 2 GiB (infile.Max). A
// capture, a toolsets or ceilings file larger than that is refused before
// it is read.
const MaxFile = infile.Max

// checkFile says why path cannot be read as an input file, by infile's
// rule: missing, a directory, not a regular file (a device such as
// /dev/zero, a FIFO), or larger than MaxFile.
func checkFile(path string) (fs.FileInfo, error) {
	st, err := infile.Check(path, "capture file", MaxFile)
	return st, asInputErr(err)
}

// asInputErr makes infile's error the package's Error, naming the file.
func asInputErr(err error) error {
	var ie *infile.Error
	if !errors.As(err, &ie) {
		return err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return inputErr(ie.Path, "no such file")
	}
	return inputErr(ie.Path, "%s", ie.Msg)
}

// readFile reads a capture file, naming the problem when it cannot.
func readFile(path string) ([]byte, error) {
	data, err := infile.Read(path, "capture file", MaxFile)
	return data, asInputErr(err)
}

// readAnswer locates the message in a file's bytes. what names the answer
// in messages ("tools/list answer", "initialize answer").
func readAnswer(path string, data []byte, what string) (*answer, error) {
	return readAnswerEach(path, data, what, nil, nil)
}

// readAnswerEach is readAnswer that hands each element of an array found
// at findPaths to each as the validating pass reads it (see
// jsonjs.ValidateFindEach). pg is the mapping data lies in, or nil: the
// UTF-8 check gives back its pages as it goes.
func readAnswerEach(path string, data []byte, what string, pg *pages, each elemFunc) (*answer, error) {
	return readAnswerAs(path, data, what, pg, each, false)
}

// elemFunc is handed each element of an array found at findPaths as the
// validating pass reads it: the path's index k, the element's index i
// and its text. unchecked says the text is not yet known to be UTF-8;
// the function then reports whether it takes that check over (the
// prescan's workers check the tools they measure), and the pass does not
// check the element itself.
type elemFunc func(k, i int, elem []byte, unchecked bool) (takes bool)

// utf8Later is the size from which a capture's text is checked to be
// UTF-8 as it is validated, not in a pass before (see readAnswerAs).
var utf8Later = 1 << 20

// errNotUTF8 says that a text validated as UTF-8 was not: it must be
// decoded and read again.
var errNotUTF8 = errors.New("toollist: the text is not UTF-8")

// readAnswerAs is readAnswerEach. With later, a JSON text is taken to be
// UTF-8 and checked as the validating pass goes, up to the end of each
// element handed to each, so that the bytes are read while they are at
// hand; when they are not UTF-8 it returns errNotUTF8 (each may have been
// handed elements by then), and the answer is to be read again without.
func readAnswerAs(path string, data []byte, what string, pg *pages, each elemFunc, later bool) (*answer, error) {
	a := &answer{path: path, raw: int64(len(data))}
	// Only the white space at the start is read: a large file is read
	// from its start on, as far as it must be.
	if len(bytes.TrimLeftFunc(data, unicode.IsSpace)) == 0 {
		if len(data) == 0 {
			return nil, inputErr(path, "empty file: a capture holds a %s", what)
		}
		return nil, inputErr(path, "holds only white space: a capture holds a %s", what)
	}
	var page *infile.Error
	if errors.As(infile.WebPage(path, data, what, "save what the MCP endpoint answers (measure capture -o FILE URL takes it)"), &page) {
		// a login page, the server's home page, saved in place of the answer
		return nil, inputErr(path, "line %d: %s", page.Line, page.Msg)
	}
	if later && len(data) >= utf8Later {
		if eventstream.Sniff(data) {
			return a.readEventsLater(data, pg, what)
		}
		return a.readLater(data, each, what)
	}
	if validUTF8(data, pg) {
		a.text = data
	} else {
		a.text, a.replaced = jsonjs.Decode(data)
		pg.release(0, len(data)) // only the decoded copy is read from here on
	}
	if eventstream.Sniff(a.text) {
		a.form = EventStream
		a.wire = a.raw
		if _, err := a.findEvent(); err != nil {
			return nil, err
		}
	} else {
		a.wire = a.raw
		if data[len(data)-1] == '\n' {
			a.wire--
			a.newline = true
		}
		var checked func(k, i int, elem []byte)
		if each != nil {
			checked = func(k, i int, elem []byte) { each(k, i, elem, false) }
		}
		found, err := jsonjs.ValidateFindEach(a.text, checked, findPaths...)
		if err != nil {
			return nil, inputErr(path, "%v", err)
		}
		a.found = found
		a.msg = a.text
	}
	return a, a.locateResult(what)
}

// readLater validates the JSON text data, taken to be UTF-8, checking
// that it is as it goes (see readAnswerAs), but for the elements each
// takes the check of over. A syntax error is reported as soon as the
// validating pass meets it, with nothing after it read.
func (a *answer) readLater(data []byte, each elemFunc, what string) (*answer, error) {
	a.text, a.wire, a.msg = data, a.raw, data
	checked, bad := 0, false
	found, err := jsonjs.ValidateFindEach(data, func(k, i int, elem []byte) {
		if bad {
			return
		}
		start := int(uintptr(unsafe.Pointer(unsafe.SliceData(elem))) - uintptr(unsafe.Pointer(unsafe.SliceData(data))))
		end := start + len(elem)
		if start < checked || end > len(data) {
			bad = true
			return
		}
		upto := end
		if each != nil && each(k, i, elem, true) {
			upto = start // the text before the element is this pass's to check
		}
		if !utf8.Valid(data[checked:upto]) {
			bad = true
			return
		}
		checked = end
	}, findPaths...)
	if err != nil {
		return nil, inputErr(a.path, "%v", decodedError(data, err))
	}
	if bad || !utf8.Valid(data[checked:]) {
		return nil, errNotUTF8
	}
	if data[len(data)-1] == '\n' {
		a.wire--
		a.newline = true
	}
	a.found = found
	return a, a.locateResult(what)
}

// decodedError returns err, a syntax error found in data read as UTF-8,
// as reading the decoded text (jsonjs.Decode) would report it, reading
// only the line up to the error: the same line and message (the scanner
// tells bytes from 0x80 up from one another nowhere, and takes the U+FFFD
// an invalid sequence decodes to as it takes the sequence), and the
// column counted in decoded characters.
func decodedError(data []byte, err error) error {
	var se *jsonjs.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	off := min(se.Offset, len(data))
	line := data[bytes.LastIndexByte(data[:off], '\n')+1 : off]
	if utf8.Valid(line) {
		return err
	}
	// Decoded a megabyte at a time, cut where a character starts (a
	// sequence cut short before one decodes the same either way).
	col := 1
	for len(line) > 0 {
		n := charStart(line, min(len(line), 1<<20))
		text, _ := jsonjs.Decode(line[:n])
		col += utf8.RuneCount(text)
		line = line[n:]
	}
	out := *se
	out.Column = col
	return &out
}

// validUTF8 reports whether data is valid UTF-8, checking a large text in
// two halves at once, split where a character starts, each a few
// megabytes at a time, giving back the pages checked when data is mapped
// (pg; nil when it is not).
func validUTF8(data []byte, pg *pages) bool {
	const above = 1 << 20
	if len(data) < above || runtime.GOMAXPROCS(0) < 2 {
		return validRange(data, 0, len(data), pg)
	}
	mid := charStart(data, len(data)/2)
	var second bool
	var wg sync.WaitGroup
	wg.Go(func() {
		defer pg.caught(pg.guard(), nil)
		second = validRange(data, mid, len(data), pg)
	})
	first := validRange(data, 0, mid, pg)
	wg.Wait()
	return first && second
}

// validRange checks data[lo:hi] (split where characters start).
func validRange(data []byte, lo, hi int, pg *pages) bool {
	for lo < hi {
		e := hi
		if pg != nil {
			e = min(charStart(data, lo+releaseStep), hi)
		}
		if !utf8.Valid(data[lo:e]) {
			return false
		}
		pg.release(lo, e)
		lo = e
	}
	return true
}

// charStart returns the first place at or after i where a character
// starts (a continuation byte starts none).
func charStart(data []byte, i int) int {
	for i < len(data) && data[i]&0xC0 == 0x80 {
		i++
	}
	return min(i, len(data))
}

// readEventsLater reads an event stream, data, taken to be UTF-8, and
// checks that it is once its events are read (see readAnswerAs): a
// syntax error in an event's data is reported as soon as the scan meets
// it, with nothing after it read.
func (a *answer) readEventsLater(data []byte, pg *pages, what string) (*answer, error) {
	a.text, a.form, a.wire = data, EventStream, a.raw
	syntax, err := a.findEvent()
	if err != nil && syntax {
		return nil, err
	}
	if !validUTF8(data, pg) {
		return nil, errNotUTF8
	}
	if err != nil {
		return nil, err
	}
	return a, a.locateResult(what)
}

// findEvent reads the event stream (with the module's one event-stream
// reader) and keeps the first event whose data is a JSON-RPC response.
// Every event's data must be JSON: it is checked as the scan reaches it
// (eventData), so that a syntax error in a long event is met without the
// rest of it read. syntax reports that err is such an error, the same
// whether or not the text is UTF-8 (its column counts characters as
// decoded).
func (a *answer) findEvent() (syntax bool, err error) {
	t := a.text
	d := &eventData{}
	o := eventstream.Options{Data: d}
	for ev, err := range eventstream.NewBytesWith(t, o).Events() {
		if err == errEventData {
			return true, a.eventError(ev, eventText(t, ev.Lines), nil)
		}
		if err != nil {
			return false, inputErr(a.path, "%v", err)
		}
		if len(ev.Data) == 0 {
			continue // a priming event
		}
		msg := ev.Data
		if !d.chk.Valid() {
			if err := jsonjs.Validate(msg); err != nil {
				return true, a.eventError(ev, msg, err)
			}
		}
		if a.msg != nil || !isResponse(msg) {
			continue
		}
		a.msg = msg
		a.data = make([]dataLine, len(ev.Lines))
		for i, l := range ev.Lines {
			a.data[i] = dataLine{start: int(l.Start), end: int(l.End), prefix: int(l.Value - l.Start), line: l.No}
		}
	}
	if a.msg == nil {
		return false, inputErr(a.path, "the event stream holds no JSON-RPC response")
	}
	return false, nil
}

// eventError is the error of event ev, whose data (or what was read of
// it) is data: err, Validate's error, or when nil the one Validate finds.
// It names the line and column in the file.
func (a *answer) eventError(ev eventstream.Event, data []byte, err error) error {
	if err == nil {
		if err = jsonjs.Validate(data); err == nil {
			return inputErr(a.path, "event %d's data is not JSON", ev.N)
		}
	}
	err = decodedError(data, err)
	var se *jsonjs.SyntaxError
	if errors.As(err, &se) && se.Line-1 < len(ev.Lines) {
		l := ev.Lines[se.Line-1]
		return inputErr(a.path, "line %d, column %d: event %d's data: %s", l.No, se.Column+int(l.Value-l.Start), ev.N, se.Msg)
	}
	return inputErr(a.path, "event %d's data: %v", ev.N, err)
}

// eventText returns the data of lines of t, their values joined with LF:
// t's own bytes for one line.
func eventText(t []byte, lines []eventstream.Line) []byte {
	if len(lines) == 1 {
		return t[lines[0].Value:lines[0].End]
	}
	var b []byte
	for i, l := range lines {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, t[l.Value:l.End]...)
	}
	return b
}

// eventData checks each event's data as the event-stream reader hands it
// over (eventstream.Options.Data), and fails as soon as it cannot be JSON,
// which ends the scan there.
type eventData struct{ chk jsonjs.Checker }

// errEventData says an event's data is not JSON (eventData).
var errEventData = errors.New("toollist: an event's data is not JSON")

func (d *eventData) Reset() { d.chk.Reset() }

func (d *eventData) Write(p []byte) (int, error) {
	d.chk.Write(p)
	if d.chk.Refused() {
		return 0, errEventData
	}
	return len(p), nil
}

// isResponse reports whether the valid JSON text msg is an object with a
// "result" or an "error" member.
func isResponse(msg []byte) bool {
	if jsonjs.KindValid(msg) != jsonjs.Object {
		return false
	}
	ms := jsonjs.MembersValid(nil, msg)
	_, r := jsonjs.LastMember(ms, "result")
	_, e := jsonjs.LastMember(ms, "error")
	return r || e
}

// locateResult finds the result object in the message, and the form of a
// JSON capture.
func (a *answer) locateResult(what string) error {
	if k := jsonjs.KindValid(a.msg); k != jsonjs.Object {
		return inputErr(a.path, "the answer is %s, not a JSON object: a capture holds a %s", article(k), what)
	}
	var res, rpcErr []byte
	var hasRes, hasErr, rpc bool
	if a.found != nil {
		res, rpcErr = a.found[findResult].Value, a.found[findError].Value
		hasRes, hasErr, rpc = res != nil, rpcErr != nil, a.found[findJSONRPC].Value != nil
	} else {
		ms := jsonjs.MembersValid(nil, a.msg)
		_, rpc = jsonjs.LastMember(ms, "jsonrpc")
		res, hasRes = jsonjs.LastMember(ms, "result")
		rpcErr, hasErr = jsonjs.LastMember(ms, "error")
	}
	if hasRes {
		if a.form == 0 {
			a.form = JSONRPC
		}
		if k := jsonjs.KindValid(res); k != jsonjs.Object {
			return inputErr(a.path, "result is %s, not an object", article(k))
		}
		a.result = res
		return nil
	}
	if hasErr {
		return inputErr(a.path, "a JSON-RPC error response, not a %s: %s", what, describeRPCError(rpcErr))
	}
	if a.form == EventStream {
		return inputErr(a.path, "the event stream holds no JSON-RPC response")
	}
	if rpc {
		return inputErr(a.path, "a JSON-RPC message with no result: a capture holds a %s", what)
	}
	a.form = Result
	a.result = a.msg
	return nil
}

// describeRPCError writes a JSON-RPC error object as "code C: MESSAGE".
func describeRPCError(raw []byte) string {
	v, err := jsonjs.Parse(raw)
	if err != nil || v.Kind() != jsonjs.Object {
		return string(raw)
	}
	var parts []string
	if c, ok := v.Get("code"); ok {
		parts = append(parts, "code "+string(jsonjs.Stringify(c)))
	}
	if m, ok := v.Get("message"); ok {
		if m.Kind() == jsonjs.String {
			parts = append(parts, m.Str())
		} else {
			parts = append(parts, string(jsonjs.Stringify(m)))
		}
	}
	if len(parts) == 0 {
		return string(raw)
	}
	return strings.Join(parts, ": ")
}

// article names a kind with its article: "an array", "a string", "null".
func article(k jsonjs.Kind) string {
	switch k {
	case jsonjs.Null:
		return "null"
	case jsonjs.Array, jsonjs.Object:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// frameParts returns what comes before and after the message when the
// answer is written again in its own form: for JSON, nothing before and
// the final newline if the capture had one; for an event stream, the
// framing kept, with the answer's data lines replaced by one data line
// (its prefix ends head).
func (a *answer) frameParts() (head, tail []byte) {
	if a.form != EventStream {
		if a.newline {
			return nil, []byte{'\n'}
		}
		return nil, nil
	}
	t := a.text
	first := a.data[0]
	head = t[:first.start+first.prefix]
	pos := first.end
	for _, l := range a.data[1:] {
		// keep what lies between data lines, drop the data line and its
		// terminator
		tail = append(tail, t[pos:l.start]...)
		pos = lineNext(t, l.end)
	}
	return head, append(tail, t[pos:]...)
}

// lineNext returns where the line ending at end is followed by the next.
func lineNext(t []byte, end int) int {
	if end < len(t) {
		if t[end] == '\r' && end+1 < len(t) && t[end+1] == '\n' {
			return end + 2
		}
		return end + 1
	}
	return end
}
