package twin

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// What a caller holding no token can make the twin keep is bounded, as
// the service bounds it (its src/http/ratelimit.ts and
// src/oauth/clients.ts, read at 0e9166e): challenges to register a KEY
// (which expire in five minutes), registrations of apps and requests to
// connect one are rationed per address (an IPv4 host, an IPv6
// /64) in token buckets, larger than the service's where the walks of a
// CI run, all from one address, would meet them; an app registered that never got a token is
// forgotten a day later; a registration keeps at most 10 redirect URIs of
// at most 2,048 bytes and a name of at most 128 bytes, cleaned of what is
// not seen. A refusal is RATE_LIMITED, 429, with Retry-After: 60 and no
// numbers (the buckets are shared by everybody behind one address).

const (
	// appRegistrationBurst and appRegistrationsPerHour ration POST
	// /oauth/register per address: a hundred times the service's (10 at
	// once, 60 an hour), since every walk of a CI run, each registering
	// its app, comes from the one address of the runner.
	appRegistrationBurst    = 1000
	appRegistrationsPerHour = 6000
	// appConnectionBurst and appConnectionsPerHour ration GET
	// /oauth/authorize per address: a hundred times the service's (30 at
	// once, 300 an hour), for the same reason.
	appConnectionBurst    = 3000
	appConnectionsPerHour = 30000
	// keyChallengeBurst and keyChallengesPerHour ration POST
	// /v1/keys/challenge per address, as the service rations registering
	// a KEY (its REGISTRATION_BURST and REGISTRATION_PER_HOUR defaults).
	keyChallengeBurst    = 10000
	keyChallengesPerHour = 100000
	// maxClients is the most registered apps the twin keeps at once.
	maxClients = 20000
	// unusedClientTTL is how long an app that never got a token is kept.
	unusedClientTTL = 24 * time.Hour
	// maxClientNameBytes is the most bytes of UTF-8 a client_name keeps.
	maxClientNameBytes = 128
	// maxRedirectURIs and maxRedirectURIBytes bound a registration's
	// redirect_uris.
	maxRedirectURIs     = 10
	maxRedirectURIBytes = 2048
	// maxBuckets is the most per-address buckets kept; past it the oldest
	// generation is dropped (a caller in it starts full again).
	maxBuckets = 100000
)

// bucket is a token bucket: what is left, and when it was last filled.
type bucket struct {
	tokens float64
	at     time.Time
}

// limiter is the per-address buckets of one allowance, in two
// generations so that a flood of addresses costs memory in proportion to
// maxBuckets, never to the requests.
type limiter struct {
	burst   float64
	perHour float64
	live    map[string]*bucket
	old     map[string]*bucket
}

func newLimiter(burst, perHour int) *limiter {
	return &limiter{burst: float64(burst), perHour: float64(perHour), live: map[string]*bucket{}, old: map[string]*bucket{}}
}

// take spends one from addr's bucket at now, or reports false when it is
// empty (a refusal spends nothing).
func (l *limiter) take(addr string, now time.Time) bool {
	b := l.live[addr]
	if b == nil {
		b = l.old[addr]
		if b == nil {
			b = &bucket{tokens: l.burst, at: now}
		}
		if len(l.live) >= maxBuckets {
			l.old, l.live = l.live, map[string]*bucket{}
		}
		l.live[addr] = b
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(l.burst, b.tokens+d.Hours()*l.perHour)
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// clientAddress is the bucket a request's address belongs to: its IPv4
// host, or its IPv6 /64 (one subscriber is handed a whole /64), from the
// connection (the twin sits behind no proxy).
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return "unparseable"
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// refuseRateLimited answers RATE_LIMITED with a flat minute to wait.
func refuseRateLimited(w http.ResponseWriter, r *http.Request, detail string) {
	w.Header().Set("Retry-After", "60")
	writeError(w, r, refuse("RATE_LIMITED", detail, "Wait a minute and send the request again."))
}

// pruneClients forgets the apps registered before now-unusedClientTTL
// that never got a token. The caller holds a.mu.
func (a *apiState) pruneClients(now time.Time) {
	for id, cl := range a.clients {
		if !cl.Used && now.Sub(cl.Issued) > unusedClientTTL {
			delete(a.clients, id)
		}
	}
}

// cleanClientName is the name an app gave itself as the twin keeps and
// shows it: control characters and line or paragraph separators as
// spaces, format characters (direction marks, zero-width joiners) taken
// out, runs of white space as one, trimmed, and cut between two
// characters to at most maxClientNameBytes bytes.
func cleanClientName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', unicode.IsSpace(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			if b.Len()+1+utf8.RuneLen(r) > maxClientNameBytes {
				break
			}
			b.WriteByte(' ')
		}
		space = false
		if b.Len()+utf8.RuneLen(r) > maxClientNameBytes {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// clip is s cut to at most n bytes between two characters, with "..."
// when it was cut: what an answer quotes of a caller's text.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
