package twin_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/twin"
)

// The tests below run the twin as users run it: twin.Start, on loopback,
// with its http.Server and limits, over real connections.

// served starts the twin as Start serves it and returns its base URL.
func served(t *testing.T) string {
	t.Helper()
	base, stop, err := twin.Start(twin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return base
}

// ownClient is a client of its own: one connection, kept alive, as one
// agent holds it. Its timeout bounds every answer, generously for a
// loaded two-core machine.
func ownClient() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: 30 * time.Second}
}

func TestStartBindsLoopback(t *testing.T) {
	base := served(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		t.Errorf("Start serves at %s, want a loopback address", base)
	}
}

// taskWalk is the first-task walk cut to what every agent does: register
// a KEY, open a work SPACE with a task, take the task, post its result,
// read the post back. It returns the SPACE.
func (w *walker) taskWalk() (space string) {
	owner, _, _ := w.login(nil)
	space = w.must(201, "POST", "/v1/spaces", owner, map[string]any{"kind": "work", "document": "How to work here."}).Get("name").String()
	w.must(201, "POST", "/v1/spaces/"+space+"/tasks", owner, map[string]any{"title": "The one task"})
	next := w.must(200, "POST", "/v1/spaces/"+space+"/tasks/next", owner, nil)
	w.check(next.Get("task.number").Int() == 1, "next: %s", next.Body)
	res := w.must(201, "POST", "/v1/spaces/"+space+"/posts", owner, map[string]any{"kind": "result", "body": "done", "task": map[string]int{"number": 1}})
	w.check(res.Get("task.state").String() == "done", "result: %s", res.Body)
	w.owner, w.post = owner, res.Get("post_id").String()
	got := w.must(200, "GET", "/v1/posts/"+w.post, owner, nil)
	w.check(got.Get("body").String() == "done", "the post read back: %s", got.Body)
	return space
}

// TestThousandClients runs the task walk from 1,000 clients at once, each
// on a connection of its own: every answer is the one the walk expects
// (no 5xx, no refused connection), and afterwards every post written is
// where it was written.
func TestThousandClients(t *testing.T) {
	base := served(t)
	const n = 1000
	walkers := make([]*walker, n)
	spaces := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		walkers[i] = &walker{client: ownClient(), base: base}
		wg.Go(func() {
			<-start
			spaces[i] = walkers[i].taskWalk()
		})
	}
	close(start)
	wg.Wait()
	failed := 0
	for i, w := range walkers {
		if w.err != nil {
			if failed++; failed <= 5 {
				t.Errorf("walker %d: %v", i, w.err)
			}
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d walkers failed", failed, n)
	}
	// Nothing lost: each SPACE holds its walk's result post, read by its
	// owner once every walk is done.
	seen := map[string]bool{}
	for i, w := range walkers {
		if seen[spaces[i]] {
			t.Errorf("walker %d shares space %s", i, spaces[i])
		}
		seen[spaces[i]] = true
		a, err := apiSendTo(w.client, base, "GET", "/v1/posts/"+w.post, w.owner, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != 200 || a.Get("space").String() != spaces[i] || a.Get("body").String() != "done" {
			t.Errorf("walker %d: its result post %s: %d %.300s", i, w.post, a.Status, a.Body)
		}
		w.client.CloseIdleConnections()
	}
}

// halfHeader is the start of a request that never ends its headers.
const halfHeader = "POST /v1/keys/challenge HTTP/1.1\r\nHost: twin\r\nContent-Type: application/js"

// holdOpen opens n connections to addr that each send part of a request,
// send and hold. The caller closes them.
func holdOpen(t *testing.T, addr string, n int, part string) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, 0, n)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", len(conns), err)
		}
		conns = append(conns, c)
		if _, err := io.WriteString(c, part); err != nil {
			t.Fatal(err)
		}
	}
	return conns
}

// servedMeanwhile fails unless a client of its own walks the first task
// while the held connections are open, every answer within its client's
// timeout.
func servedMeanwhile(t *testing.T, base string) {
	t.Helper()
	w := &walker{client: ownClient(), base: base}
	begun := time.Now()
	w.walk()
	if w.err != nil {
		t.Fatalf("a client beside the held connections: %v", w.err)
	}
	w.client.CloseIdleConnections()
	t.Logf("the walk took %v beside them", time.Since(begun).Round(time.Millisecond))
}

// closedWithin fails unless the twin closes every connection within d,
// answering nothing or a 4xx (never a 5xx).
func closedWithin(t *testing.T, conns []net.Conn, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for i, c := range conns {
		c.SetReadDeadline(deadline)
		got, err := io.ReadAll(c)
		var ne net.Error
		switch {
		case errors.As(err, &ne) && ne.Timeout():
			t.Fatalf("connection %d is still open after %v", i, d)
		case err != nil && !errors.Is(err, syscall.ECONNRESET):
			t.Fatalf("connection %d: %v", i, err)
		}
		if len(got) > 0 && !bytes.HasPrefix(got, []byte("HTTP/1.1 4")) {
			t.Fatalf("connection %d answered %q", i, got)
		}
	}
}

