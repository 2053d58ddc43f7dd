package mcpwire_test

import (
	"bytes"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/internal/oddserver"
	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/mcpwire"
)

// TestStreamsCountedAsFetchCounts asks Node's fetch for every odd event
// stream (line ends, trailing bytes, codings, a BOM) and wants Raw, decoded
// as the ledger decodes it, to be the text fetch read, byte for byte.
func TestStreamsCountedAsFetchCounts(t *testing.T) {
	srv := httptest.NewServer(oddserver.Handler())
	defer srv.Close()
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	var reqs []nodeoracle.FetchRequest
	streams := oddserver.Streams()
	for _, st := range streams {
		reqs = append(reqs, nodeoracle.FetchRequest{URL: srv.URL + "/mcp/" + st.Name, Method: "POST", Body: ping,
			Headers: map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}})
	}
	node := nodeoracle.Fetch(t, reqs...)
	for i, st := range streams {
		c := mcpwire.NewHTTP(reqs[i].URL, mcpwire.HTTPOptions{})
		r, err := c.Request(ctx(t), "ping", nil) // the client's first id is 1
		if err != nil {
			t.Errorf("%s: %v", st.Name, err)
			continue
		}
		got, _ := jsonjs.Decode(r.Raw)
		if want := node[i]; want.Err != "" || !bytes.Equal(got, want.Text) {
			t.Errorf("%s: Raw %d bytes %q\nNode's fetch %d bytes %q %s", st.Name, len(got), got, want.Bytes, want.Text, want.Err)
		}
		if !strings.Contains(string(r.Message), `"id":1`) {
			t.Errorf("%s: Message %q", st.Name, r.Message)
		}
	}
}

// TestStreamCountIgnoresTiming sends the same bytes with different delays
// between chunks, and with the stream held open after its last chunk: the
// count is every byte when the stream ends within the grace time, and
// exactly through the answering event when it does not, however many
// heartbeats came in between.
func TestStreamCountIgnoresTiming(t *testing.T) {
	srv := httptest.NewServer(oddserver.Handler())
	defer srv.Close()
	const grace = 300 * time.Millisecond
	count := func(query string) (string, bool) {
		t.Helper()
		c := mcpwire.NewHTTP(srv.URL+"/mcp/heartbeats?"+query, mcpwire.HTTPOptions{StreamGrace: grace})
		r, err := c.Request(ctx(t), "ping", nil)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return string(r.Raw), r.Open
	}
	whole, open := count("delay=0s")
	if open || !strings.HasSuffix(whole, ": ping\n\n: ping\n\n: ping\n\n") {
		t.Fatalf("at once: Raw %q, Open %v", whole, open)
	}
	for _, q := range []string{"delay=1ms", "delay=20ms", "delay=60ms"} {
		if got, open := count(q); got != whole || open {
			t.Errorf("%s: Raw %q, Open %v; want %q as at once", q, got, open, whole)
		}
	}
	answerOnly := whole[:strings.Index(whole, "\n\n")+2]
	for _, q := range []string{"delay=0s&hold=1", "delay=50ms&hold=1", "delay=200ms&hold=1", "delay=400ms&hold=1"} {
		if got, open := count(q); got != answerOnly || !open {
			t.Errorf("%s: Raw %q, Open %v; want %q and Open", q, got, open, answerOnly)
		}
	}
}

// TestStdioCRLF: a server that ends its lines in CRLF is read as the SDKs
// read it: the CR is not part of the answer.
func TestStdioCRLF(t *testing.T) {
	const script = `read line; id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/'); printf '{"jsonrpc":"2.0","id":%s,"result":{}}\r\n' "$id"; read rest`
	c, err := mcpwire.NewStdio(ctx(t), []string{"sh", "-c", script}, mcpwire.StdioOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Request(ctx(t), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"result":{}}`; string(r.Raw) != want {
		t.Errorf("Raw = %q, want %q", r.Raw, want)
	}
}
