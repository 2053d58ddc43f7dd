package twin

import (
	"bytes"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startServer serves s on a loopback port with the http.Server
// HTTPServer returns.
func startServer(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(s)
	srv.Config = s.HTTPServer()
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// panicked records what Options.OnPanic is told.
type panicked struct {
	mu     sync.Mutex
	values []any
	wheres []string
	stacks []string
}

func (p *panicked) on(where string, v any, stack []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.values = append(p.values, v)
	p.wheres = append(p.wheres, where)
	p.stacks = append(p.stacks, string(stack))
}

// secret is the text of the panics below: no answer may hold it.
const secret = "secret panic text /home/someone/.config/token"

// TestPanicAnswered makes a route, a tool, and an API route a tool calls
// panic: each is answered as the twin refuses (500 INTERNAL, or a tool
// result with isError), with none of the panic's text; OnPanic is told of
// each, with its stack; and the twin goes on serving.
func TestPanicAnswered(t *testing.T) {
	var p panicked
	s := New(Options{OnPanic: p.on})
	s.mux.HandleFunc("GET /v1/boom", func(http.ResponseWriter, *http.Request) { panic(secret) })
	srv := startServer(t, s)

	var e struct {
		Error struct {
			Code, Message, Fix string
		} `json:"error"`
	}
	if status := httpJSON(t, srv.URL, "", "GET", "/v1/boom", nil, &e); status != 500 || e.Error.Code != "INTERNAL" {
		t.Errorf("a route that panics: %d %+v", status, e)
	}
	token, _ := keyToken(t, srv.URL)
	restore := swapTool("schellingaf_guide", func(*toolCall) { panic(secret) })
	r := callToolRaw(t, srv.URL+"/mcp", token, "schellingaf_guide", map[string]any{})
	restore()
	if !r.IsError || !strings.HasPrefix(r.text(), "INTERNAL.") || strings.Contains(r.text(), "secret") {
		t.Errorf("a tool that panics: %+v", r)
	}
	// An API route that panics under a tool (the tool calls it in-process).
	restore = swapTool("schellingaf_guide", func(c *toolCall) { c.api("GET", "/v1/boom", nil) })
	r = callToolRaw(t, srv.URL+"/mcp", token, "schellingaf_guide", map[string]any{})
	restore()
	if !r.IsError || !strings.HasPrefix(r.text(), "INTERNAL.") || strings.Contains(r.text(), "secret") {
		t.Errorf("a tool whose API call panics: %+v", r)
	}
	// Still serving.
	if status := httpJSON(t, srv.URL, token, "GET", "/v1/me", nil, nil); status != 200 {
		t.Errorf("after the panics: /v1/me %d", status)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.values) != 3 {
		t.Fatalf("OnPanic told of %d panics, want 3: %v", len(p.values), p.values)
	}
	wheres := []string{"GET /v1/boom", "tools/call schellingaf_guide", "tools/call schellingaf_guide"}
	for i, v := range p.values {
		if v != secret || p.wheres[i] != wheres[i] || !strings.Contains(p.stacks[i], "panic_test.go") {
			t.Errorf("panic %d at %s: %v, stack %.200s", i, p.wheres[i], v, p.stacks[i])
		}
	}
}

// TestPanicSilentWithoutHook: with no OnPanic the panic is answered the
// same, and nothing is logged (the package never prints).
func TestPanicSilentWithoutHook(t *testing.T) {
	var logged bytes.Buffer
	old := log.Writer()
	log.SetOutput(&logged)
	defer log.SetOutput(old)
	s := New(Options{})
	s.mux.HandleFunc("GET /v1/boom", func(http.ResponseWriter, *http.Request) { panic(secret) })
	srv := startServer(t, s)
	resp, err := http.Get(srv.URL + "/v1/boom")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 500 {
		t.Errorf("status %d", resp.StatusCode)
	}
	if logged.Len() > 0 {
		t.Errorf("logged: %s", logged.Bytes())
	}
}

// swapTool makes the tool named run f (then answer the guide's usual
// refusal-free nothing), until restore.
func swapTool(name string, f func(*toolCall)) (restore func()) {
	old := toolRuns[name]
	toolRuns[name] = func(c *toolCall) *mcp.CallToolResult {
		f(c)
		return old(c)
	}
	return func() { toolRuns[name] = old }
}
