package twin_test

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// apiNoRedirect is a client that hands back redirects instead of
// following them.
var apiNoRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func tokenForm(t *testing.T, base string, form url.Values) (int, []byte) {
	t.Helper()
	resp, err := http.PostForm(base+"/oauth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func TestOAuthAppToken(t *testing.T) {
	srv, _ := apiServer(t)
	person := apiLogin(t, srv)

	md := apiMust(t, srv, 200, "GET", "/.well-known/oauth-authorization-server", "", nil)
	if md.Get("registration_endpoint").String() != srv.URL+"/oauth/register" || md.Get("code_challenge_methods_supported.0").String() != "S256" {
		t.Errorf("metadata: %s", md.Body)
	}
	pr := apiMust(t, srv, 200, "GET", "/.well-known/oauth-protected-resource/mcp/connect", "", nil)
	resource := srv.URL + "/mcp/connect"
	if pr.Get("resource").String() != resource {
		t.Errorf("protected resource: %s", pr.Body)
	}

	reg := apiMust(t, srv, 201, "POST", "/oauth/register", "", map[string]any{
		"client_name": "Test app", "redirect_uris": []string{"http://127.0.0.1:9/cb"}})
	client := reg.Get("client_id").String()

	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	authz := srv.URL + "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {client},
		"redirect_uri": {"http://127.0.0.1:9/cb"}, "code_challenge": {challenge}, "code_challenge_method": {"S256"},
		"state": {"xyz"}, "resource": {resource}}.Encode()
	resp, err := apiNoRedirect.Get(authz)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Path != "/connect/consent" {
		t.Fatalf("authorize: %d %s", resp.StatusCode, loc)
	}
	req := loc.Query().Get("request")
	apiMust(t, srv, 200, "GET", "/connect/consent?request="+req, "", nil)

	// Approval needs a KEY's token.
	apiMust(t, srv, 401, "POST", "/v1/authorizations/"+req+"/approve", "", nil)
	ap := apiMust(t, srv, 200, "POST", "/v1/authorizations/"+req+"/approve", person.Token, nil)
	to, _ := url.Parse(ap.Get("redirect_to").String())
	code := to.Query().Get("code")
	if to.Host != "127.0.0.1:9" || code == "" || to.Query().Get("state") != "xyz" {
		t.Fatalf("redirect_to: %s", ap.Body)
	}
	apiMust(t, srv, 409, "POST", "/v1/authorizations/"+req+"/approve", person.Token, nil)

	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {verifier},
		"redirect_uri": {"http://127.0.0.1:9/cb"}, "client_id": {client}, "resource": {resource}}
	bad := func(field, value, wantErr string) {
		t.Helper()
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		f.Set(field, value)
		status, body := tokenForm(t, srv.URL, f)
		if status != 400 || !strings.Contains(string(body), `"error":"`+wantErr+`"`) {
			t.Errorf("token with %s=%q: %d %s", field, value, status, body)
		}
	}
	bad("code_verifier", strings.Repeat("w", 50), "invalid_grant")
	bad("code_verifier", challenge, "invalid_grant")
	bad("client_id", "cl_other", "invalid_grant")
	bad("redirect_uri", "http://127.0.0.1:9/other", "invalid_grant")
	bad("resource", srv.URL+"/mcp", "invalid_target")
	bad("grant_type", "refresh_token", "unsupported_grant_type")

	status, body := tokenForm(t, srv.URL, form)
	if status != 200 {
		t.Fatalf("token: %d %s", status, body)
	}
	tok := apiAnswer{Body: body}
	app := tok.Get("access_token").String()
	if tok.Get("token_type").String() != "Bearer" || tok.Get("expires_in").Int() != 3600 || !strings.HasPrefix(app, "at_") {
		t.Errorf("token answer: %s", body)
	}
	// The app token speaks for the person's KEY, as an app.
	me := apiMust(t, srv, 200, "GET", "/v1/me", app, nil)
	if me.Get("peer_id").String() != person.Peer || me.Get("mailbox_head").String() != "0" {
		t.Errorf("me with the app token: %s", me.Body)
	}
	// An app token cannot approve another app.
	resp, err = apiNoRedirect.Get(authz)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ = url.Parse(resp.Header.Get("Location"))
	a := apiMust(t, srv, 403, "POST", "/v1/authorizations/"+loc.Query().Get("request")+"/approve", app, nil)
	if a.Get("error.code").String() != "INSUFFICIENT_SCOPE" {
		t.Errorf("approve with an app token: %s", a.Body)
	}
	// The code is used once; used again, the token it gave is revoked too
	// (OAuth 2.1: a replayed code is a stolen one).
	if status, _ := tokenForm(t, srv.URL, form); status != 400 {
		t.Errorf("a code used twice: %d", status)
	}
	if a := apiMust(t, srv, 401, "GET", "/v1/me", app, nil); a.Get("error.code").String() != "TOKEN_INVALID" {
		t.Errorf("the token of a code used twice still works: %s", a.Body)
	}
}

