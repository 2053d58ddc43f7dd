package eventstream_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/readmeter/readmeter/internal/eventstream"
)

type got struct {
	Events     []string // type|id|data
	Unfinished bool
	Err        string
}

func scan(s *eventstream.Scanner) got {
	var g got
	for ev, err := range s.Events() {
		if err != nil {
			g.Err = err.Error()
			break
		}
		g.Events = append(g.Events, ev.Type+"|"+ev.ID+"|"+string(ev.Data))
	}
	g.Unfinished = s.Unfinished()
	return g
}

func TestEvents(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     got
	}{
		{"lf", "data: a\n\ndata: b\n\n", got{Events: []string{"||a", "||b"}}},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", got{Events: []string{"||a", "||b"}}},
		{"cr", "data: a\r\rdata: b\r\r", got{Events: []string{"||a", "||b"}}},
		{"mixed", "event: m\rid: 7\r\ndata: a\ndata:b\r\n\n", got{Events: []string{"m|7|a\nb"}}},
		{"bom", "\uFEFFdata: a\n\n", got{Events: []string{"||a"}}},
		{"comment and no data", ": hi\nid: 1\n\ndata: x\n\n", got{Events: []string{"||x"}}},
		{"empty data dispatches", "data:\n\n", got{Events: []string{"||"}}},
		{"no colon", "data\ndata\n\n", got{Events: []string{"||\n"}}},
		{"one space only", "data:  two\n\n", got{Events: []string{"|| two"}}},
		{"unknown field", "retry: 5\nfoo: bar\ndata: a\n\n", got{Events: []string{"||a"}}},
		{"id with NUL ignored", "id: a\x00b\ndata: a\n\n", got{Events: []string{"||a"}}},
		{"last event without blank line", "data: a\n\ndata: b\n", got{Events: []string{"||a", "||b"}}},
		{"last line without end", "data: a\n\ndata: b", got{Events: []string{"||a", "||b"}}},
		{"trailing comment", "data: a\n\n: bye\n", got{Events: []string{"||a"}, Unfinished: true}},
		{"trailing id", "data: a\n\nid: 9", got{Events: []string{"||a"}, Unfinished: true}},
		{"empty", "", got{}},
	} {
		for _, split := range []string{"whole", "bytes", "reader", "onebyte"} {
			t.Run(tc.name+"/"+split, func(t *testing.T) {
				var s *eventstream.Scanner
				switch split {
				case "whole":
					s = eventstream.NewBytesWith([]byte(tc.in), eventstream.Options{})
				case "bytes":
					s = eventstream.New(strings.NewReader(tc.in), eventstream.Options{})
				case "reader":
					s = eventstream.New(strings.NewReader(tc.in), eventstream.Options{Keep: true})
				case "onebyte":
					s = eventstream.New(iotest.OneByteReader(strings.NewReader(tc.in)), eventstream.Options{Keep: true})
				}
				g := scan(s)
				if diff := cmp.Diff(tc.want, g); diff != "" {
					t.Errorf("%q: (-want +got)\n%s", tc.in, diff)
				}
				if split != "bytes" && string(s.Raw()) != tc.in {
					t.Errorf("Raw = %q, want every byte %q", s.Raw(), tc.in)
				}
				if s.Offset() != int64(len(tc.in)) {
					t.Errorf("Offset = %d, want %d", s.Offset(), len(tc.in))
				}
			})
		}
	}
}

// TestOffsets checks that Raw, Start, End and each data line's offsets
// point at the stream's bytes, for every split of the input.
func TestOffsets(t *testing.T) {
	in := ": c\r\nevent: e\r\ndata: {\"a\":1}\r\ndata:2\r\n\r\nid: 3\rdata: x\r\r"
	for chunk := 1; chunk <= len(in); chunk++ {
		s := eventstream.New(&chunked{s: in, n: chunk}, eventstream.Options{Keep: true})
		var lines []string
		var raws []string
		for ev, err := range s.Events() {
			if err != nil {
				t.Fatal(err)
			}
			if string(ev.Raw) != in[ev.Start:ev.End] {
				t.Errorf("chunk %d: Raw %q, stream at %d..%d %q", chunk, ev.Raw, ev.Start, ev.End, in[ev.Start:ev.End])
			}
			raws = append(raws, string(ev.Raw))
			for _, l := range ev.Lines {
				lines = append(lines, fmt.Sprintf("%d:%s", l.No, in[l.Value:l.End]))
			}
		}
		want := []string{"3:{\"a\":1}", "4:2", "7:x"}
		if diff := cmp.Diff(want, lines); diff != "" {
			t.Fatalf("chunk %d: lines (-want +got)\n%s", chunk, diff)
		}
		// A CRLF split by a read ends its event at the CR: its LF opens
		// the next event's bytes. Together they are the stream.
		if strings.Join(raws, "") != in || len(raws) != 2 {
			t.Fatalf("chunk %d: raws %q", chunk, raws)
		}
	}
}

type chunked struct {
	s string
	n int
}

