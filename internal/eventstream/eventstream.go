// Package eventstream is the module's one reader of event streams
// (text/event-stream): MCP answers over HTTP, the older SSE transport's
// stream, and event-stream captures on disk all go through it.
//
//	s := eventstream.New(body, eventstream.Options{Keep: true, Max: 64 << 20})
//	for ev, err := range s.Events() {
//		if err != nil { ... }
//		use(ev.Data)
//	}
//	counted := s.Raw() // every byte read, to the end of the stream
//
// The rules, those of the WHATWG event-stream format with the Go MCP SDK's
// reading of the end of a stream:
//   - a line ends in CRLF, LF or a bare CR; a CR that ends the bytes read so
//     far ends its line at once (an LF after it is skipped when it comes),
//     so an event ending in CR is never held back waiting for a byte;
//   - one leading byte-order mark is ignored;
//   - a line starting with ":" is a comment; "data", "event" and "id" are
//     fields (the name up to the first colon, the value after it less one
//     space; a line without a colon is a field with an empty value); other
//     fields are ignored;
//   - a blank line dispatches the event when any data line came before it
//     (its data: the data lines joined with LF); an event with no data line
//     is not dispatched;
//   - at the end of the stream an event with data lines but no blank line
//     after it is dispatched too (as the Go SDK does), and every byte after
//     the last blank line (a trailing comment, an unfinished line) is still
//     read and kept: Raw is the stream to its end, as fetch's text() counts
//     it.
package eventstream

import (
	"bytes"
	"fmt"
	"io"
	"iter"
)

// Options shape a Scanner.
type Options struct {
	// Keep keeps every byte read, for Raw; without it only the current
	// event's bytes are held (a long-lived stream).
	Keep bool
	// Max bounds the bytes held: the whole stream with Keep, else one
	// event (0: no bound).
	Max int64
	// Data, when set, is handed each event's data while it is read,
	// before the event is dispatched: Reset when the event's first data
	// line begins, then the bytes of Event.Data (the data lines' values
	// joined with LF) as they arrive, a data line's value in as many
	// pieces as the stream gives (over bytes, NewBytesWith, a long line's
	// value a window at a time as the scan reaches it). So a caller checks
	// an event's data as it is read rather than in a pass after it; when
	// the event is dispatched, Data has had all of it. A Write that fails
	// ends the stream there, with its error.
	Data DataWriter
	// Size, when known, is about how many bytes the stream holds (the
	// length of the last like it, say): the first buffer is made to hold
	// them, so that a stream of that size is read without the buffer
	// growing (0: it starts small and doubles).
	Size int64
}

// DataWriter takes events' data as it is read (see Options.Data).
type DataWriter interface {
	io.Writer
	// Reset begins a new event's data.
	Reset()
}

// Event is one dispatched event. With Keep (or New on bytes), Data and Raw
// stay valid; without it they are copies.
type Event struct {
	// Type is the event field's value ("" when there was none).
	Type string
	// ID is the id field's value, if any.
	ID string
	// Data is the data lines' values joined with LF.
	Data []byte
	// Raw is the event's bytes, from its first line through its blank line.
	Raw []byte
	// Start and End are Raw's offsets in the stream.
	Start, End int64
	// Lines are the data lines, in order.
	Lines []Line
	// N is the event's number among those dispatched, from 1.
	N int
	// Unended reports that the stream ended before the event's blank line.
	Unended bool
}

// Line is one data line: its number in the stream (from 1), and the
// offsets of its value and of its end (before the line end).
type Line struct {
	No         int
	Start      int64 // the line's first byte
	Value, End int64
}

// TooLargeError is the error when the bytes held pass Options.Max.
type TooLargeError struct{ Max int64 }

// Error says the answer passed the limit, and names the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("answer larger than the limit of %d bytes", e.Max)
}

// Scanner reads events from a stream.
type Scanner struct {
	r    io.Reader
	o    Options
	buf  []byte // bytes read and held; buf[0] is at offset base
	base int64
	pos  int // the next byte to scan in buf
	eof  bool
	err  error

	skipLF  bool // the last line ended in a CR at the end of the bytes read
	started bool // the BOM check is done
	lineNo  int
	n       int
	partial bool // lines other than blank ones since the last dispatch

	// For Options.Data: the data lines begun in the current event, and
	// the data line whose value is being handed over as it arrives (its
	// offset in the stream, -1 for none) and how far it has gone.
	dataLines int
	feedLine  int64
	feedValue int64 // where the value of feedLine begins
	fed       int64
	dataErr   bool // s.err is a failure of Options.Data
}

// Sniff reports whether b begins as an event stream does, after one
// leading byte-order mark: with a comment (":") or a field name and its
// colon ("event:", "data:", "id:", "retry:"). It is how a saved answer is
// told from a JSON one.
func Sniff(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	for _, p := range []string{":", "event:", "data:", "id:", "retry:"} {
		if bytes.HasPrefix(b, []byte(p)) {
			return true
		}
	}
	return false
}

