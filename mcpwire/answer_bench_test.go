package mcpwire

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// pieces reads b four kilobytes at a time, as a body arrives from a
// socket.
type pieces struct{ b []byte }

func (p *pieces) Read(dst []byte) (int, error) {
	if len(p.b) == 0 {
		return 0, io.EOF
	}
	n := copy(dst[:min(len(dst), 4096)], p.b)
	p.b = p.b[n:]
	return n, nil
}

// BenchmarkReadAnswer is the client's own work on a 16 KB JSON answer,
// without the network, in 4 KB pieces: read plainly (what a bare POST
// does), read and then checked in a second pass (the client before), and
// checked while read (the client now, its buffer sized by the answer
// before, as in a run of requests); and the same answer as an event
// stream, read plainly and by the client.
func BenchmarkReadAnswer(b *testing.B) {
	var tools []string
	for i := range 40 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%d","description":"%s","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"What to look for."}}}}`, i, strings.Repeat("Reads a thing. ", 20)))
	}
	answer := []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[` + strings.Join(tools, ",") + `]}}`)
	id := gjson.Parse("1")
	m := &outgoing{id: id}
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		for b.Loop() {
			if _, err := io.ReadAll(&pieces{answer}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("check-after", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		for b.Loop() {
			raw, err := io.ReadAll(&pieces{answer})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := checkAnswer(bytes.TrimSpace(raw), m, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	stream := []byte("event: message\ndata: " + string(answer) + "\n\n")
	b.Run("stream-plain", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		for b.Loop() {
			if _, err := io.ReadAll(&pieces{stream}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stream-check-while-reading", func(b *testing.B) {
		b.SetBytes(int64(len(stream)))
		t := newHTTPTransport("http://localhost/", HTTPOptions{})
		for b.Loop() {
			r, err := t.readStream(&Response{}, io.NopCloser(nil), &pieces{stream}, m)
			if err != nil || len(r.Message) == 0 {
				b.Fatal(err)
			}
		}
	})
	b.Run("check-while-reading", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		t := newHTTPTransport("http://localhost/", HTTPOptions{})
		for b.Loop() {
			r, err := t.readJSON(&Response{}, &pieces{answer}, -1, m)
			if err != nil || len(r.Message) == 0 {
				b.Fatal(err)
			}
		}
	})
}
