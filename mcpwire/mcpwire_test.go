package mcpwire_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/mcptest"
	"github.com/readmeter/readmeter/internal/redirect"
	"github.com/readmeter/readmeter/mcpwire"
)

// TestMain lets the test binary serve as a Go SDK stdio server when
// MCPWIRE_TEST_STDIO is set, so stdio is tested against the real SDK.
func TestMain(m *testing.M) {
	if os.Getenv("MCPWIRE_TEST_STDIO") == "1" {
		o := mcptest.Options{Instructions: "Test instructions."}
		if os.Getenv("MCPWIRE_TEST_PAGE") == "1" {
			o.PageSize = 1
		}
		if err := mcptest.ServeStdio(context.Background(), o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// plainPOST sends body with net/http alone and returns the body as read to
// the end: what a fetch's text() would count.
func plainPOST(t *testing.T, url string, header http.Header, body string) []byte {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func toolNames(t *testing.T, pages []*mcpwire.Response) []string {
	t.Helper()
	var names []string
	for _, p := range pages {
		gjson.GetBytes(p.Message, "result.tools").ForEach(func(_, v gjson.Result) bool {
			names = append(names, v.Get("name").String())
			return true
		})
	}
	return names
}

func wantTools(t *testing.T, got []string) {
	t.Helper()
	var want []string
	for _, s := range mcptest.Tools {
		want = append(want, s.Name)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("tools = %v, want %v", got, want)
	}
}

func TestStreamableHTTP(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    mcptest.Options
	}{
		{"stream-session", mcptest.Options{}},
		{"json-session", mcptest.Options{JSONResponse: true}},
		{"stream-stateless", mcptest.Options{Stateless: true}},
		{"json-stateless", mcptest.Options{JSONResponse: true, Stateless: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Instructions = "Read the guide first."
			url := mcptest.Start(t, tc.o)
			c := mcpwire.NewHTTP(url, mcpwire.HTTPOptions{})
			defer c.Close()
			init, initialized, err := c.Handshake(ctx(t), mcpwire.InitOptions{ProtocolVersion: mcpwire.Version20251125})
			if err != nil {
				t.Fatal(err)
			}
			if got := gjson.GetBytes(init.Message, "result.serverInfo.name").String(); got != mcptest.Name {
				t.Errorf("serverInfo.name = %q", got)
			}
			if got := gjson.GetBytes(init.Message, "result.instructions").String(); got != "Read the guide first." {
				t.Errorf("instructions = %q", got)
			}
			if c.ProtocolVersion() != mcpwire.Version20251125 {
				t.Errorf("version = %q", c.ProtocolVersion())
			}
			if (c.SessionID() != "") == tc.o.Stateless {
				t.Errorf("session id %q with stateless %v", c.SessionID(), tc.o.Stateless)
			}
			if initialized.Status != http.StatusAccepted || len(initialized.Raw) != 0 {
				t.Errorf("initialized: status %d, raw %q", initialized.Status, initialized.Raw)
			}
			wantCT := "text/event-stream"
			if tc.o.JSONResponse {
				wantCT = "application/json"
			}
			pages, err := c.ListTools(ctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(pages) != 1 {
				t.Fatalf("%d pages", len(pages))
			}
			wantTools(t, toolNames(t, pages))
			p := pages[0]
			if ct := p.Header.Get("Content-Type"); !strings.HasPrefix(ct, wantCT) {
				t.Errorf("Content-Type %q, want %s", ct, wantCT)
			}
			if !bytes.Contains(p.Raw, p.Message) {
				t.Errorf("Raw does not hold Message")
			}
			if tc.o.JSONResponse != bytes.Equal(bytes.TrimSpace(p.Raw), p.Message) {
				t.Errorf("JSON answer: %v, but Raw == Message is %v:\n%s", tc.o.JSONResponse, !tc.o.JSONResponse, p.Raw)
			}
			if !tc.o.JSONResponse && !bytes.HasPrefix(p.Raw, []byte("event: message\n")) {
				t.Errorf("event stream Raw starts %q", p.Raw[:min(40, len(p.Raw))])
			}
			// Raw is the whole body, as a plain client reading to the end sees it.
			h := http.Header{}
			h.Set("Mcp-Protocol-Version", c.ProtocolVersion())
			if sid := c.SessionID(); sid != "" {
				h.Set("Mcp-Session-Id", sid)
			}
			plain := plainPOST(t, url, h, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			if !bytes.Equal(plain, p.Raw) {
				t.Errorf("Raw differs from the body a plain POST reads:\nraw   %q\nplain %q", p.Raw, plain)
			}

			r, err := c.CallTool(ctx(t), "echo", map[string]string{"text": "héllo <b>"})
			if err != nil {
				t.Fatal(err)
			}
			if got := gjson.GetBytes(r.Message, "result.content.0.text").String(); got != "héllo <b>" {
				t.Errorf("echo = %q", got)
			}

			_, err = c.CallTool(ctx(t), "nope", nil)
			var re *mcpwire.RPCError
			if !errors.As(err, &re) || re.Code != -32602 {
				t.Fatalf("unknown tool: %v", err)
			}
			if !strings.HasPrefix(err.Error(), url+": tools/call: JSON-RPC error -32602: ") {
				t.Errorf("error text %q", err)
			}
			if re.Response == nil || !bytes.Contains(re.Response.Raw, []byte("-32602")) {
				t.Errorf("RPCError without its answer")
			}
		})
	}
}

func TestEventsBeforeAnswer(t *testing.T) {
	url := mcptest.Start(t, mcptest.Options{})
	c := mcpwire.NewHTTP(url, mcpwire.HTTPOptions{})
	defer c.Close()
	if _, err := c.Initialize(ctx(t), mcpwire.InitOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := c.Request(ctx(t), "tools/call", map[string]any{
		"name": "notify", "arguments": map[string]any{}, "_meta": map[string]any{"progressToken": "p1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Events) != 1 || r.Events[0].Method() != "notifications/progress" {
		t.Fatalf("events = %+v", r.Events)
	}
	if got := gjson.GetBytes(r.Message, "result.content.0.text").String(); got != "done" {
		t.Errorf("answer = %s", r.Message)
	}
	if !bytes.Contains(r.Raw, r.Events[0].Data) || bytes.Index(r.Raw, r.Events[0].Data) > bytes.Index(r.Raw, r.Message) {
		t.Errorf("Raw should hold the notification, then the answer:\n%s", r.Raw)
	}
}

func TestPages(t *testing.T) {
	for _, json := range []bool{false, true} {
		url := mcptest.Start(t, mcptest.Options{PageSize: 1, JSONResponse: json})
		c := mcpwire.NewHTTP(url, mcpwire.HTTPOptions{})
		if _, err := c.Initialize(ctx(t), mcpwire.InitOptions{}); err != nil {
			t.Fatal(err)
		}
		pages, err := c.ListTools(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) != len(mcptest.Tools) {
			t.Errorf("%d pages, want %d", len(pages), len(mcptest.Tools))
		}
		wantTools(t, toolNames(t, pages))
		c.Close()
	}
}

func TestDiscover(t *testing.T) {
	url := mcptest.Start(t, mcptest.Options{Stateless: true, Instructions: "Discover me."})
	c := mcpwire.NewHTTP(url, mcpwire.HTTPOptions{})
	defer c.Close()
	r, err := c.Discover(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	gjson.GetBytes(r.Message, "result.supportedVersions").ForEach(func(_, v gjson.Result) bool {
		found = found || v.String() == mcpwire.Version20260728
		return true
	})
	if !found {
		t.Fatalf("supportedVersions lacks %s: %s", mcpwire.Version20260728, r.Message)
	}
	if got := gjson.GetBytes(r.Message, "result.instructions").String(); got != "Discover me." {
		t.Errorf("instructions = %q", got)
	}
	// Every request now carries the _meta triple and the headers; the SDK
	// refuses one that lacks them.
	pages, err := c.ListTools(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	wantTools(t, toolNames(t, pages))
	if _, err := c.CallTool(ctx(t), "echo", map[string]string{"text": "x"}); err != nil {
		t.Fatal(err)
	}
	// Without the headers the same server refuses (so the test above can fail).
	plain := plainPOST(t, url, http.Header{"Mcp-Protocol-Version": {mcpwire.Version20260728}},
		`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	if !bytes.Contains(plain, []byte("Mcp-Method")) {
		t.Errorf("a request without Mcp-Method was not refused: %s", plain)
	}
}

func TestSSE(t *testing.T) {
	url := mcptest.StartSSE(t, mcptest.Options{})
	// The limit is per answer: the stream as a whole may pass it.
	c, err := mcpwire.NewSSE(url, mcpwire.HTTPOptions{MaxBody: 2000})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init, err := c.Initialize(ctx(t), mcpwire.InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(init.Raw, []byte("event: message\n")) || !bytes.HasSuffix(init.Raw, []byte("\n\n")) {
		t.Errorf("init Raw is not one event: %q", init.Raw)
	}
	for range 4 {
		pages, err := c.ListTools(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		wantTools(t, toolNames(t, pages))
	}
}

func stdioArgv(t *testing.T) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "-test.run=^$"}
}

func TestStdio(t *testing.T) {
	for _, page := range []string{"0", "1"} {
		c, err := mcpwire.NewStdio(ctx(t), stdioArgv(t), mcpwire.StdioOptions{Env: []string{"MCPWIRE_TEST_STDIO=1", "MCPWIRE_TEST_PAGE=" + page}})
		if err != nil {
			t.Fatal(err)
		}
		init, err := c.Initialize(ctx(t), mcpwire.InitOptions{ProtocolVersion: mcpwire.Version20251125})
		if err != nil {
			t.Fatal(err)
		}
		if got := gjson.GetBytes(init.Message, "result.instructions").String(); got != "Test instructions." {
			t.Errorf("instructions = %q", got)
		}
		if !bytes.Equal(init.Raw, init.Message) || bytes.HasSuffix(init.Raw, []byte("\n")) {
			t.Errorf("stdio Raw should be the line: %q", init.Raw)
		}
		pages, err := c.ListTools(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]int{"0": 1, "1": len(mcptest.Tools)}[page]; len(pages) != want {
			t.Errorf("%d pages, want %d", len(pages), want)
		}
		wantTools(t, toolNames(t, pages))
		r, err := c.Request(ctx(t), "tools/call", map[string]any{
			"name": "notify", "_meta": map[string]any{"progressToken": 7},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Events) != 1 || r.Events[0].Method() != "notifications/progress" {
			t.Errorf("events = %+v", r.Events)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTokenStaysHome: the token and every header the caller set go to the
// origin named, and after a redirect within it; a redirect to another
// origin (another loopback port) fails naming both origins, with nothing
// sent there, unless Follow allows it, and then none of them goes. The
// token never shows in an error.
func TestTokenStaysHome(t *testing.T) {
	const token = "s3cret-token-value"
	var elsewhere []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var h []string
		for k := range r.Header {
			h = append(h, k)
		}
		slices.Sort(h)
		elsewhere = append(elsewhere, strings.Join(h, ","))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	defer other.Close()
	var home []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		home = append(home, r.URL.Path+" "+r.Header.Get("Authorization")+" "+r.Header.Get("X-Jwt"))
		switch r.URL.Path {
		case "/echo":
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, "bad token: "+r.Header.Get("Authorization"))
		case "/moved":
			http.Redirect(w, r, "/mcp", http.StatusPermanentRedirect)
		case "/mcp":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		default:
			http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
		}
	}))
	defer srv.Close()

	creds := http.Header{"X-Api-Key": {"key-value"}, "Cookie": {"sid=1234"}, "X-Tenant": {"tenant-secret"}, "X-Jwt": {"jwt-value"}, "Accept": {"application/json"}}
	o := mcpwire.HTTPOptions{Token: token, Header: creds, Credentials: []string{"x-tenant"}}
	c := mcpwire.NewHTTP(srv.URL+"/moved", o)
	if _, err := c.Request(ctx(t), "ping", nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"/moved Bearer " + token + " jwt-value", "/mcp Bearer " + token + " jwt-value"}
	if !slices.Equal(home, want) {
		t.Errorf("a redirect within the origin: home saw %q, want %q", home, want)
	}

	home = nil
	c = mcpwire.NewHTTP(srv.URL+"/elsewhere", o)
	_, err := c.Request(ctx(t), "ping", nil)
	var re *redirect.Error
	if !errors.As(err, &re) || re.From != srv.URL || re.To != other.URL || re.Status != 307 {
		t.Fatalf("a redirect to another origin: err = %v", err)
	}
	if len(home) != 1 || len(elsewhere) != 0 {
		t.Errorf("home saw %q, the other origin %q", home, elsewhere)
	}

	o.Follow = redirect.CrossOrigin
	c = mcpwire.NewHTTP(srv.URL+"/elsewhere", o)
	if _, err := c.Request(ctx(t), "ping", nil); err != nil {
		t.Fatal(err)
	}
	if len(elsewhere) != 1 || elsewhere[0] != "Accept-Encoding,Content-Length,Content-Type,User-Agent" {
		t.Errorf("the other origin saw the headers %q", elsewhere)
	}

	c = mcpwire.NewHTTP(srv.URL+"/echo", mcpwire.HTTPOptions{Token: token})
	_, err = c.Request(ctx(t), "ping", nil)
	var he *mcpwire.HTTPError
	if !errors.As(err, &he) || he.Status != 401 {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("error text: %s", err)
	}
}

// TestTokenNotCut: a token the server echoes where the error's excerpt is
// cut shows no part of itself, however many bytes come before it.
func TestTokenNotCut(t *testing.T) {
	const token = "s3cret-token-value"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("pad"))
		w.Header().Set("Content-Type", r.URL.Query().Get("ct"))
		if r.URL.Query().Get("ct") == "" {
			w.WriteHeader(http.StatusUnauthorized)
		}
		io.WriteString(w, strings.Repeat("x", n)+" got "+r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	for _, ct := range []string{"", "text/html", "application/json"} {
		for pad := 90; pad <= 120; pad++ {
			c := mcpwire.NewHTTP(fmt.Sprintf("%s/mcp?pad=%d&ct=%s", srv.URL, pad, ct), mcpwire.HTTPOptions{Token: token})
			_, err := c.Request(ctx(t), "ping", nil)
			if err == nil {
				t.Fatalf("pad %d %q: no error", pad, ct)
			}
			for i := 4; i <= len(token); i++ {
				if strings.Contains(err.Error(), token[:i]) {
					t.Fatalf("pad %d %q: %d bytes of the token show: %s", pad, ct, i, err)
				}
			}
		}
	}
}

func TestGzipAnswer(t *testing.T) {
	const body = `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}` + "\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		io.WriteString(zw, body)
		zw.Close()
	}))
	defer srv.Close()
	for _, disable := range []bool{false, true} {
		hc := &http.Client{Transport: &http.Transport{DisableCompression: disable}}
		c := mcpwire.NewHTTP(srv.URL, mcpwire.HTTPOptions{HTTPClient: hc})
		r, err := c.Request(ctx(t), "tools/list", nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(r.Raw) != body {
			t.Errorf("DisableCompression %v: Raw = %q", disable, r.Raw)
		}
	}
}

// TestStreamGrace: a server that keeps the stream open after the answer
// costs at most the grace time, and Raw ends with the answer's event.
func TestStreamGrace(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, ": hello\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	c := mcpwire.NewHTTP(srv.URL, mcpwire.HTTPOptions{StreamGrace: 50 * time.Millisecond})
	r, err := c.Request(ctx(t), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := ": hello\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	if string(r.Raw) != want {
		t.Errorf("Raw = %q", r.Raw)
	}
}
