package mcpwire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// errTooLarge is the cause when an answer passes the byte limit.
type tooLargeError struct{ max int64 }

func (e tooLargeError) Error() string {
	return fmt.Sprintf("answer larger than the limit of %d bytes", e.max)
}

// streamEvent is one dispatched event of an event stream.
type streamEvent struct {
	typ  string
	id   string
	data []byte
	raw  []byte // the event's bytes, from its first line through the blank line
}

// eventReader reads an event stream (text/event-stream) line by line,
// keeping every byte consumed. Lines end in "\n" or "\r\n".
type eventReader struct {
	br    *bufio.Reader
	raw   []byte // every byte consumed (when keep is set), else the current event's
	keep  bool
	max   int64 // the limit on raw's length
	total int64
	n     int // events dispatched
}

func newEventReader(r io.Reader, max int64, keep bool) *eventReader {
	return &eventReader{br: bufio.NewReaderSize(r, 8<<10), max: max, keep: keep}
}

// next returns the next event that carries data, skipping comments and
// data-less events (a priming event with only an id). At the end of the
// stream it returns io.EOF, or io.ErrUnexpectedEOF when an event was cut.
func (r *eventReader) next() (*streamEvent, error) {
	var ev streamEvent
	// data is the event's data: a slice of the stream's bytes when it is
	// one line (the usual case), else joined in multi.
	var data []byte
	var multi *bytes.Buffer
	hasData, partial := false, false
	start := len(r.raw)
	if !r.keep {
		// A long-lived stream: the limit is per event.
		r.raw = r.raw[:0]
		r.total = 0
		start = 0
	}
	for {
		lineStart := len(r.raw)
		for {
			chunk, err := r.br.ReadSlice('\n')
			r.total += int64(len(chunk))
			if r.max > 0 && r.total > r.max {
				return nil, tooLargeError{r.max}
			}
			r.raw = append(r.raw, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if err == io.EOF {
					if partial || len(r.raw) > lineStart {
						return nil, io.ErrUnexpectedEOF
					}
					return nil, io.EOF
				}
				return nil, err
			}
			break
		}
		line := r.raw[lineStart:]
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			// An event whose data is empty (a priming event with an id)
			// is not dispatched, as the event-stream rules say.
			if multi != nil {
				data = multi.Bytes()
			}
			if hasData && len(data) > 0 {
				r.n++
				ev.data, ev.raw = data, r.raw[start:]
				if !r.keep { // r.raw is reused by the next call
					ev.data = bytes.Clone(data)
					ev.raw = bytes.Clone(ev.raw)
				}
				return &ev, nil
			}
			// An event without data is not dispatched; start afresh.
			ev, hasData, partial = streamEvent{}, false, false
			data, multi = nil, nil
			if !r.keep {
				r.raw = r.raw[:0]
			}
			start = len(r.raw)
			continue
		}
		partial = true
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			value = bytes.TrimPrefix(value, []byte(" "))
		}
		switch string(field) {
		case "event":
			ev.typ = string(value)
		case "data":
			switch {
			case !hasData:
				data = value
			case multi == nil:
				multi = new(bytes.Buffer)
				multi.Write(data)
				fallthrough
			default:
				multi.WriteByte('\n')
				multi.Write(value)
			}
			hasData = true
		case "id":
			ev.id = string(value)
		}
	}
}

// errStreamEnded is the cause when a stream ends before the answer.
func errStreamEnded(events int, cut bool) error {
	s := "the event stream ended before the answer"
	if cut {
		s = "the event stream ended in the middle of an event, before the answer"
	}
	switch events {
	case 0:
		s += " (no event with data)"
	case 1:
		s += " (1 event read)"
	default:
		s += fmt.Sprintf(" (%d events read)", events)
	}
	return errors.New(s)
}