func TestOAuthAuthorizeRefusals(t *testing.T) {
	srv, _ := apiServer(t)
	reg := apiMust(t, srv, 201, "POST", "/oauth/register", "", map[string]any{"redirect_uris": []string{"https://app.example/cb"}})
	client := reg.Get("client_id").String()
	apiMust(t, srv, 400, "POST", "/oauth/register", "", map[string]any{"redirect_uris": []string{}})
	apiMust(t, srv, 400, "POST", "/oauth/register", "", map[string]any{"redirect_uris": []string{"http://evil.example/cb"}})
	// Only https, or http to a loopback address: a scheme that runs or
	// reads what the code is sent to is refused.
	for _, u := range []string{"javascript:alert(document.cookie)", "JavaScript://x/%0aalert(1)", "data:text/html,<script>x</script>",
		"file:///etc/passwd", "vbscript:msgbox", "myapp://cb", "ftp://x/cb", "https:///nohost", "https://app.example/cb#frag"} {
		a := apiMust(t, srv, 400, "POST", "/oauth/register", "", map[string]any{"redirect_uris": []string{"https://app.example/ok", u}})
		if a.Get("error").String() != "invalid_redirect_uri" {
			t.Errorf("%s: %s", u, a.Body)
		}
	}
	apiMust(t, srv, 201, "POST", "/oauth/register", "", map[string]any{"redirect_uris": []string{"http://localhost:8080/cb", "http://[::1]/cb"}})
	apiMust(t, srv, 400, "POST", "/oauth/register", "", "{")

	get := func(v url.Values) *http.Response {
		resp, err := apiNoRedirect.Get(srv.URL + "/oauth/authorize?" + v.Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := get(url.Values{"client_id": {"nobody"}}); r.StatusCode != 400 {
		t.Errorf("unknown client: %d", r.StatusCode)
	}
	if r := get(url.Values{"client_id": {client}, "redirect_uri": {"https://other.example/cb"}}); r.StatusCode != 400 {
		t.Errorf("unregistered redirect_uri: %d", r.StatusCode)
	}
	// No PKCE: back to the app with an error.
	r := get(url.Values{"client_id": {client}, "response_type": {"code"}, "state": {"s1"}})
	loc, _ := url.Parse(r.Header.Get("Location"))
	if r.StatusCode != 302 || loc.Host != "app.example" || loc.Query().Get("error") != "invalid_request" || loc.Query().Get("state") != "s1" {
		t.Errorf("no PKCE: %d %s", r.StatusCode, loc)
	}
	r = get(url.Values{"client_id": {client}, "response_type": {"code"}, "code_challenge": {"abc"},
		"code_challenge_method": {"S256"}, "resource": {srv.URL + "/mcp"}})
	loc, _ = url.Parse(r.Header.Get("Location"))
	if loc.Query().Get("error") != "invalid_target" {
		t.Errorf("wrong resource: %s", loc)
	}
	apiMust(t, srv, 404, "POST", "/v1/authorizations/ar_none/approve", apiLogin(t, srv).Token, nil)
}
