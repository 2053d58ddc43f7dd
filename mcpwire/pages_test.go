package mcpwire_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/mcptest"
	"github.com/readmeter/readmeter/mcpwire"
)

// ListToolsWith sends the first page's params as written and each later
// page's with the cursor added; MergeToolPages makes the pages one answer
// holding every tool.
func TestListToolsWithParamsAsWritten(t *testing.T) {
	var mu sync.Mutex
	var lists []string // the params of each tools/list request, as sent
	h := mcptest.Handler(mcptest.Options{PageSize: 1, JSONResponse: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if gjson.GetBytes(body, "method").String() == "tools/list" {
			mu.Lock()
			lists = append(lists, gjson.GetBytes(body, "params").Raw)
			mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := mcpwire.NewHTTP(srv.URL, mcpwire.HTTPOptions{})
	defer c.Close()
	if _, err := c.Initialize(ctx(t), mcpwire.InitOptions{}); err != nil {
		t.Fatal(err)
	}
	pages, err := c.ListToolsWith(ctx(t), json.RawMessage(`{"_meta":{"progressToken":"p"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != len(mcptest.Tools) || len(lists) != len(pages) {
		t.Fatalf("%d pages from %d requests, want %d", len(pages), len(lists), len(mcptest.Tools))
	}
	if lists[0] != `{"_meta":{"progressToken":"p"}}` {
		t.Errorf("first params = %s, want them as written", lists[0])
	}
	for i, p := range lists[1:] {
		cursor := gjson.GetBytes(pages[i].Message, "result.nextCursor").String()
		want := `{"_meta":{"progressToken":"p"},"cursor":` + strings.TrimSpace(string(mustMarshal(t, cursor))) + `}`
		if p != want {
			t.Errorf("page %d params = %s, want %s", i+2, p, want)
		}
	}
	merged, err := mcpwire.MergeToolPages(pages)
	if err != nil {
		t.Fatal(err)
	}
	wantTools(t, toolNames(t, []*mcpwire.Response{{Message: merged}}))
	if gjson.GetBytes(merged, "result.nextCursor").Exists() {
		t.Errorf("the merged answer keeps nextCursor: %s", merged)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMergeToolPages(t *testing.T) {
	page := func(s string) *mcpwire.Response { return &mcpwire.Response{Message: []byte(s)} }
	for _, tc := range []struct {
		name    string
		pages   []*mcpwire.Response
		want    string
		wantErr string
	}{
		{"none", nil, "", "no answer"},
		{"one page as it is", []*mcpwire.Response{page(`{"jsonrpc":"2.0","id":1,"result":{"tools":[],"nextCursor":"x"}}`)},
			`{"jsonrpc":"2.0","id":1,"result":{"tools":[],"nextCursor":"x"}}`, ""},
		{"first page's members in order, tools as received",
			[]*mcpwire.Response{
				page(`{"jsonrpc":"2.0","id":"a","result":{"_meta":{"k":1},"tools":[{"name":"x" }],"nextCursor":"c1"}}`),
				page(`{"jsonrpc":"2.0","id":"b","result":{"tools":[ {"name":"y"},{"name":"z"}],"nextCursor":"c2","other":2}}`),
				page(`{"jsonrpc":"2.0","id":"c","result":{"tools":[]}}`),
			},
			`{"jsonrpc":"2.0","id":"a","result":{"_meta":{"k":1},"tools":[{"name":"x" },{"name":"y"},{"name":"z"}]}}`, ""},
		{"a page without tools", []*mcpwire.Response{page(`{"id":1,"result":{"tools":[]}}`), page(`{"id":2,"result":{}}`)}, "", "page 2 has no result.tools array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mcpwire.MergeToolPages(tc.pages)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("merged =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestInitializeParams(t *testing.T) {
	for _, tc := range []struct {
		o    mcpwire.InitOptions
		want string
	}{
		{mcpwire.InitOptions{}, `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"readmeter","version":"0"}}`},
		{mcpwire.InitOptions{ProtocolVersion: mcpwire.Version20251125, Capabilities: json.RawMessage(`{ "roots": {} }`), ClientInfo: map[string]string{"name": "c"}},
			`{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c"}}`},
	} {
		if got := string(mcpwire.InitializeParams(tc.o)); got != tc.want {
			t.Errorf("InitializeParams(%+v) = %s, want %s", tc.o, got, tc.want)
		}
	}
}

// Initialize sends what InitializeParams returns.
func TestInitializeSendsInitializeParams(t *testing.T) {
	var got []byte
	h := mcptest.Handler(mcptest.Options{JSONResponse: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if gjson.GetBytes(body, "method").String() == "initialize" {
			got = []byte(gjson.GetBytes(body, "params").Raw)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	c := mcpwire.NewHTTP(srv.URL, mcpwire.HTTPOptions{})
	defer c.Close()
	o := mcpwire.InitOptions{ProtocolVersion: mcpwire.Version20251125, Capabilities: json.RawMessage(`{"roots":{}}`)}
	if _, err := c.Initialize(ctx(t), o); err != nil {
		t.Fatal(err)
	}
	if want := mcpwire.InitializeParams(o); !bytes.Equal(got, want) {
		t.Errorf("initialize params = %s, want %s", got, want)
	}
}

func TestDial(t *testing.T) {
	url := mcptest.Start(t, mcptest.Options{})
	c, err := mcpwire.Dial(ctx(t), mcpwire.Server{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Where() != url {
		t.Errorf("Where = %q, want %q", c.Where(), url)
	}
	if _, err := c.Initialize(ctx(t), mcpwire.InitOptions{}); err != nil {
		t.Fatal(err)
	}
	sse := mcptest.StartSSE(t, mcptest.Options{})
	s, err := mcpwire.Dial(ctx(t), mcpwire.Server{URL: sse, SSE: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Initialize(ctx(t), mcpwire.InitOptions{}); err != nil {
		t.Fatal(err)
	}
	// A Command, even an empty one, is a stdio server: never the URL.
	if _, err := mcpwire.Dial(ctx(t), mcpwire.Server{Command: []string{}, URL: url}); err == nil || !strings.Contains(err.Error(), "no command given") {
		t.Errorf("Dial with an empty command = %v, want no command given", err)
	}
}
