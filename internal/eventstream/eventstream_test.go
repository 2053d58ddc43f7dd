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
					s = eventstream.NewBytes([]byte(tc.in))
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