// New returns a Scanner reading r.
func New(r io.Reader, o Options) *Scanner {
	return &Scanner{r: r, o: o, feedLine: -1}
}

// NewBytesWith returns a Scanner over b, whole: events and Raw alias b
// (Keep is implied). With
// Options.Data, a data line's value is handed over as the scan reaches
// it, feedWindow bytes at a time, so that a Data that fails stops the
// scan in a long line without reading the rest of it.
func NewBytesWith(b []byte, o Options) *Scanner {
	o.Keep = true
	return &Scanner{buf: b, eof: true, o: o, feedLine: -1}
}

// feedWindow is how far a scan over bytes (NewBytesWith) looks for a line's
// end before it hands Options.Data what it has passed of a data line.
const feedWindow = 256 << 10

// Raw returns every byte read (with Keep; else the current event's).
func (s *Scanner) Raw() []byte { return s.buf }

// Dispatched returns the number of events dispatched so far.
func (s *Scanner) Dispatched() int { return s.n }

// Unfinished reports whether the stream ended inside an event: after a
// field line with no blank line after it.
func (s *Scanner) Unfinished() bool { return s.partial }

// fill reads more of the stream; keepFrom is the first index of buf still
// needed without Keep.
func (s *Scanner) fill(keepFrom int) int {
	if !s.o.Keep && keepFrom > 0 {
		n := copy(s.buf, s.buf[keepFrom:])
		s.buf = s.buf[:n]
		s.base += int64(keepFrom)
		s.pos -= keepFrom
		return keepFrom
	}
	if s.r == nil {
		s.eof = true
		return 0
	}
	if cap(s.buf)-len(s.buf) < 4<<10 {
		n := 2*cap(s.buf) + 8<<10
		if cap(s.buf) == 0 && s.o.Size > 0 {
			n = int(min(s.o.Size, 1<<20)) + 4<<10 // room to read the end
		}
		nb := make([]byte, len(s.buf), n)
		copy(nb, s.buf)
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err == io.EOF {
		s.eof = true
	} else if err != nil {
		s.err = err
	}
	return 0
}

// line reads the next line: its bounds in buf (without the line end), or
// ok false at the end of the stream. An unfinished last line is a line.
func (s *Scanner) line(evStart *int) (start, end int, ok bool) {
	bom := []byte{0xEF, 0xBB, 0xBF}
	searched := 0
	for {
		if s.err != nil {
			return 0, 0, false
		}
		avail := s.buf[s.pos:]
		switch {
		case s.skipLF && len(avail) > 0:
			if avail[0] == '\n' {
				s.pos++
			}
			s.skipLF = false
			continue
		case !s.started && (len(avail) >= 3 || s.eof || !bytes.HasPrefix(bom, avail)):
			s.started = true
			if bytes.HasPrefix(avail, bom) {
				s.pos += 3
			}
			continue
		case s.started && !s.skipLF:
			win := avail[searched:]
			if s.r == nil && s.o.Data != nil && len(win) > feedWindow {
				win = win[:feedWindow] // over bytes: hand a long line over as it is reached
			}
			if i := lineEnd(win); i >= 0 {
				start, end = s.pos, s.pos+searched+i
				s.lineNo++
				s.pos = end + 1
				if s.buf[end] == '\r' {
					if end+1 < len(s.buf) {
						if s.buf[end+1] == '\n' {
							s.pos++
						}
					} else {
						s.skipLF = true
					}
				}
				if s.over(s.pos, *evStart) {
					return 0, 0, false
				}
				return start, end, true
			}
			if searched += len(win); searched < len(avail) {
				s.feedPartial(s.pos + searched)
				continue // (s.err ends it)
			}
			if s.eof && len(avail) > 0 {
				start, end = s.pos, len(s.buf)
				s.pos = end
				s.lineNo++
				return start, end, true
			}
		}
		if s.eof {
			return 0, 0, false
		}
		if s.over(len(s.buf), *evStart) { // all of it the current event's
			return 0, 0, false
		}
		if s.o.Data != nil && s.started && !s.skipLF {
			s.feedPartial(len(s.buf))
		}
		*evStart -= s.fill(*evStart)
	}
}

// lineEnd returns the index of the first CR or LF in b, or -1: two
// searches for one byte each (LF first, then CR only before it), which
// run many bytes at a time where a search for either byte runs one.
func lineEnd(b []byte) int {
	i := bytes.IndexByte(b, '\n')
	before := b
	if i >= 0 {
		before = b[:i]
	}
	if j := bytes.IndexByte(before, '\r'); j >= 0 {
		return j
	}
	return i
}

// feedPartial hands Options.Data what has arrived of the value of the
// line being read (from buf[pos:end], its end not yet read) when the line
// is a data line, so that a long line is checked as it arrives.
func (s *Scanner) feedPartial(end int) {
	at := s.base + int64(s.pos)
	if s.feedLine != at {
		line := s.buf[s.pos:]
		// "data:" and the byte after it, which says whether a space
		// (not part of the value) follows the colon.
		if len(line) < 6 || string(line[:5]) != "data:" {
			return
		}
		v := int64(5)
		if line[5] == ' ' {
			v = 6
		}
		s.feedLine, s.feedValue, s.fed = at, at+v, at+v
		s.beginData()
	}
	if e := s.base + int64(end); e > s.fed {
		s.write(s.buf[s.fed-s.base : end])
		s.fed = e
	}
}

// write hands p to Options.Data; a failure ends the stream.
func (s *Scanner) write(p []byte) {
	if s.err != nil {
		return
	}
	if _, err := s.o.Data.Write(p); err != nil {
		s.err, s.dataErr = err, true
	}
}

// beginData tells Options.Data that a data line begins: a new event's
// data, or LF between two lines' values.
func (s *Scanner) beginData() {
	if s.dataLines == 0 {
		s.o.Data.Reset()
	} else {
		s.write(lf)
	}
	s.dataLines++
}

var lf = []byte{'\n'}

// over reports (and records) whether the bytes held through buf[:to]
// pass Options.Max.
func (s *Scanner) over(to, evStart int) bool {
	held := int64(to - evStart)
	if s.o.Keep {
		held = s.base + int64(to)
	}
	if s.o.Max > 0 && held > s.o.Max {
		s.err = &TooLargeError{s.o.Max}
		return true
	}
	return false
}

// Events returns the stream's events in order. A read error or a stream
// past Options.Max ends it with that error; the end of the stream ends it
// without one. When Options.Data fails, its error comes with the event
// being read: its N, Type, ID and data Lines so far (the last one ending
// where the scan stopped), no Data or Raw.
func (s *Scanner) Events() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for {
			ev, ok := s.next()
			if !ok {
				if s.err != nil {
					yield(ev, s.err)
				}
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

func (s *Scanner) next() (Event, bool) {
	var ev Event
	var data []byte
	var multi []byte
	// The first data line's value, as offsets in the stream: a read may
	// move the bytes held (without Keep) before the event ends.
	var dataAt, dataEnd int64
	hasData := false
	evStart := s.pos
	dispatch := func(end int) (Event, bool) {
		switch {
		case multi != nil:
			data = multi
		case hasData:
			data = s.buf[dataAt-s.base : dataEnd-s.base]
		}
		s.n++
		ev.N = s.n
		ev.Data = data
		ev.Raw = s.buf[evStart:end]
		ev.Start, ev.End = s.base+int64(evStart), s.base+int64(end)
		if !s.o.Keep {
			ev.Data = bytes.Clone(ev.Data)
			ev.Raw = bytes.Clone(ev.Raw)
		}
		s.partial = false
		s.dataLines = 0
		return ev, true
	}
	// cut is the event read when Options.Data failed, with the line whose
	// value was being handed over.
	cut := func() (Event, bool) {
		ev.N = s.n + 1
		if s.feedLine >= 0 {
			ev.Lines = append(ev.Lines, Line{No: s.lineNo + 1, Start: s.feedLine, Value: s.feedValue, End: s.fed})
		}
		return ev, false
	}
	for {
		start, end, ok := s.line(&evStart)
		if !ok {
			if s.dataErr {
				return cut()
			}
			if hasData && s.err == nil {
				ev.Unended = true
				return dispatch(len(s.buf))
			}
			return Event{}, false
		}
		line := s.buf[start:end]
		if len(line) == 0 {
			if hasData {
				return dispatch(s.pos)
			}
			ev, data, multi, hasData = Event{}, nil, nil, false
			s.partial = false
			s.dataLines = 0
			evStart = s.pos
			continue
		}
		s.partial = true
		if line[0] == ':' {
			continue
		}
		field, value, vstart := line, []byte(nil), end
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value, vstart = line[:i], line[i+1:], start+i+1
			if len(value) > 0 && value[0] == ' ' {
				value, vstart = value[1:], vstart+1
			}
		}
		switch string(field) {
		case "event":
			ev.Type = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.ID = string(value)
			}
		case "data":
			ev.Lines = append(ev.Lines, Line{No: s.lineNo, Start: s.base + int64(start), Value: s.base + int64(vstart), End: s.base + int64(end)})
			if s.o.Data != nil {
				if s.feedLine = s.endData(start, vstart, end); s.dataErr {
					return cut()
				}
			}
			switch {
			case !hasData:
				dataAt, dataEnd = s.base+int64(vstart), s.base+int64(end)
			case multi == nil:
				first := s.buf[dataAt-s.base : dataEnd-s.base]
				multi = append(append(append([]byte(nil), first...), '\n'), value...)
			default:
				multi = append(append(multi, '\n'), value...)
			}
			hasData = true
		}
	}
}

// endData hands Options.Data the rest of the value of the data line read
// at buf[start:end], its value from vstart: all of it, unless part went
// as it arrived. It returns -1, for no line being handed over.
func (s *Scanner) endData(start, vstart, end int) int64 {
	from := vstart
	if s.feedLine == s.base+int64(start) {
		from = int(s.fed - s.base)
	} else {
		s.beginData()
	}
	if end > from {
		s.write(s.buf[from:end])
	}
	return -1
}