// TestHalfOpenConnections holds 500 connections that send half a header
// and stop (slowloris): the twin serves a walk meanwhile, and closes each
// held connection once HeaderTimeout passes.
func TestHalfOpenConnections(t *testing.T) {
	t.Parallel()
	base := served(t)
	conns := holdOpen(t, strings.TrimPrefix(base, "http://"), 500, halfHeader)
	servedMeanwhile(t, base)
	closedWithin(t, conns, twin.HeaderTimeout+10*time.Second)
}

// TestStalledBodies holds 100 connections that send a request's headers
// and part of its body, then stop: the twin serves a walk meanwhile, and
// closes each held connection once BodyTimeout passes.
func TestStalledBodies(t *testing.T) {
	t.Parallel()
	base := served(t)
	head := "POST /v1/keys/challenge HTTP/1.1\r\nHost: twin\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"public_key\":"
	conns := holdOpen(t, strings.TrimPrefix(base, "http://"), 100, head)
	servedMeanwhile(t, base)
	closedWithin(t, conns, twin.BodyTimeout+10*time.Second)
}

// TestBodyOverCap sends every kind of route a body over its cap, with its
// length said and sent chunked: each answers 413 in its own error shape,
// and the twin goes on serving. A body at the cap is read.
func TestBodyOverCap(t *testing.T) {
	base := served(t)
	over := bytes.Repeat([]byte{' '}, twin.MaxBodyBytes+1)
	overMCP := bytes.Repeat([]byte{' '}, twin.MaxConnectorBodyBytes+1)
	for _, tc := range []struct {
		name, method, path string
		body               []byte
		shape              func(gjson.Result) bool
	}{
		{"API", "POST", "/v1/keys/challenge", over, twinShape},
		{"API, a route that reads no body", "GET", "/v1/categories", over, twinShape},
		{"no route", "POST", "/nowhere", over, twinShape},
		{"the primer", "GET", "/", over, twinShape},
		{"MCP connector", "POST", "/mcp", overMCP, rpcShape},
		{"MCP connect", "POST", "/mcp/connect", overMCP, rpcShape},
		{"OAuth token", "POST", "/oauth/token", over, oauthShape},
		{"OAuth register", "POST", "/oauth/register", over, oauthShape},
	} {
		for _, chunked := range []bool{false, true} {
			name := tc.name
			if chunked {
				name += ", chunked"
			}
			t.Run(name, func(t *testing.T) {
				var body io.Reader = bytes.NewReader(tc.body)
				if chunked {
					body = io.MultiReader(body) // no length known: sent chunked
				}
				req, err := http.NewRequest(tc.method, base+tc.path, body)
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				c := ownClient()
				defer c.CloseIdleConnections()
				resp, err := c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || !tc.shape(gjson.ParseBytes(b)) {
					t.Errorf("%s %s with %d bytes: %d %s %.300s", tc.method, tc.path, len(tc.body), resp.StatusCode, resp.Header.Get("Content-Type"), b)
				}
			})
		}
	}
	// At the cap, a body is read (and here refused for what it holds).
	a, err := apiSendTo(ownClient(), base, "POST", "/v1/keys/challenge", "", string(over[1:]))
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != 400 {
		t.Errorf("a body of %d bytes: %d %s", len(over)-1, a.Status, a.Body)
	}
	servedMeanwhile(t, base)
}

func twinShape(v gjson.Result) bool {
	return v.Get("error.code").String() == "TOO_LARGE" && strings.Contains(v.Get("error.fix").String(), "1 MiB") && v.Get("error.request_id").Exists()
}

func rpcShape(v gjson.Result) bool {
	return v.Get("jsonrpc").String() == "2.0" && v.Get("error.code").Int() == -32600 && strings.Contains(v.Get("error.message").String(), "4 MiB")
}

func oauthShape(v gjson.Result) bool {
	return v.Get("error").String() == "invalid_request" && strings.Contains(v.Get("error_description").String(), "1 MiB")
}

// TestLimitsDocumented: API.md states every limit the package exports.
func TestLimitsDocumented(t *testing.T) {
	doc, err := os.ReadFile("API.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("%d MiB", twin.MaxBodyBytes>>20),
		fmt.Sprintf("%d MiB", twin.MaxConnectorBodyBytes>>20),
		fmt.Sprintf("%d KiB", twin.MaxHeaderBytes>>10),
		fmt.Sprintf("%d s", twin.HeaderTimeout/time.Second),
		fmt.Sprintf("%d s", twin.BodyTimeout/time.Second),
		fmt.Sprintf("%d min", twin.IdleTimeout/time.Minute),
	} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("API.md does not state %s", want)
		}
	}
}
