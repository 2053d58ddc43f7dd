package twin

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLimiter holds a bucket to its allowance: burst at once, then a
// refusal that spends nothing, then one more each 1/perHour; and a flood
// of addresses keeps at most two generations of maxBuckets.
func TestLimiter(t *testing.T) {
	l := newLimiter(3, 60)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		if !l.take("a", now) {
			t.Fatalf("take %d refused", i+1)
		}
	}
	if l.take("a", now) || l.take("a", now.Add(30*time.Second)) {
		t.Fatal("past the burst, within a minute: taken")
	}
	if !l.take("b", now) {
		t.Fatal("another address shares a's bucket")
	}
	if !l.take("a", now.Add(61*time.Second)) || l.take("a", now.Add(62*time.Second)) {
		t.Fatal("a minute later: not exactly one more")
	}
	for i := range maxBuckets + 10 {
		l.take(strings.Repeat("x", 1)+itoa(i), now)
	}
	if len(l.live)+len(l.old) > 2*maxBuckets {
		t.Errorf("%d buckets kept", len(l.live)+len(l.old))
	}
}

// TestClientAddress keys IPv4 on its host and IPv6 on its /64, whatever
// the port or the mapping.
func TestClientAddress(t *testing.T) {
	for addr, want := range map[string]string{
		"203.0.113.5:443":           "203.0.113.5",
		"[::ffff:203.0.113.5]:1":    "203.0.113.5",
		"[2001:db8:1:2:3:4:5:6]:80": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:81": "2001:db8:1:2::/64",
		"not an address":            "unparseable",
	} {
		if got := clientAddress(&http.Request{RemoteAddr: addr}); got != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
}

// TestCleanClientName holds a name to what the consent page may show.
func TestCleanClientName(t *testing.T) {
	for in, want := range map[string]string{
		"  Test\tapp\n\n# x  ":   "Test app # x",
		"a\u202eb\u200dc\u2028d": "abc d",
		strings.Repeat("é", 100): strings.Repeat("é", 64),
		"bad \xff utf-8":         "bad \uFFFD utf-8",
	} {
		if got := cleanClientName(in); got != want || len(got) > maxClientNameBytes {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
