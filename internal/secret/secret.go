// Package secret knows credentials: which headers carry them, and every
// spelling a secret value may take in an answer, so that none is printed
// or written.
//
//	if secret.Header(name, extra...) { redactor.Add(value) }
//	line = secret.Redact(line, secrets)   // as is, JSON-escaped, URL-encoded, base64
//
// The stance: a header is a credential when its name says so (an
// Authorization, a cookie, a key, a token, a JWT, a secret, a session, a
// password), or when a spec or flag marks it; a secret is redacted in
// every form a server may echo it in: as sent, JSON-escaped (as Node and
// Go escape, "/" as "\/", non-ASCII as \uXXXX), URL-encoded (query and
// path forms, either hex case), and base64 (standard and URL alphabets, at
// any of the three byte alignments inside a longer encoded text).
package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// Mask is what a secret is replaced with.
const Mask = "[redacted]"

// MinLen is the shortest secret redacted: shorter ones would mangle the
// text around them.
const MinLen = 4

// credentialWords are the parts of a header name that make it a
// credential's, between the name's ends and "-", "_" or ".".
var credentialWords = []string{
	"auth", "authorization", "cookie", "set-cookie", "token", "secret", "session", "password", "passwd",
	"credential", "credentials", "signature", "apikey", "api-key", "api_key", "accesskey", "access-key",
	"access_key", "privatekey", "private-key", "private_key", "key", "jwt", "bearer",
}

// credentialName reports whether name says it carries a credential, as
// the regular expression
//
//	(?i)(^|[-_.])(auth|authorization|cookie|set-cookie|token|secret|session|password|passwd|credential|credentials|signature|api[-_]?key|apikey|access[-_]?key|private[-_]?key|key|jwt|bearer)($|[-_.])|apikey|authtoken|accesstoken|sessionid|jwt|[a-z]key$
//
// matches it: a credential word as a part, one of a few words anywhere,
// or a letter and "key" at the end.
func credentialName(name string) bool {
	n := foldASCII(name)
	for _, w := range credentialWords {
		for i := 0; ; {
			j := strings.Index(n[i:], w)
			if j < 0 {
				break
			}
			at, end := i+j, i+j+len(w)
			if (at == 0 || isSep(n[at-1])) && (end == len(n) || isSep(n[end])) {
				return true
			}
			i = at + 1
		}
	}
	for _, w := range []string{"apikey", "authtoken", "accesstoken", "sessionid", "jwt"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return len(n) >= 4 && strings.HasSuffix(n, "key") && 'a' <= n[len(n)-4] && n[len(n)-4] <= 'z'
}

func isSep(c byte) bool { return c == '-' || c == '_' || c == '.' }

// foldASCII returns name one byte a character, as a case-insensitive
// regular expression of ASCII sees it: letters in lower case, the two
// characters that fold to ASCII letters (U+017F long s, U+212A Kelvin
// sign) as "s" and "k", any other character outside ASCII (and a byte
// of invalid UTF-8) as 0x80, which nothing matches.
func foldASCII(name string) string {
	b := make([]byte, 0, len(name))
	for _, r := range name {
		switch {
		case 'A' <= r && r <= 'Z':
			b = append(b, byte(r)+'a'-'A')
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		case r == 0x17f:
			b = append(b, 's')
		case r == 0x212a:
			b = append(b, 'k')
		default:
			b = append(b, 0x80)
		}
	}
	return string(b)
}

// Header reports whether a header named name carries a credential:
// Authorization, Proxy-Authorization, Cookie, a name with a part such as
// Key, Api-Key, Token, Secret, Session, Password or Auth (X-Api-Key,
// X-Auth-Token, X-Session-Id), a JWT (X-Jwt), a name ending in key
// (X-Userkey), or one of extra (any case).
func Header(name string, extra ...string) bool {
	for _, e := range extra {
		if strings.EqualFold(strings.TrimSpace(e), name) {
			return true
		}
	}
	switch strings.ToLower(name) {
	case "authorization", "proxy-authorization", "cookie":
		return true
	}
	return credentialName(name)
}

// Spellings returns the forms s may take in an answer (s first), without
// repeats; nil when s is shorter than MinLen.
func Spellings(s string) []string {
	if len(s) < MinLen {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(v string) {
		if len(v) >= MinLen && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	add(s)
	// JSON-escaped, as Go writes it (<, >, & as \u00XX), as Node writes
	// it, with "/" escaped, and with every non-ASCII character escaped.
	if b, err := json.Marshal(s); err == nil {
		g := string(b[1 : len(b)-1])
		add(g)
		node := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(g)
		add(node)
		add(strings.ReplaceAll(node, "/", `\/`))
		add(asciiJSON(node))
		// Escaped twice: a JSON text inside a JSON string.
		if b2, err := json.Marshal(node); err == nil {
			add(strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(b2[1 : len(b2)-1])))
		}
	}
	// URL-encoded.
	for _, v := range []string{url.QueryEscape(s), url.PathEscape(s), strings.ReplaceAll(url.QueryEscape(s), "+", "%20")} {
		add(v)
		add(lowerHex(v))
	}
	// base64, at each alignment of s inside a longer text.
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		add(enc.EncodeToString([]byte(s)))
		add(enc.WithPadding(base64.NoPadding).EncodeToString([]byte(s)))
		for k := 0; k < 3; k++ {
			if k > 0 && len(s) < 8 {
				break // a short core would match by chance
			}
			add(core(enc, s, k))
		}
	}
	return out
}

// core returns the base64 characters fixed by s alone when s starts k bytes
// into the encoded text.
func core(enc *base64.Encoding, s string, k int) string {
	buf := append(make([]byte, k), s...)
	e := enc.EncodeToString(buf)
	n := len(s)
	lo := (8*k + 5) / 6
	hi := 8 * (k + n) / 6
	if hi > len(e) || lo >= hi {
		return ""
	}
	return e[lo:hi]
}

func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		if r > 0xFFFF {
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			continue
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// lowerHex writes the hex digits of each %XX escape in lower case.
func lowerHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' && isUpperHex(b[i+1]) && isUpperHex(b[i+2]) {
			b[i+1], b[i+2] = lower(b[i+1]), lower(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Redactor replaces every spelling of a set of secrets.
type Redactor struct {
	forms [][]byte // longest first
}

// New returns a Redactor for secrets (empty and short ones are ignored).
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// Add adds secrets.
func (r *Redactor) Add(secrets ...string) {
	for _, s := range secrets {
		for _, f := range Spellings(s) {
			r.forms = append(r.forms, []byte(f))
		}
	}
	sort.SliceStable(r.forms, func(i, j int) bool { return len(r.forms[i]) > len(r.forms[j]) })
}

// Bytes returns b with every spelling of every secret replaced by Mask.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	for _, f := range r.forms {
		if bytes.Contains(b, f) {
			b = bytes.ReplaceAll(b, f, []byte(Mask))
		}
	}
	return b
}

// String is Bytes for a string.
func (r *Redactor) String(s string) string {
	if r == nil || len(r.forms) == 0 {
		return s
	}
	return string(r.Bytes([]byte(s)))
}

// Redact returns s with every spelling of every secret replaced by Mask.
func Redact(s string, secrets []string) string { return New(secrets...).String(s) }
