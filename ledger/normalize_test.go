package ledger

import (
	"encoding/base64"
	"testing"
)

func TestTextTimes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// The reference's examples.
		{"2026-10-02T07:57:40.1+00:00", "2026-10-02T07:57:40.100000+00:00"},
		{"2026-10-02T07:57:40+00:00", "2026-10-02T07:57:40.000000+00:00"},
		{"2026-10-02T07:57:40.123Z", "2026-10-02T07:57:40.123Z"},
		{"2026-10-02T07:57:40.100000+00:00", "2026-10-02T07:57:40.100000+00:00"},
		// More of the pattern.
		{`{"at":"2026-10-02T07:57:40.12345-05:30","z":"2026-10-02T07:57:40Z"}`, `{"at":"2026-10-02T07:57:40.123450-05:30","z":"2026-10-02T07:57:40Z"}`},
		{"T07:57:40.1234567+00:00", "T07:57:40.1234567+00:00"}, // seven digits: no match
		{"T07:57:40.+00:00", "T07:57:40.+00:00"},               // a dot and no digit
		{"T07:57:40+0000", "T07:57:40+0000"},                   // an offset without colon
		{"T07:57:40+00:00:00", "T07:57:40.000000+00:00:00"},    // the pattern ends at the offset
		{"TT07:57:40+00:00", "TT07:57:40.000000+00:00"},
		{"a T1:2:3+00:00 T", "a T1:2:3+00:00 T"},
		{"T07:57:40.1+00:00T07:57:41-01:00", "T07:57:40.100000+00:00T07:57:41.000000-01:00"},
		{"", ""},
		{"no times here", "no times here"},
		{"T07:57:40.1+00:0", "T07:57:40.1+00:0"}, // cut short
	} {
		if got := string(TextTimes().Normalize([]byte(tc.in))); got != tc.want {
			t.Errorf("TextTimes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func TestCanonicalTimes(t *testing.T) {
	inner := `{"at":"2026-10-02T07:57:40.1+00:00","id":"p1"}`
	padded := `{"at":"2026-10-02T07:57:40.100000+00:00","id":"p1"}`
	withPad := base64.URLEncoding.EncodeToString([]byte(inner))
	for _, tc := range []struct{ name, in, want string }{
		{"unpadded", `{"receipt":{"canonical":"` + b64(inner) + `","signature":"x"}}`, `{"receipt":{"canonical":"` + b64(padded) + `","signature":"x"}}`},
		{"padded keeps padding", `"canonical":"` + withPad + `"`, `"canonical":"` + base64.URLEncoding.EncodeToString([]byte(padded)) + `"`},
		{"nothing to pad", `"canonical":"` + b64(padded) + `"`, `"canonical":"` + b64(padded) + `"`},
		{"Z time untouched", `"canonical":"` + b64(`"2026-10-02T07:57:40.123Z"`) + `"`, `"canonical":"` + b64(`"2026-10-02T07:57:40.123Z"`) + `"`},
		{"space after colon is not the field", `"canonical": "` + b64(inner) + `"`, `"canonical": "` + b64(inner) + `"`},
		{"empty value", `"canonical":""`, `"canonical":""`},
		{"unterminated", `"canonical":"` + b64(inner), `"canonical":"` + b64(inner)},
		{"two fields", `"canonical":"` + b64(inner) + `","canonical":"` + b64(inner) + `"`, `"canonical":"` + b64(padded) + `","canonical":"` + b64(padded) + `"`},
	} {
		if got := string(CanonicalTimes().Normalize([]byte(tc.in))); got != tc.want {
			t.Errorf("%s: CanonicalTimes(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestFullWidthTimesBoth(t *testing.T) {
	inner := `{"created_at":"2026-10-02T07:57:40.5+00:00"}`
	in := `{"created_at":"2026-10-02T07:57:40+00:00","receipt":{"canonical":"` + b64(inner) + `"}}`
	want := `{"created_at":"2026-10-02T07:57:40.000000+00:00","receipt":{"canonical":"` + b64(`{"created_at":"2026-10-02T07:57:40.500000+00:00"}`) + `"}}`
	if got := string(FullWidthTimes().Normalize([]byte(in))); got != want {
		t.Errorf("FullWidthTimes = %q, want %q", got, want)
	}
}

func TestNormalizeReturnsSrcWhenUnchanged(t *testing.T) {
	src := []byte(`{"at":"2026-10-02T07:57:40.100000+00:00"}`)
	if got := FullWidthTimes().Normalize(src); &got[0] != &src[0] {
		t.Error("an unchanged text was copied")
	}
}

func TestRegex(t *testing.T) {
	n, err := Regex(`"request_id":"[0-9a-f]+"`, `"request_id":"00000000"`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(n.Normalize([]byte(`{"request_id":"abc123","x":1}`))); got != `{"request_id":"00000000","x":1}` {
		t.Errorf("got %q", got)
	}
	n, err = Regex(`id=(\w+)`, `id=${1}_x`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(n.Normalize([]byte(`id=ab id=c`))); got != `id=ab_x id=c_x` {
		t.Errorf("got %q", got)
	}
	if _, err := Regex(`(`, ``); err == nil {
		t.Error("a bad pattern gave no error")
	}
}

func TestChainOrder(t *testing.T) {
	a, _ := Regex(`a`, `b`)
	b, _ := Regex(`b`, `c`)
	if got := string(Chain(a, b).Normalize([]byte("a"))); got != "c" {
		t.Errorf("a then b: %q", got)
	}
	if got := string(Chain(b, a).Normalize([]byte("a"))); got != "b" {
		t.Errorf("b then a: %q", got)
	}
}

func TestByName(t *testing.T) {
	for _, name := range []string{NameFullWidthTimes, NameTextTimes, NameCanonicalTimes} {
		n, err := ByName(name)
		if err != nil || n.Name() != name {
			t.Errorf("ByName(%q) = %v, %v", name, n, err)
		}
	}
	if _, err := ByName("full-width"); err == nil {
		t.Error("an unknown name gave no error")
	}
}
