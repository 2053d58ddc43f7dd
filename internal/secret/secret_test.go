package secret_test

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/internal/secret"
)

func TestHeader(t *testing.T) {
	for name, want := range map[string]bool{
		"Authorization": true, "proxy-authorization": true, "Cookie": true,
		"X-Api-Key": true, "X-API-KEY": true, "Api-Key": true, "X-Auth-Token": true, "X-Access-Token": true,
		"X-Session-Id": true, "X-Client-Secret": true, "X-Password": true, "apikey": true, "X-Signature": true,
		"X-Jwt": true, "Jwt-Assertion": true, "X-Userkey": true, "X-Bearer": true,
		"Content-Type": false, "Accept": false, "Accept-Encoding": false, "Mcp-Protocol-Version": false,
		"User-Agent": false, "X-Request-Id": false, "Accept-Language": false, "Keystone": false,
	} {
		if got := secret.Header(name); got != want {
			t.Errorf("Header(%q) = %v, want %v", name, got, want)
		}
	}
	if !secret.Header("X-Tenant", "x-tenant") {
		t.Error("a header marked as a credential is not one")
	}
}

// TestEverySpelling hides a secret in each form a server may echo it in,
// Node's JSON.stringify among them, and wants none of it left.
func TestEverySpelling(t *testing.T) {
	const s = `tok/en+é"<x>&\ 😀 long-enough`
	node := nodeoracle.Stringify(t, []byte(`"`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)+`"`))
	forms := []string{
		s,
		string(node[1 : len(node)-1]),
		url.QueryEscape(s), url.PathEscape(s), strings.ToLower(url.QueryEscape(s)),
		base64.StdEncoding.EncodeToString([]byte(s)),
		base64.RawURLEncoding.EncodeToString([]byte(s)),
		base64.StdEncoding.EncodeToString([]byte("user:" + s)), // at another alignment
		base64.StdEncoding.EncodeToString([]byte("u:" + s)),
		base64.StdEncoding.EncodeToString([]byte("ab:" + s)),
	}
	r := secret.New(s)
	for _, f := range forms {
		text := "before " + f + " after"
		got := r.String(text)
		if !strings.Contains(got, secret.Mask) || strings.Contains(got, f) {
			t.Errorf("%q: redacted to %q", f, got)
		}
		// What is left of a base64 form is at most the characters the
		// text around the secret shares.
		if strings.Count(got, secret.Mask) == 1 {
			left := strings.TrimSuffix(strings.TrimPrefix(got, "before "), " after")
			left = strings.Replace(left, secret.Mask, "", 1)
			if len(left) > 12 { // "user:" alone is 7 characters of base64
				t.Errorf("%q: %q left around the mask", f, left)
			}
		}
	}
	if got := secret.Redact("abc and abc", []string{"abc"}); got != "abc and abc" {
		t.Errorf("a 3-byte secret was redacted: %q", got)
	}
}
