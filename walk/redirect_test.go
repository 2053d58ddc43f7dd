package walk_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/walk"
)

// The secrets a redirect test's specs send: as auth, an MCP server's
// token, and custom credential headers no fixed list of names knows.
var redirectSecrets = []string{"bearer-secret-1234", "jwt-secret-5678", "userkey-secret-9012", "cookie-secret-3456"}

// otherOrigin is a loopback server on a port of its own, another origin
// than the one the walks name: it records every request it receives.
type otherOrigin struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // each request: method, path, headers and body
}

func startOther(t *testing.T) *otherOrigin {
	o := &otherOrigin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		o.mu.Lock()
		o.seen = append(o.seen, fmt.Sprintf("%s %s %v %s", r.Method, r.URL.Path, r.Header, body))
		o.mu.Unlock()
		answer(w, r.URL.Path, body, "other")
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *otherOrigin) requests() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := o.seen
	o.seen = nil
	return out
}

// answer writes an MCP answer to an MCP path, or a JSON one naming who
// answers.
func answer(w http.ResponseWriter, path string, body []byte, who string) {
	w.Header().Set("Content-Type", "application/json")
	if strings.HasPrefix(path, "/mcp") {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":%q}}}`, gjson.GetBytes(body, "id").Raw, who)
		return
	}
	fmt.Fprintf(w, `{"who":%q}`, who)
}

