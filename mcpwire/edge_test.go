package mcpwire_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/mcptest"
	"github.com/readmeter/readmeter/internal/redirect"
	"github.com/readmeter/readmeter/mcpwire"
)

// streamServer answers every POST with body as an event stream (ID is
// replaced by the request's id).
func streamServer(t *testing.T, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, strings.ReplaceAll(body, "ID", gjson.GetBytes(req, "id").Raw))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestEventStreamShapes: the answering event is found whatever the framing,
// Raw is every byte, and Message the event's data.
func TestEventStreamShapes(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	for _, tc := range []struct {
		name, body, message string
		events              int
	}{
		{"priming event", "id: 0\ndata: \n\nevent: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{}}\n\n",
			`{"jsonrpc":"2.0","id":1,"result":{}}`, 0},
		{"crlf", "event: message\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{}}\r\n\r\n",
			`{"jsonrpc":"2.0","id":1,"result":{}}`, 0},
		{"data in lines", "data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":ID,\"result\":{}}\n\n",
			"{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{}}", 0},
		{"comments and a notification", ": keep-alive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\ndata:{\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{}}\n\n",
			`{"jsonrpc":"2.0","id":1,"result":{}}`, 1},
		{"another id first", "data: {\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{}}\n\n",
			`{"jsonrpc":"2.0","id":1,"result":{}}`, 1},
		{"a line longer than the buffer", "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{\"s\":\"" + long + "\"}}\n\n",
			`{"jsonrpc":"2.0","id":1,"result":{"s":"` + long + `"}}`, 0},
		{"bytes that are not UTF-8 in a string", "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{\"s\":\"\xff\xfe\xc3\"}}\n\n",
			"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"s\":\"\xff\xfe\xc3\"}}", 0},
		{"an event not JSON after the answer", "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{}}\n\ndata: {\"jsonrpc\":\n\ndata: {}\n\n",
			`{"jsonrpc":"2.0","id":1,"result":{}}`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mcpwire.NewHTTP(streamServer(t, tc.body), mcpwire.HTTPOptions{})
			r, err := c.Request(ctx(t), "ping", nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.ReplaceAll(tc.body, "ID", "1"); string(r.Raw) != want {
				t.Errorf("Raw = %.200q\nwant %.200q", r.Raw, want)
			}
			if string(r.Message) != tc.message {
				t.Errorf("Message = %.200q", r.Message)
			}
			if len(r.Events) != tc.events {
				t.Errorf("%d events, want %d", len(r.Events), tc.events)
			}
		})
	}
}

func TestEventStreamCut(t *testing.T) {
	c := mcpwire.NewHTTP(streamServer(t, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":ID,"), mcpwire.HTTPOptions{})
	_, err := c.Request(ctx(t), "ping", nil)
	if err == nil || !strings.HasSuffix(err.Error(), "ping: the event stream ended in the middle of an event, before the answer (no event with data)") {
		t.Fatalf("err = %v", err)
	}
}

