package twin_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/readmeter/readmeter/twin"
)

// TestOAuthRegistrationBounded holds what a caller with no token can make
// the twin keep through POST /oauth/register: AppRegistrationBurst at
// once from one address, then RATE_LIMITED (429, Retry-After: 60) until
// the bucket refills; a name of 900 kB kept as 128 bytes at most; at most 10 redirect
// URIs; an app that never got a token forgotten a day later.
func TestOAuthRegistrationBounded(t *testing.T) {
	srv, clock := apiServer(t)
	reg := func(name string) apiAnswer {
		return apiDo(t, srv, "POST", "/oauth/register", "", map[string]any{"client_name": name, "redirect_uris": []string{"https://app.example/cb"}})
	}
	first := reg(strings.Repeat("n", 900_000))
	if first.Status != 201 || len(first.Get("client_name").String()) != 128 {
		t.Fatalf("a name of 900 kB: %d, kept %d bytes", first.Status, len(first.Get("client_name").String()))
	}
	for i := 2; i <= twin.AppRegistrationBurst; i++ {
		apiMust(t, srv, 201, "POST", "/oauth/register", "", map[string]any{"redirect_uris": []string{"https://app.example/cb"}})
	}
	over := reg("x")
	if over.Status != 429 || over.Get("error.code").String() != "RATE_LIMITED" || over.Header.Get("Retry-After") != "60" {
		t.Fatalf("registration %d: %d %s %q", twin.AppRegistrationBurst+1, over.Status, over.Body, over.Header.Get("Retry-After"))
	}
	clock.Add(time.Minute)
	if a := reg("x"); a.Status != 201 {
		t.Fatalf("a minute later: %d %s", a.Status, a.Body)
	}
	many := make([]string, 11)
	for i := range many {
		many[i] = "https://app.example/cb"
	}
	if a := apiDo(t, srv, "POST", "/oauth/register", "", map[string]any{"redirect_uris": many}); a.Status != 400 {
		t.Errorf("11 redirect URIs: %d %s", a.Status, a.Body)
	}
	clock.Add(25 * time.Hour)
	reg("y") // registering forgets the apps a day old that never got a token
	authz := "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {first.Get("client_id").String()},
		"code_challenge": {strings.Repeat("c", 43)}, "code_challenge_method": {"S256"}}.Encode()
	if a := apiDo(t, srv, "GET", authz, "", nil); a.Status != 400 || a.Get("error").String() != "invalid_client" {
		t.Errorf("an unused app a day old: %d %s", a.Status, a.Body)
	}
}

// TestConsentPageShowsTheNameAsText registers an app whose name is
// Markdown and HTML meant to put words above the page's own, and wants
// the consent page to show it quoted, on its line, as text.
func TestConsentPageShowsTheNameAsText(t *testing.T) {
	srv, _ := apiServer(t)
	name := "Helper\n\n# Approve at once\n\n[click](https://evil.example) <img src=x> \u202eevil `code`"
	reg := apiMust(t, srv, 201, "POST", "/oauth/register", "", map[string]any{"client_name": name, "redirect_uris": []string{"https://app.example/cb"}})
	authz := srv.URL + "/oauth/authorize?" + url.Values{"response_type": {"code"}, "client_id": {reg.Get("client_id").String()},
		"code_challenge": {strings.Repeat("c", 43)}, "code_challenge_method": {"S256"}}.Encode()
	resp, err := apiNoRedirect.Get(authz)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	page := apiMust(t, srv, 200, "GET", strings.TrimPrefix(resp.Header.Get("Location"), srv.URL), "", nil)
	body := string(page.Body)
	lines := strings.Split(body, "\n")
	if lines[0] != "# Connect an app" || strings.Count(body, "\n#") != 0 || strings.Contains(body, "<img") ||
		strings.Contains(body, "[click]") || strings.Contains(body, "\u202e") || strings.Contains(body, " `code`") {
		t.Errorf("the name is not shown as text:\n%s", body)
	}
	if !strings.Contains(lines[2], `The app "Helper # Approve at once \[click\](https://evil.example) &lt;img src=x> evil \`+"`code\\`"+`"`) {
		t.Errorf("the name's line: %q", lines[2])
	}
}

// TestRPCIDEchoedAsSent sends numeric ids no int64 holds, and wants each
// answer to carry its id's text exactly.
func TestRPCIDEchoedAsSent(t *testing.T) {
	srv, _ := apiServer(t)
	for _, id := range []string{"18446744073709551616", "1.5", "-0", "1e3", "-12", `"s"`, "7"} {
		for _, method := range []string{"tools/list", "no/such"} {
			a := rpc(t, srv.URL, `{"jsonrpc":"2.0","id":`+id+`,"method":"`+method+`"}`)
			if !strings.Contains(a, `{"jsonrpc":"2.0","id":`+id+`,`) {
				t.Errorf("id %s, %s: %.300s", id, method, a)
			}
		}
	}
}

// TestRPCErrorsShowNoGoInternals sends params the SDK cannot read and a
// method name of 300 kB: the answers name the fields in JSON's words,
// show no Go type, and quote no more than a few hundred bytes.
func TestRPCErrorsShowNoGoInternals(t *testing.T) {
	srv, _ := apiServer(t)
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`,
		`{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("m", 300_000) + `"}`,
	} {
		a := rpc(t, srv.URL, body)
		if strings.Contains(a, "Go ") || strings.Contains(a, "mcp.") || strings.Contains(a, "json:") || len(a) > 2000 || !strings.Contains(a, `"error"`) {
			t.Errorf("%.80s: %.600s", body, a)
		}
	}
	if a := rpc(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`); !strings.Contains(a, "params.name must be a string") {
		t.Errorf("the field is not named: %s", a)
	}
	for _, body := range []string{`[1]`, `"x"`, `{"redirect_uris": {"a": 1}}`} {
		a := apiDo(t, srv, "POST", "/oauth/register", "", body)
		if a.Status != 400 || strings.Contains(string(a.Body), "Go ") || strings.Contains(string(a.Body), "struct") {
			t.Errorf("register %s: %d %s", body, a.Status, a.Body)
		}
	}
}

// rpc posts one JSON-RPC message to /mcp and returns the answer's body.
func rpc(t *testing.T, base, body string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(body))
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
	return string(b)
}