// TestRedirectRule runs walks against a home server whose answers redirect
// within its origin or to a second loopback server, another origin; the
// second server must never see the spec's secrets, and a redirect there
// fails the step naming both origins unless the spec allows it.
func TestRedirectRule(t *testing.T) {
	other := startOther(t)
	var homeMu sync.Mutex
	var home []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		homeMu.Lock()
		home = append(home, r.URL.Path+" "+r.Header.Get("X-Jwt"))
		homeMu.Unlock()
		switch r.URL.Path {
		case "/moved", "/mcp-moved":
			http.Redirect(w, r, strings.TrimSuffix(r.URL.Path, "-moved")+"-final", http.StatusTemporaryRedirect)
		case "/away", "/mcp-away":
			http.Redirect(w, r, other.URL+strings.TrimSuffix(r.URL.Path, "-away")+"-final", http.StatusTemporaryRedirect)
		case "/moved-final", "/mcp-final", "/-final":
			answer(w, r.URL.Path, body, "home")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	bothOrigins := fmt.Sprintf("a 307 redirect from %s to another origin, %s, was not followed: nothing was sent there (follow: cross-origin follows it, sending none of the spec's headers there)", srv.URL, other.URL)
	for _, tc := range []struct {
		name, step string
		fail       string // what the failure says; "" for none
		home       []string
		other      int    // requests the other origin receives
		want       string // a path of the last answer and its value
	}{
		{
			name: "http: a redirect is the answer", step: `
  - part: p
    http: POST /away
    auth: "{{token}}"
    headers: { X-Jwt: "{{jwt}}", X-Userkey: "{{userkey}}", Cookie: "sid={{cookie}}" }
    json: { n: 1 }
    expect: { status: 307 }`,
			home: []string{"/away jwt-secret-5678"},
		},
		{
			name: "http: same-origin follows within the origin", step: `
  - part: p
    http: POST /moved
    follow: same-origin
    headers: { X-Jwt: "{{jwt}}" }
    json: { n: 1 }
    expect: { json: { who: home } }`,
			home: []string{"/moved jwt-secret-5678", "/moved-final jwt-secret-5678"},
		},
		{
			name: "http: same-origin fails on another origin", step: `
  - part: p
    http: POST /away
    follow: same-origin
    auth: "{{token}}"
    headers: { X-Jwt: "{{jwt}}", X-Userkey: "{{userkey}}" }
    json: { n: 1 }`,
			fail: bothOrigins, home: []string{"/away jwt-secret-5678"},
		},
		{
			name: "http: cross-origin follows without the spec's headers", step: `
  - part: p
    http: POST /away
    follow: cross-origin
    auth: "{{token}}"
    headers: { X-Jwt: "{{jwt}}", X-Userkey: "{{userkey}}", Cookie: "sid={{cookie}}", Accept: application/json }
    json: { n: 1 }
    expect: { json: { who: other } }`,
			home: []string{"/away jwt-secret-5678"}, other: 1,
		},
		{
			name: "mcp: a redirect within the origin is followed", step: `
  - part: p
    mcp: { url: /mcp-moved, token: "{{token}}", headers: { X-Jwt: "{{jwt}}" }, initialize: true }
    expect: { json: { result.serverInfo.name: home } }`,
			home: []string{"/mcp-moved jwt-secret-5678", "/mcp-final jwt-secret-5678"},
		},
		{
			name: "mcp: a redirect to another origin fails", step: `
  - part: p
    mcp: { url: /mcp-away, token: "{{token}}", headers: { X-Jwt: "{{jwt}}", X-Userkey: "{{userkey}}" }, initialize: true }`,
			fail: bothOrigins, home: []string{"/mcp-away jwt-secret-5678"},
		},
		{
			name: "mcp: cross-origin follows without the token and headers", step: `
  - part: p
    mcp: { url: /mcp-away, follow: cross-origin, token: "{{token}}", headers: { X-Jwt: "{{jwt}}", X-Userkey: "{{userkey}}" }, initialize: true }
    expect: { json: { result.serverInfo.name: other } }`,
			home: []string{"/mcp-away jwt-secret-5678"}, other: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := "walk: w\nvars: { token: " + redirectSecrets[0] + ", jwt: " + redirectSecrets[1] + ", userkey: " + redirectSecrets[2] + ", cookie: " + redirectSecrets[3] + " }\nsteps:" + tc.step + "\n"
			s := load(t, write(t, t.TempDir(), "w.yaml", spec))
			homeMu.Lock()
			home = nil
			homeMu.Unlock()
			_, err := walk.Run(context.Background(), s, walk.Options{BaseURL: srv.URL})
			var f *walk.Failure
			switch {
			case tc.fail == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.fail != "" && (!errors.As(err, &f) || f.What != tc.fail || f.Spec):
				t.Fatalf("err = %v\nwant a failure: %s", err, tc.fail)
			}
			homeMu.Lock()
			if strings.Join(home, "|") != strings.Join(tc.home, "|") {
				t.Errorf("home saw %q, want %q", home, tc.home)
			}
			homeMu.Unlock()
			seen := other.requests()
			if len(seen) != tc.other {
				t.Errorf("the other origin saw %d requests, want %d: %q", len(seen), tc.other, seen)
			}
			for _, r := range seen {
				for _, s := range append(redirectSecrets, "X-Jwt", "X-Userkey", "Authorization", "Cookie", "Mcp-Session-Id") {
					if strings.Contains(r, s) {
						t.Errorf("the other origin saw %q: %s", s, r)
					}
				}
			}
		})
	}
}

func TestFollowIsChecked(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ spec, want string }{
		{"walk: w\nsteps:\n  - part: p\n    http: GET /\n    follow: always\n", `w.yaml:5: steps[0].follow: "always": want none, same-origin or cross-origin`},
		{"walk: w\nsteps:\n  - part: p\n    http: GET /\n    follow: [none]\n", `w.yaml:5: steps[0].follow: want none, same-origin or cross-origin, got a list`},
		{"walk: w\nservers:\n  s: { command: [cat], follow: none }\nsteps:\n  - part: p\n    mcp: initialize\n", `w.yaml:3: servers.s: follow is for a server at a url, whose answers may redirect; a command's do not`},
		{"walk: w\nsteps:\n  - part: p\n    doc: { http: GET / }\n    follow: none\n", `w.yaml:5: steps[0]: follow is for http steps, this is a doc step`},
	} {
		_, err := walk.Load(write(t, dir, "w.yaml", tc.spec))
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("err = %v\nwant ...%s", err, tc.want)
		}
	}
}
