package mcpwire_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/mcptest"
	"github.com/readmeter/readmeter/mcpwire"
)

// benchCases are the servers benchmarked: the Go SDK's stateless server
// listing mcptest.Tools (JSON or event-stream answers), and a fixed server
// whose answer costs it nothing, the client's worst case (a 16 KB answer).
var benchCases = []struct {
	name  string
	start func(b *testing.B) string
}{
	{"sdk-json", func(b *testing.B) string {
		return mcptest.Start(b, mcptest.Options{Stateless: true, JSONResponse: true})
	}},
	{"sdk-stream", func(b *testing.B) string { return mcptest.Start(b, mcptest.Options{Stateless: true}) }},
	{"fixed-json", func(b *testing.B) string { return benchServer(b, false).URL }},
	{"fixed-stream", func(b *testing.B) string { return benchServer(b, true).URL }},
}

// benchServer answers every POST with a tools/list result of about 16 KB,
// as JSON or as an event stream, echoing the request's id.
func benchServer(b *testing.B, stream bool) *httptest.Server {
	var tools []string
	for i := range 40 {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%d","description":"%s","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"What to look for."}}}}`, i, strings.Repeat("Reads a thing. ", 20)))
	}
	result := `"result":{"tools":[` + strings.Join(tools, ",") + `]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		id := gjson.GetBytes(body, "id").Raw
		if stream {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,%s}\n\n", id, result)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`, id, result)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkClientRequest is one tools/list through the client: the request
// built, the answer read, located and checked.
func BenchmarkClientRequest(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			c := mcpwire.NewHTTP(bc.start(b), mcpwire.HTTPOptions{})
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				r, err := c.Request(ctx, "tools/list", nil)
				if err != nil || len(r.Message) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPlainPOST is the same exchange with net/http alone: the same
// request body and headers, the answer read to the end.
func BenchmarkPlainPOST(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			url := bc.start(b)
			body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			b.ReportAllocs()
			for b.Loop() {
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || len(got) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOverhead pairs the two in one loop against the fixed server:
// each iteration sends one request through the client and one plain POST
// reading the body to the end (io.ReadAll), in alternating order, and
// times each, so that a change in the machine's load touches both alike.
// It reports each side's wall time and the client's overhead over the
// POST, and the same in CPU time (the whole process's, server included,
// on unix), which a loaded machine disturbs less.
func BenchmarkOverhead(b *testing.B) {
	for _, stream := range []bool{false, true} {
		name := "fixed-json"
		if stream {
			name = "fixed-stream"
		}
		b.Run(name, func(b *testing.B) {
			url := benchServer(b, stream).URL
			c := mcpwire.NewHTTP(url, mcpwire.HTTPOptions{})
			ctx := context.Background()
			body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			client := func() {
				r, err := c.Request(ctx, "tools/list", nil)
				if err != nil || len(r.Message) == 0 {
					b.Fatal(err)
				}
			}
			plain := func() {
				req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || len(got) == 0 {
					b.Fatal(err)
				}
			}
			// wall and CPU time of the client's requests (0) and the
			// plain POSTs (1)
			var wall, cpu [2]time.Duration
			side := [2]func(){client, plain}
			n := 0
			for b.Loop() {
				first := n % 2
				for _, k := range []int{first, 1 - first} {
					t0, c0 := time.Now(), cpuTime()
					side[k]()
					wall[k] += time.Since(t0)
					cpu[k] += cpuTime() - c0
				}
				n++
			}
			b.ReportMetric(float64(wall[0].Nanoseconds())/float64(n), "client-ns/req")
			b.ReportMetric(float64(wall[1].Nanoseconds())/float64(n), "post-ns/req")
			b.ReportMetric(100*(float64(wall[0])/float64(wall[1])-1), "overhead-%")
			if cpu[1] > 0 {
				b.ReportMetric(float64(cpu[0].Nanoseconds())/float64(n), "client-cpu-ns/req")
				b.ReportMetric(float64(cpu[1].Nanoseconds())/float64(n), "post-cpu-ns/req")
				b.ReportMetric(100*(float64(cpu[0])/float64(cpu[1])-1), "cpu-overhead-%")
			}
		})
	}
}