func (c *chunked) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	n := min(c.n, len(p), len(c.s))
	copy(p, c.s[:n])
	c.s = c.s[n:]
	return n, nil
}

// TestCRDispatchesAtOnce checks that an event ending in bare CRs is
// dispatched without waiting for the next byte.
func TestCRDispatchesAtOnce(t *testing.T) {
	pr, pw := io.Pipe()
	go pw.Write([]byte("data: a\r\r"))
	s := eventstream.New(pr, eventstream.Options{Keep: true})
	for ev, err := range s.Events() {
		if err != nil || string(ev.Data) != "a" {
			t.Fatalf("%q %v", ev.Data, err)
		}
		break // reaching here at all is the test: the pipe is still open
	}
	pw.Close()
}

func TestMax(t *testing.T) {
	in := strings.Repeat("data: 0123456789\n\n", 100)
	s := eventstream.New(strings.NewReader(in), eventstream.Options{Keep: true, Max: 100})
	g := scan(s)
	var tl *eventstream.TooLargeError
	if g.Err == "" {
		t.Fatal("kept stream past Max: no error")
	}
	// Without Keep the bound is per event: the stream reads to its end.
	s = eventstream.New(strings.NewReader(in), eventstream.Options{Max: 100})
	if g := scan(s); g.Err != "" || len(g.Events) != 100 {
		t.Fatalf("per event: %d events, %s", len(g.Events), g.Err)
	}
	s = eventstream.New(strings.NewReader("data: "+strings.Repeat("x", 200)+"\n\n"), eventstream.Options{Max: 100})
	for _, err := range s.Events() {
		if !errors.As(err, &tl) {
			t.Fatalf("one event past Max: %v", err)
		}
	}
	_ = bytes.Clone
}

// record is an Options.Data that keeps what it was handed, an event's
// data per Reset.
type record struct{ data [][]byte }

func (r *record) Reset() { r.data = append(r.data, []byte{}) }

func (r *record) Write(p []byte) (int, error) {
	r.data[len(r.data)-1] = append(r.data[len(r.data)-1], p...)
	return len(p), nil
}

// TestData checks that every split of the input, with and without Keep,
// gives the events of the whole input read at once (without Keep, a read
// that moves the bytes held must not move an event's data), and that
// Options.Data is handed each event's data, exactly Event.Data, by the
// time the event is dispatched.
func TestData(t *testing.T) {
	ins := []string{
		"data: a\n\ndata: b\n\n", "data: a\r\n\r\ndata: b\r\n\r\n", "data: a\r\rdata: b\r\r",
		"event: m\rid: 7\r\ndata: a\ndata:b\r\n\n", "\uFEFFdata: a\n\n", ": hi\nid: 1\n\ndata: x\n\n",
		"data:\n\n", "data\ndata\n\n", "data:  two\n\n", "data:x\ndata\ndata: \ndata: {\"id\":1}\n\n",
		"id: 1\n\ndata: a\n\ndata: b\n", "data: a\n\ndata: b", "data: a\n\n: bye\n",
		"data: " + strings.Repeat(`{"k":"vvvvvvvv"}`, 20) + "\r\ndata:" + strings.Repeat("w", 50) + "\r\n\r\nid: 3\rdata: x\r\r",
	}
	for _, in := range ins {
		want := scan(eventstream.NewBytesWith([]byte(in), eventstream.Options{})).Events
		for chunk := 1; chunk <= len(in); chunk++ {
			for _, keep := range []bool{true, false} {
				var rec record
				// With Keep, a buffer made for the whole stream at once.
				size := int64(0)
				if keep {
					size = int64(len(in))
				}
				s := eventstream.New(&chunked{s: in, n: chunk}, eventstream.Options{Keep: keep, Data: &rec, Size: size})
				n := 0
				for ev, err := range s.Events() {
					if err != nil {
						t.Fatal(err)
					}
					n++
					if n > len(want) || want[n-1] != ev.Type+"|"+ev.ID+"|"+string(ev.Data) {
						t.Fatalf("%q in %d-byte reads, keep %v: event %d: %q|%q|%q, the whole stream read at once %q", in, chunk, keep, n, ev.Type, ev.ID, ev.Data, want)
					}
					if len(rec.data) != n || string(rec.data[n-1]) != string(ev.Data) {
						t.Fatalf("%q in %d-byte reads, keep %v: event %d: Data %q, handed over %q", in, chunk, keep, n, ev.Data, rec.data)
					}
				}
				if n != len(want) {
					t.Fatalf("%q in %d-byte reads, keep %v: %d events, want %d", in, chunk, keep, n, len(want))
				}
			}
		}
	}
}

