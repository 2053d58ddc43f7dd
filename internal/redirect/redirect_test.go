package redirect_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/readmeter/readmeter/internal/redirect"
)

func TestOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"http://example.org/a", "http://EXAMPLE.org:80/b?x", true},
		{"https://example.org/", "https://example.org:443/x", true},
		{"http://example.org/", "https://example.org/", false},
		{"http://example.org:8080/", "http://example.org:8081/", false},
		{"http://127.0.0.1:4001/", "http://localhost:4001/", false},
		{"http://api.example.org/", "http://example.org/", false},
		{"http://[::1]:80/", "http://[::1]/", true},
		{"http://user:pw@example.org/", "http://example.org/", true},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := redirect.Same(a, b); got != tc.same {
			t.Errorf("Same(%s, %s) = %v (origins %s, %s)", tc.a, tc.b, got, redirect.Origin(a), redirect.Origin(b))
		}
	}
}

func TestParse(t *testing.T) {
	for _, f := range redirect.Policies {
		if got, err := redirect.Parse(string(f)); err != nil || got != f {
			t.Errorf("Parse(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := redirect.Parse("yes"); err == nil || !strings.Contains(err.Error(), "none, same-origin or cross-origin") {
		t.Errorf("Parse(yes): %v", err)
	}
}

// seen is one request a server received.
type seen struct {
	method, path string
	header       http.Header
	body         string
}

type recorder struct {
	mu   sync.Mutex
	reqs []seen
}

func (r *recorder) add(req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.reqs = append(r.reqs, seen{req.Method, req.URL.Path, req.Header.Clone(), string(b)})
	r.mu.Unlock()
}

func (r *recorder) all() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.reqs
	r.reqs = nil
	return out
}

const jwt = "eyJhbGciOiJIUzI1NiJ9.secret-jwt.sig"

// TestRule sends a POST that carries credentials and a body to one
// loopback server, which redirects it within its origin, to a second
// server (another origin: another port), or there and back; the second
// server records everything it receives.
func TestRule(t *testing.T) {
	var home, other recorder
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.add(r)
		if r.URL.Path == "/back" {
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusTemporaryRedirect)
			return
		}
		io.WriteString(w, "other")
	}))
	defer b.Close()
	a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		home.add(r)
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
		case "/other":
			http.Redirect(w, r, b.URL+"/final", http.StatusTemporaryRedirect)
		case "/other302":
			http.Redirect(w, r, b.URL+"/final", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusTemporaryRedirect)
		case "/there-and-back":
			http.Redirect(w, r, b.URL+"/back?to="+url.QueryEscape("http://"+r.Host+"/final"), http.StatusTemporaryRedirect)
		default:
			io.WriteString(w, "home")
		}
	}))
	defer a.Close()
	set := []string{"X-Jwt", "X-Userkey", "Authorization", "Cookie", "Accept"}
	send := func(f redirect.Follow, path string) (*http.Response, error) {
		req, _ := http.NewRequest(http.MethodPost, a.URL+path, strings.NewReader(`{"token":"body-secret"}`))
		req.Header.Set("X-Jwt", jwt)
		req.Header.Set("X-Userkey", "user-key-1234")
		req.Header.Set("Authorization", "Bearer bearer-1234")
		req.Header.Set("Cookie", "sid=cookie-1234")
		req.Header.Set("Accept", "text/x-spec") // set by the user: never sent away
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		req.Header.Set("Mcp-Session-Id", "session-1234")
		c := &http.Client{CheckRedirect: f.Check(set)}
		resp, err := c.Do(req)
		if resp != nil {
			resp.Body.Close()
		}
		return resp, err
	}
	for _, tc := range []struct {
		follow      redirect.Follow
		path        string
		status      int    // the answer's status, 0: an error
		err         string // the error's text
		homeReqs    int
		otherReqs   int
		otherBody   string
		otherHeader string // the headers the other origin sees, besides Content-Length and Accept-Encoding
	}{
		{follow: redirect.None, path: "/same", status: 307, homeReqs: 1},
		{follow: redirect.None, path: "/other", status: 307, homeReqs: 1},
		{follow: redirect.SameOrigin, path: "/same", status: 200, homeReqs: 2},
		{follow: redirect.SameOrigin, path: "/other", err: "a 307 redirect from " + a.URL + " to another origin, " + b.URL + ", was not followed: nothing was sent there", homeReqs: 1},
		{follow: redirect.SameOrigin, path: "/loop", err: "stopped after 10 redirects", homeReqs: 11},
		{follow: redirect.CrossOrigin, path: "/same", status: 200, homeReqs: 2},
		{follow: redirect.CrossOrigin, path: "/other", status: 200, homeReqs: 1, otherReqs: 1, otherBody: `{"token":"body-secret"}`,
			otherHeader: "Content-Type: application/json|Mcp-Protocol-Version: 2025-06-18|User-Agent: Go-http-client/1.1"},
		{follow: redirect.CrossOrigin, path: "/other302", status: 200, homeReqs: 1, otherReqs: 1,
			otherHeader: "Mcp-Protocol-Version: 2025-06-18|User-Agent: Go-http-client/1.1"},
		{follow: redirect.CrossOrigin, path: "/there-and-back", status: 200, homeReqs: 2, otherReqs: 1, otherBody: `{"token":"body-secret"}`,
			otherHeader: "Content-Type: application/json|Mcp-Protocol-Version: 2025-06-18|User-Agent: Go-http-client/1.1"},
	} {
		t.Run(string(tc.follow)+tc.path, func(t *testing.T) {
			resp, err := send(tc.follow, tc.path)
			hs, ots := home.all(), other.all()
			if tc.err != "" {
				var re *redirect.Error
				if !errors.As(err, &re) || re.Error() != tc.err {
					t.Errorf("err = %v, want %s", err, tc.err)
				}
			} else if err != nil || resp.StatusCode != tc.status {
				t.Fatalf("answer %v, %v; want %d", resp, err, tc.status)
			}
			if len(hs) != tc.homeReqs || len(ots) != tc.otherReqs {
				t.Errorf("home saw %d requests, other %d; want %d, %d", len(hs), len(ots), tc.homeReqs, tc.otherReqs)
			}
			for i, h := range hs {
				back := tc.path == "/there-and-back" && i > 0 // home again, after another origin
				if (h.header.Get("X-Jwt") == jwt) == back || (h.header.Get("Authorization") == "") != back {
					t.Errorf("home request %d: headers %v", i, h.header)
				}
				if h.body != `{"token":"body-secret"}` {
					t.Errorf("home request %d: body %q", i, h.body)
				}
			}
			for _, o := range ots {
				var got []string
				for k := range o.header {
					if k != "Accept-Encoding" && k != "Content-Length" {
						got = append(got, k+": "+o.header.Get(k))
					}
				}
				slices.Sort(got)
				if strings.Join(got, "|") != tc.otherHeader {
					t.Errorf("the other origin saw headers %q, want %q", strings.Join(got, "|"), tc.otherHeader)
				}
				if o.body != tc.otherBody {
					t.Errorf("the other origin saw the body %q, want %q", o.body, tc.otherBody)
				}
				all := strings.Join(got, "|") + o.body
				for _, s := range []string{jwt, "user-key-1234", "bearer-1234", "cookie-1234", "session-1234", "text/x-spec"} {
					if strings.Contains(all, s) {
						t.Errorf("the other origin saw %q", s)
					}
				}
			}
		})
	}
}