func TestWrongAnswers(t *testing.T) {
	json := func(body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	for _, tc := range []struct{ url, want string }{
		{json(`{"jsonrpc":"2.0","id":7,"result":{}}`), "ping: the answer is to id 7, not 1"},
		{json(`{"jsonrpc":"2.0","method":"ping","id":1}`), `ping: the answer is not a JSON-RPC response: "{\"jsonrpc\":`},
		{json(`{"jsonrpc":"2.0","id":1,"result":{}`), `ping: the answer is not JSON: "{\"jsonrpc\":`},
		{json(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`), "ping: JSON-RPC error -32700: Parse error"},
		{streamServer(t, "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{}\n\n"), `ping: event 1: data is not JSON: "{\"jsonrpc\":`},
		{streamServer(t, "data: {}\n\ndata: [1,]\n\n"), `ping: event 2: data is not JSON: "[1,]"`},
		{streamServer(t, "data: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n"), "ping: the event stream ended before the answer (1 event read)"},
	} {
		c := mcpwire.NewHTTP(tc.url, mcpwire.HTTPOptions{})
		_, err := c.Request(ctx(t), "ping", nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
		var e *mcpwire.Error
		if !errors.As(err, &e) || e.Where != tc.url || e.Method != "ping" {
			t.Errorf("not an *Error naming %s and ping: %#v", tc.url, err)
		}
	}
}

// TestStatelessWithoutHandshake: a stateless server answers tools/call with
// no initialize, as the service's connector does; RequestRaw sends a
// literal body with a string id.
func TestStatelessWithoutHandshake(t *testing.T) {
	url := mcptest.Start(t, mcptest.Options{Stateless: true, JSONResponse: true})
	c := mcpwire.NewHTTP(url, mcpwire.HTTPOptions{ProtocolVersion: mcpwire.Version20251125})
	r, err := c.CallTool(ctx(t), "echo", map[string]string{"text": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(r.Message, "result.content.0.text").String(); got != "hi" {
		t.Errorf("echo = %s", r.Message)
	}
	r, err = c.RequestRaw(ctx(t), []byte(`{"jsonrpc":"2.0","id":"a-1","method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(r.Message, "id").String() != "a-1" || !gjson.GetBytes(r.Message, "result.tools").IsArray() {
		t.Errorf("RequestRaw answer: %.200s", r.Message)
	}
	if _, err := c.RequestRaw(ctx(t), []byte(`{"jsonrpc":`)); err == nil {
		t.Error("RequestRaw sent a body that is not JSON")
	}
}

// TestSSEDuplicateID: an answer on the event stream with two ids goes to
// the request its last id names, the id it is matched by, as JSON.parse
// reads it.
func TestSSEDuplicateID(t *testing.T) {
	ids := make(chan string, 4)
	mux := http.NewServeMux()
	mux.HandleFunc("/messages", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if id := gjson.GetBytes(body, "id"); id.Exists() {
			ids <- id.Raw
		}
		w.WriteHeader(http.StatusAccepted)
	})
	mux.HandleFunc("/sse", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "event: endpoint\ndata: /messages\n\n")
		w.(http.Flusher).Flush()
		for {
			select {
			case id := <-ids:
				fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":99,\"id\":%s,\"result\":{}}\n\n", id)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	})
	stream := httptest.NewServer(mux)
	defer func() {
		stream.CloseClientConnections()
		stream.Close()
	}()
	c, err := mcpwire.NewSSE(stream.URL+"/sse", mcpwire.HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := c.Request(cx, "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":99,"id":1,"result":{}}`; string(r.Message) != want {
		t.Errorf("Message = %s, want %s", r.Message, want)
	}
}

// TestSSEEndpointElsewhere: an endpoint event naming another origin is
// refused, nothing sent there, unless Follow allows it; then it gets the
// messages but neither the token nor a header the caller set.
func TestSSEEndpointElsewhere(t *testing.T) {
	const token = "sse-token-123"
	ids := make(chan string, 4)
	var elsewhere []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		elsewhere = append(elsewhere, r.Header.Get("Authorization")+r.Header.Get("X-Api-Key")+r.Header.Get("X-Plain"))
		if id := gjson.GetBytes(body, "id"); id.Exists() {
			ids <- id.Raw
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer other.Close()
	var streamAuth string
	stream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		streamAuth = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/messages?session=1\n\n", other.URL)
		w.(http.Flusher).Flush()
		for {
			select {
			case id := <-ids:
				fmt.Fprintf(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n\n", id)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	}))
	defer func() {
		stream.CloseClientConnections()
		stream.Close()
	}()
	o := mcpwire.HTTPOptions{Token: token, Header: http.Header{"X-Api-Key": {"sse-api-key"}, "X-Plain": {"plain"}}}
	_, err := mcpwire.NewSSE(stream.URL+"/sse", o)
	if want := "the endpoint event names another origin, " + other.URL + " (the stream's is " + stream.URL + "): not followed, nothing was sent there"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err = %v, want ...%s", err, want)
	}
	o.Follow = redirect.CrossOrigin
	c, err := mcpwire.NewSSE(stream.URL+"/sse", o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Request(ctx(t), "ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Message) != `{"jsonrpc":"2.0","id":1,"result":{}}` {
		t.Errorf("Message = %s", r.Message)
	}
	if streamAuth != "Bearer "+token {
		t.Errorf("the stream's host got %q", streamAuth)
	}
	if len(elsewhere) != 1 || elsewhere[0] != "" {
		t.Errorf("the other host got credentials %q", elsewhere)
	}
}

// nodeStdio is a stdio server in Node that asks the client for ping and
// for roots/list before answering initialize, then reports the client's
// answers in its result.
const nodeStdio = `
const rl = require('readline').createInterface({input: process.stdin});
const send = m => process.stdout.write(JSON.stringify(m) + '\n');
let initId, answers = [];
rl.on('line', line => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') {
    initId = m.id;
    send({jsonrpc: '2.0', method: 'notifications/message', params: {level: 'info', data: 'starting'}});
    send({jsonrpc: '2.0', id: 's1', method: 'ping'});
    send({jsonrpc: '2.0', id: 's2', method: 'roots/list'});
  } else if (m.id === 's1' || m.id === 's2') {
    answers.push(m);
    if (answers.length === 2) send({jsonrpc: '2.0', id: initId, result: {protocolVersion: '2025-06-18', capabilities: {}, serverInfo: {name: 'n', version: '1'}, answers}});
  } else if (m.method === 'big') {
    send({jsonrpc: '2.0', id: m.id, result: {s: 'x'.repeat(5000)}});
  } else if (m.id !== undefined) {
    send({jsonrpc: '2.0', id: m.id, result: {}});
  }
});
`

func TestStdioServerRequests(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed: %v", err)
	}
	c, err := mcpwire.NewStdio(ctx(t), []string{node, "-e", nodeStdio}, mcpwire.StdioOptions{MaxBody: 4096, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Initialize(ctx(t), mcpwire.InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Events) != 3 || r.Events[0].Method() != "notifications/message" || r.Events[1].Method() != "ping" {
		t.Errorf("events: %+v", r.Events)
	}
	answers := gjson.GetBytes(r.Message, "result.answers").Raw
	want := `[{"jsonrpc":"2.0","id":"s1","result":{}},{"jsonrpc":"2.0","id":"s2","error":{"code":-32601,"message":"Method not found"}}]`
	if answers != want {
		t.Errorf("the client answered %s\nwant %s", answers, want)
	}
	n, err := c.Notify(ctx(t), "notifications/cancelled", map[string]any{"requestId": 1})
	if err != nil || len(n.Raw) != 0 {
		t.Errorf("notify: %v, raw %q", err, n.Raw)
	}
	_, err = c.Request(ctx(t), "big", nil)
	if err == nil || !strings.Contains(err.Error(), "big: answer larger than the limit of 4096 bytes") {
		t.Errorf("err = %v", err)
	}
}

func TestCallerCancels(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		<-r.Context().Done()
	}))
	defer srv.Close()
	c := mcpwire.NewHTTP(srv.URL, mcpwire.HTTPOptions{Timeout: time.Minute})
	cx, cancel := context.WithCancel(ctx(t))
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := c.Request(cx, "ping", nil)
	if err == nil || strings.Contains(err.Error(), "no answer within") {
		t.Errorf("a cancelled call should say so, not time out: %v", err)
	}
}

func TestCustomTools(t *testing.T) {
	url := mcptest.Start(t, mcptest.Options{Stateless: true, Tools: []mcptest.ToolSpec{
		{Name: "lookup", Description: "Looks up.", InputSchema: `{"type":"object","properties":{"q":{"type":"string"}}}`},
	}})
	c := mcpwire.NewHTTP(url, mcpwire.HTTPOptions{})
	pages, err := c.ListTools(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, pages); len(got) != 1 || got[0] != "lookup" {
		t.Errorf("tools = %v", got)
	}
	r, err := c.CallTool(ctx(t), "lookup", map[string]string{"q": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(r.Message, "result.content.0.text").String(); got != `{"q":"x"}` {
		t.Errorf("lookup answered %q", got)
	}
}

// TestSSEBadStart: an event stream that cannot be opened says why at once,
// without waiting for the timeout.
func TestSSEBadStart(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nothing := "http://" + ln.Addr().String() + "/sse"
	ln.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/500" {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html>sign in</html>")
	}))
	defer srv.Close()
	for _, tc := range []struct{ url, want string }{
		{nothing, nothing + ": connection refused (nothing listening there)"},
		{srv.URL + "/html", srv.URL + `/html: answered text/html, not an event stream: "<html>sign in</html>"`},
		{srv.URL + "/500", srv.URL + `/500: HTTP 500 Internal Server Error: "down"`},
	} {
		_, err := mcpwire.NewSSE(tc.url, mcpwire.HTTPOptions{Timeout: time.Minute})
		if err == nil || err.Error() != tc.want {
			t.Errorf("err = %v\nwant %s", err, tc.want)
		}
	}
}

// TestParamsAsJavaScriptWritesThem: a tool call's arguments are sent as
// JSON.stringify writes them, a "<", ">" or "&" as the byte itself (Go's
// json.Marshal would write \u003c), and raw arguments as given, compacted.
func TestParamsAsJavaScriptWritesThem(t *testing.T) {
	var sent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sent = append(sent, string(body))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, gjson.Get(string(body), "id").Raw)
	}))
	defer srv.Close()
	c := mcpwire.NewHTTP(srv.URL, mcpwire.HTTPOptions{})
	ctx := context.Background()
	if _, err := c.CallTool(ctx, "post", map[string]string{"body": "<the link> & more"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctx, "post", json.RawMessage(`{"body": "<raw>"}`)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"post","arguments":{"body":"<the link> & more"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"post","arguments":{"body":"<raw>"}}}`,
	}
	if strings.Join(sent, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent\n%s\nwant\n%s", strings.Join(sent, "\n"), strings.Join(want, "\n"))
	}
}

// TestSSEStream: a streamable HTTP request to the stream of the older
// HTTP+SSE transport (the Go SDK's, which refuses a POST without a
// session) is told apart, so that a command can name the transport; a
// refusal elsewhere, or with SSE spoken, is not.
func TestSSEStream(t *testing.T) {
	sse := mcptest.StartSSE(t, mcptest.Options{})
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/get-only/sse":
			http.Error(w, "no", http.StatusMethodNotAllowed)
		case "/none/sse":
			http.NotFound(w, r)
		default:
			http.Error(w, "no", http.StatusBadRequest)
		}
	}))
	t.Cleanup(refuse.Close)
	for _, tc := range []struct {
		name string
		srv  mcpwire.Server
		want bool
	}{
		{"POST to an HTTP+SSE stream", mcpwire.Server{URL: sse}, true},
		{"with a final slash", mcpwire.Server{URL: refuse.URL + "/sse/"}, true},
		{"a route that takes only GET", mcpwire.Server{URL: refuse.URL + "/get-only/sse"}, true},
		{"another path refused", mcpwire.Server{URL: refuse.URL + "/mcp"}, false},
		{"no such path", mcpwire.Server{URL: refuse.URL + "/none/sse"}, false},
		{"SSE spoken", mcpwire.Server{URL: sse, SSE: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mcpwire.Dial(ctx(t), tc.srv)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, err = c.Initialize(ctx(t), mcpwire.InitOptions{})
			if got := mcpwire.SSEStream(err, tc.srv); got != tc.want {
				t.Errorf("SSEStream(%v) = %v, want %v", err, got, tc.want)
			}
		})
	}
	if mcpwire.SSEStream(errors.New("HTTP 400"), mcpwire.Server{URL: sse}) {
		t.Error("an error that is no HTTPError counts as the stream's refusal")
	}
}