// TestDataAsRead checks that a data line's value is handed over as it
// arrives, before its line ends.
func TestDataAsRead(t *testing.T) {
	value := strings.Repeat("0123456789", 30)
	in := "event: message\ndata: " + value + "\n\n"
	var rec record
	r := &chunked{s: in, n: 16}
	handed := func() int {
		if len(rec.data) == 0 {
			return 0
		}
		return len(rec.data[0])
	}
	check := readFunc(func(p []byte) (int, error) {
		// Everything of the value read so far has been handed over.
		read := len(in) - len(r.s)
		start := len("event: message\ndata: ")
		if read-start > 0 && read < len(in)-2 && handed() != read-start {
			t.Fatalf("after %d bytes read, %d of the value handed over, want %d", read, handed(), read-start)
		}
		return r.Read(p)
	})
	s := eventstream.New(check, eventstream.Options{Keep: true, Data: &rec})
	for ev, err := range s.Events() {
		if err != nil || string(ev.Data) != value || string(rec.data[0]) != value {
			t.Fatalf("%q %v", ev.Data, err)
		}
	}
}

// TestBytesData checks that a scan over bytes with Options.Data hands
// every event's data over, exactly Event.Data, long lines (past the
// window it hands them over in) included, and gives the events NewBytes
// gives.
func TestBytesData(t *testing.T) {
	long := strings.Repeat("0123456789", 60<<10) // 600 KiB: three windows
	for _, in := range []string{
		"data: a\n\ndata: b\n\n", "data: " + long + "\n\n", "event: m\r\ndata:" + long + "\r\ndata: " + long + "\r\r",
		"data: " + long, ": " + long + "\ndata: x\n\n", "\uFEFFdata: " + long + "\r\n\r\ndata: y\n\n", "data: " + long[:1<<18-6] + "\r\n\n",
	} {
		want := scan(eventstream.NewBytesWith([]byte(in), eventstream.Options{})).Events
		var rec record
		n := 0
		for ev, err := range eventstream.NewBytesWith([]byte(in), eventstream.Options{Data: &rec}).Events() {
			if err != nil {
				t.Fatal(err)
			}
			n++
			if n > len(want) || want[n-1] != ev.Type+"|"+ev.ID+"|"+string(ev.Data) {
				t.Fatalf("%.40q: event %d differs from NewBytes's", in, n)
			}
			if len(rec.data) != n || string(rec.data[n-1]) != string(ev.Data) {
				t.Fatalf("%.40q: event %d: Data handed over %d bytes, want %d", in, n, len(rec.data[len(rec.data)-1]), len(ev.Data))
			}
		}
		if n != len(want) {
			t.Fatalf("%.40q: %d events, want %d", in, n, len(want))
		}
	}
}

// refuser is an Options.Data whose Write fails once it has been handed
// bytes past after.
type refuser struct {
	after, got int
}

var errRefused = errors.New("refused")

func (r *refuser) Reset() {}

func (r *refuser) Write(p []byte) (int, error) {
	r.got += len(p)
	if r.got > r.after {
		return 0, errRefused
	}
	return len(p), nil
}

// TestDataRefuses: a Write that fails ends the stream with its error,
// over bytes within a window of where it failed, and over a reader.
func TestDataRefuses(t *testing.T) {
	in := "data: a\n\ndata: " + strings.Repeat("x", 4<<20) + "\n\ndata: b\n\n"
	for _, tc := range []struct {
		name string
		s    func(d eventstream.DataWriter) *eventstream.Scanner
	}{
		{"bytes", func(d eventstream.DataWriter) *eventstream.Scanner {
			return eventstream.NewBytesWith([]byte(in), eventstream.Options{Data: d})
		}},
		{"reader", func(d eventstream.DataWriter) *eventstream.Scanner {
			return eventstream.New(&chunked{s: in, n: 4096}, eventstream.Options{Data: d})
		}},
	} {
		r := &refuser{after: 100}
		var events []string
		var got error
		var cut eventstream.Event
		for ev, err := range tc.s(r).Events() {
			if err != nil {
				got, cut = err, ev
				break
			}
			events = append(events, string(ev.Data))
		}
		if got != errRefused || len(events) != 1 || events[0] != "a" {
			t.Errorf("%s: events %q, error %v", tc.name, events, got)
		}
		// The event cut short comes with the error: its number, and its
		// data line so far, from where its value begins.
		if l := cut.Lines; cut.N != 2 || len(l) != 1 || l[0].No != 3 || l[0].Start != 9 || l[0].Value != 15 || l[0].End <= 115 || l[0].End > 15+4<<20 {
			t.Errorf("%s: the event cut short: %+v", tc.name, cut)
		}
		if tc.name == "bytes" && r.got > 1<<20 {
			t.Errorf("%s: %d bytes handed over before the scan stopped", tc.name, r.got)
		}
	}
}

type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"data: {}\n\n", true},
		{"event: message\ndata: {}\n\n", true},
		{": ping\n", true},
		{"id: 1\n", true},
		{"retry: 10\n", true},
		{"\uFEFFdata: {}\n\n", true},
		{"{\"jsonrpc\":\"2.0\"}", false},
		{" data: {}", false},
		{"database: x", false},
		{"", false},
	} {
		if got := eventstream.Sniff([]byte(tc.in)); got != tc.want {
			t.Errorf("Sniff(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
