package walk_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/walktest"
	"github.com/readmeter/readmeter/walk"
)

// benchBody is a 2 KiB JSON answer with database times in it, so the
// full-width normaliser has work to do.
var benchBody = func() []byte {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := 0; b.Len() < 2000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"seq":%d,"kind":"post","summary":"a post in the space","at":"2026-10-02T07:57:4%d.1+00:00"}`, i, i%10)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}()

func benchServer(b *testing.B) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(benchBody)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkBareRoundTrip is one GET on loopback, its body read whole: the
// floor a walk step stands on.
func BenchmarkBareRoundTrip(b *testing.B) {
	srv := benchServer(b)
	c := &http.Client{}
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		resp, err := c.Get(srv.URL + "/v1/mailbox?after=3")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadAll(resp.Body); err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}

// BenchmarkStep is the same GET as a counted walk step: templates filled,
// the answer asserted on, a value kept, normalised (full-width times) and
// added to the ledger. A run of 20 steps is timed; ns/op is per step.
func BenchmarkStep(b *testing.B) {
	srv := benchServer(b)
	const steps = 20
	var spec strings.Builder
	spec.WriteString("walk: bench\nnormalize: [ full-width-times ]\nvars: { after: \"3\" }\nsteps:\n")
	for i := range steps {
		fmt.Fprintf(&spec, "  - part: mailbox %d\n    http: GET /v1/mailbox\n    query: { after: \"{{after}}\" }\n    expect: { status: 200, json: { items.0.kind: post } }\n    keep: { seq: items.0.seq }\n", i)
	}
	p := filepath.Join(b.TempDir(), "bench.yaml")
	if err := os.WriteFile(p, []byte(spec.String()), 0o666); err != nil {
		b.Fatal(err)
	}
	s, err := walk.Load(p)
	if err != nil {
		b.Fatal(err)
	}
	o := walk.Options{BaseURL: srv.URL, HTTPClient: &http.Client{}}
	b.SetBytes(int64(len(benchBody)))
	b.ResetTimer()
	for i := 0; i < b.N; i += steps {
		res, err := walk.Run(context.Background(), s, o)
		if err != nil {
			b.Fatal(err)
		}
		if res.Ledger.Bytes() <= int64(steps*len(benchBody)) {
			b.Fatalf("counted %d bytes: the times were not padded", res.Ledger.Bytes())
		}
	}
}

func benchJobs(b *testing.B, jobs int) {
	srv := walktest.Start()
	b.Cleanup(srv.Close)
	const walks = 16
	var specs []*walk.Spec
	for range walks {
		s, err := walk.Load("testdata/start.yaml")
		if err != nil {
			b.Fatal(err)
		}
		specs = append(specs, s)
	}
	o := walk.Options{BaseURL: srv.URL}
	for b.Loop() {
		for _, oc := range walk.RunAll(context.Background(), specs, o, jobs, 1) {
			if oc.Err != nil {
				b.Fatal(oc.Err)
			}
		}
	}
	b.ReportMetric(walks, "walks/op")
}

// BenchmarkJobs1 is the wall time of 16 walks (a KEY set-up and 7 counted
// steps each) run one at a time, as --jobs 1.
func BenchmarkJobs1(b *testing.B) { benchJobs(b, 1) }

// BenchmarkJobsDefault is the same 16 walks run as --jobs defaults: the
// CPU count at a time.
func BenchmarkJobsDefault(b *testing.B) { benchJobs(b, runtime.NumCPU()) }
