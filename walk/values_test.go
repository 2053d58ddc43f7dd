package walk

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	sc := &scope{}
	sc.secret("kept-SECRET-value")
	sc.secret("abc") // too short to redact
	for _, tc := range []struct{ in, want string }{
		{`{"token":"t1"}`, `{"token":"[redacted]"}`},
		{`{"access_token": "t2", "refresh_token":"t3"}`, `{"access_token": "[redacted]", "refresh_token":"[redacted]"}`},
		{`{"client_secret":"s","secret":"s2","password":"p"}`, `{"client_secret":"[redacted]","secret":"[redacted]","password":"[redacted]"}`},
		{`{"api_key":"k","apiKey":"k2","X-Api-Key":"k3","private_key":"pk"}`, `{"api_key":"[redacted]","apiKey":"[redacted]","X-Api-Key":"[redacted]","private_key":"[redacted]"}`},
		{`{"my_access_token":"m","x-refresh-token":"r"}`, `{"my_access_token":"[redacted]","x-refresh-token":"[redacted]"}`},
		{`{"seed":"00ff","code_verifier":"v","authorization":"Bearer x"}`, `{"seed":"[redacted]","code_verifier":"[redacted]","authorization":"[redacted]"}`},
		{`{"Token":"a \" quote"}`, `{"Token":"[redacted]"}`},
		{`{"public_key":"pub","challenge":"c","peer_id":"p"}`, `{"public_key":"pub","challenge":"c","peer_id":"p"}`},
		{`{"tokens":12}`, `{"tokens":12}`},
		{`POST /x?token=q1&a=b&api_key=q2`, `POST /x?token=[redacted]&a=b&api_key=[redacted]`},
		{`grant_type=code&code_verifier=v&client_secret=s`, `grant_type=code&code_verifier=[redacted]&client_secret=[redacted]`},
		{`echo: kept-SECRET-value, abc`, `echo: [redacted], abc`},
		{`{"text":"{\"token\":\"t4\",\"n\":1}"}`, `{"text":"{\"token\":\"[redacted]\",\"n\":1}"}`},
		{`{"text":"{\"token\":\"a \\\" q\"}"}`, `{"text":"{\"token\":\"[redacted]\"}"}`},
		{`"{\\\"secret\\\":\\\"deep\\\"}"`, `"{\\\"secret\\\":\\\"[redacted]\\\"}"`},
		{`echo: a2VwdC1TRUNSRVQtdmFsdWU= and kept-SECRET-value%21`, `echo: [redacted] and [redacted]%21`},
	} {
		if got := sc.redact(tc.in); got != tc.want {
			t.Errorf("redact(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"token": true, "agent.token": true, "owner.key.seed": true, "app.verifier": true,
		"api_key": true, "apikey": true, "private_key": true, "client_secret": true,
		"public_key": false, "challenge": false, "number": false, "tokens": false,
	} {
		if got := secretName.MatchString(name); got != want {
			t.Errorf("secretName(%q) = %v, want %v", name, got, want)
		}
	}
}

// What did not hold stays on the failure's first line; a long value is cut
// on a character boundary.
func TestFailureWhatIsOneLine(t *testing.T) {
	r := &runner{spec: &Spec{Name: "w"}, sc: &scope{}}
	st := &Step{File: "w.yaml", Line: 3, Part: "p"}
	f := r.fail(st, 0, "the tool result is an error (isError true): a\nb\r\nc", nil)
	if want := `walk w: w.yaml:3: step "p": the tool result is an error (isError true): a\nb\nc`; f.Error() != want {
		t.Errorf("got %q, want %q", f.Error(), want)
	}
	long := strings.Repeat("a", 199) + "é and more"
	if got := clip(long); got != strings.Repeat("a", 199)+"..." {
		t.Errorf("clip cut inside a character: %q", got)
	}
}

// TestRenderCapped holds a rendered value to MaxValue: a value that a
// template doubles past it is refused (what Check cannot count, a kept
// value doubled run by run, ends here), one at the cap is not.
func TestRenderCapped(t *testing.T) {
	half := strings.Repeat("x", MaxValue/2)
	lookup := func(name string) (string, bool) {
		if name == "one" {
			return "y", true
		}
		return half, true
	}
	if got, err := render("{{h}}{{h}}", lookup); err != nil || len(got) != MaxValue {
		t.Errorf("render at the cap: %d bytes, %v; want %d, nil", len(got), err, MaxValue)
	}
	if _, err := render("{{h}}{{h}}{{one}}", lookup); err == nil || !strings.Contains(err.Error(), "renders to more than 16 MiB") {
		t.Errorf("render past the cap: %v, want the cap's error", err)
	}
}
