package twin_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/twin"
)

// apiClock is a clock tests move by hand.
type apiClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *apiClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *apiClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// apiServer starts a twin on loopback with a hand-moved clock.
func apiServer(t testing.TB) (*httptest.Server, *apiClock) {
	t.Helper()
	clock := &apiClock{t: time.Date(2026, 10, 2, 7, 57, 40, 100000000, time.UTC)}
	srv := httptest.NewServer(twin.New(twin.Options{Now: clock.Now}))
	t.Cleanup(srv.Close)
	return srv, clock
}

// apiAnswer is one HTTP answer.
type apiAnswer struct {
	Status int
	Header http.Header
	Body   []byte
}

func (a apiAnswer) Get(path string) gjson.Result { return gjson.GetBytes(a.Body, path) }

// apiDo sends one request. body is JSON-encoded unless it is a string.
func apiDo(t testing.TB, srv *httptest.Server, method, path, token string, body any) apiAnswer {
	t.Helper()
	a, err := apiSend(srv, method, path, token, body)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// apiSend sends one request; it is safe to call from any goroutine.
func apiSend(srv *httptest.Server, method, path, token string, body any) (apiAnswer, error) {
	return apiSendTo(srv.Client(), srv.URL, method, path, token, body)
}

// apiSendTo is apiSend to the twin at base, with client.
func apiSendTo(client *http.Client, base, method, path, token string, body any) (apiAnswer, error) {
	body = twin.FillDefaults(method, path, body)
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			j, err := json.Marshal(b)
			if err != nil {
				return apiAnswer{}, err
			}
			rd = bytes.NewReader(j)
		}
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return apiAnswer{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		return apiAnswer{}, fmt.Errorf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return apiAnswer{}, err
	}
	return apiAnswer{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// apiMust sends a request and fails the test unless the status is want.
func apiMust(t testing.TB, srv *httptest.Server, want int, method, path, token string, body any) apiAnswer {
	t.Helper()
	a := apiDo(t, srv, method, path, token, body)
	if a.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, a.Status, want, a.Body)
	}
	return a
}

// apiKey is a KEY held by a test.
type apiKey struct {
	pub   ed25519.PublicKey
	priv  ed25519.PrivateKey
	Peer  string
	Token string
}

func newAPIKey(t testing.TB) *apiKey {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &apiKey{pub: pub, priv: priv}
}

func (k *apiKey) PubHex() string { return hex.EncodeToString(k.pub) }

// preimage is the message a KEY signs, built here independently of the
// server's code.
func preimage(audience, challengeHex string) []byte {
	chal, _ := hex.DecodeString(challengeHex)
	var b bytes.Buffer
	b.WriteString("agent-state:token-challenge:v1")
	b.WriteByte(0)
	b.WriteString(audience)
	b.WriteByte(0)
	b.Write(chal)
	return b.Bytes()
}

// login runs challenge and verify; extra fields go into verify's body.
func (k *apiKey) login(t testing.TB, srv *httptest.Server, extra map[string]any) apiAnswer {
	t.Helper()
	ch := apiMust(t, srv, 200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": k.PubHex()})
	sig := ed25519.Sign(k.priv, preimage(ch.Get("audience").String(), ch.Get("challenge").String()))
	body := map[string]any{"public_key": k.PubHex(), "challenge": ch.Get("challenge").String(), "signature": hex.EncodeToString(sig)}
	for n, v := range extra {
		body[n] = v
	}
	v := apiMust(t, srv, 200, "POST", "/v1/keys/verify", "", body)
	k.Token = v.Get("token").String()
	k.Peer = v.Get("peer_id").String()
	return v
}

func apiLogin(t testing.TB, srv *httptest.Server) *apiKey {
	k := newAPIKey(t)
	k.login(t, srv, nil)
	return k
}

// trialSpace is the walks' set-up: a work space with a document, one task
// and an invite link, made by owner.
func trialSpace(t testing.TB, srv *httptest.Server, owner *apiKey, role string) (space, link string) {
	t.Helper()
	sp := apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{
		"kind": "work", "title": "Trial", "document": "How to work here: take a task, post a result."})
	space = sp.Get("name").String()
	apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/tasks", owner.Token, map[string]any{
		"title": "Count the bytes", "body": "Count what the primer costs."})
	inv := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", owner.Token, map[string]any{"role": role})
	return space, inv.Get("link").String()
}

func q(s string) string { return url.QueryEscape(s) }

// apiDoHeader sends a GET with one extra header.
func apiDoHeader(t testing.TB, srv *httptest.Server, method, path, name, value string) apiAnswer {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(name, value)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return apiAnswer{Status: resp.StatusCode, Header: resp.Header, Body: b}
}
