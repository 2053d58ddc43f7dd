package mcpwire

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/jsonjs"
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
// without the network: read plainly (what a bare POST does), read and
// then checked in a second pass (the client before), and checked while
// read (the client now).
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
	b.Run("check-while-reading", func(b *testing.B) {
		b.SetBytes(int64(len(answer)))
		for b.Loop() {
			var chk jsonjs.Checker
			raw, err := readLimitedSize(&pieces{answer}, 1<<26, -1, &chk)
			if err != nil || !chk.Valid() {
				b.Fatal(err)
			}
			if _, err := checkEnvelope(envelopeOf(raw, chk.Members()), bytes.TrimSpace(raw), m, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
