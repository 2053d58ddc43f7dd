package fetch_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/readmeter/readmeter/internal/fetch"
	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/internal/oddserver"
	"github.com/readmeter/readmeter/jsonjs"
)

// get reads url as the toolkit does: fetch's Accept-Encoding, Body, then
// the UTF-8 decoding of the ledger.
func get(t *testing.T, method, url string) ([]byte, error) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	fetch.Prepare(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := fetch.Body(resp)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return nil, err
	}
	text, _ := jsonjs.Decode(b)
	return text, nil
}

// TestBodiesAsNodeFetchReadsThem reads every odd answer with Node's fetch
// and with the toolkit, GET and HEAD, and wants the same text byte for
// byte.
func TestBodiesAsNodeFetchReadsThem(t *testing.T) {
	srv := httptest.NewServer(oddserver.Handler())
	defer srv.Close()
	var reqs []nodeoracle.FetchRequest
	for _, b := range oddserver.Bodies() {
		for _, m := range []string{"GET", "HEAD"} {
			reqs = append(reqs, nodeoracle.FetchRequest{URL: srv.URL + "/body/" + b.Name, Method: m})
		}
	}
	node := nodeoracle.Fetch(t, reqs...)
	for i, rq := range reqs {
		got, err := get(t, rq.Method, rq.URL)
		want := node[i]
		if want.Err != "" {
			if err == nil {
				t.Errorf("%s %s: read %q, Node's fetch threw %s", rq.Method, rq.URL, got, want.Err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v; Node's fetch read %d bytes", rq.Method, rq.URL, err, want.Bytes)
			continue
		}
		if !bytes.Equal(got, want.Text) || int64(len(got)) != want.Bytes {
			t.Errorf("%s %s: read %d bytes %q, Node's fetch %d bytes %q", rq.Method, rq.URL, len(got), got, want.Bytes, want.Text)
		}
	}
}

func TestPrepare(t *testing.T) {
	for _, tc := range []struct{ url, rng, own, want string }{
		{"http://x/", "", "", "gzip, deflate"},
		{"https://x/", "", "", "br, gzip, deflate"},
		{"https://x/", "", "gzip", "gzip"},
		{"http://x/", "bytes=0-1", "", "identity"},
	} {
		req, _ := http.NewRequest("GET", tc.url, nil)
		if tc.rng != "" {
			req.Header.Set("Range", tc.rng)
		}
		if tc.own != "" {
			req.Header.Set("Accept-Encoding", tc.own)
		}
		fetch.Prepare(req)
		if got := req.Header.Get("Accept-Encoding"); got != tc.want {
			t.Errorf("%s range %q own %q: Accept-Encoding %q, want %q", tc.url, tc.rng, tc.own, got, tc.want)
		}
	}
}

func TestTooManyCodings(t *testing.T) {
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Encoding": {"gzip,gzip,gzip,gzip,gzip,gzip"}}, Body: io.NopCloser(nil)}
	if _, err := fetch.Body(resp); err == nil {
		t.Error("six codings: no error")
	}
}
