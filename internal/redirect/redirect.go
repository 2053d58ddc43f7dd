// Package redirect is the one rule for the redirects an answer asks a
// request to follow: the same for a walk's http and mcp steps and for the
// MCP client that captures tool lists.
//
//	c := *client // a copy: the rule is set per request
//	c.CheckRedirect = redirect.SameOrigin.Check(specHeaders) // the names of the headers the user set
//	resp, err := c.Do(req)
//	var re *redirect.Error
//	if errors.As(err, &re) { ... re.From, re.To: a redirect to another origin, not followed }
//
// The stance: what a user sets on a request (a token, a custom credential
// header such as X-Jwt or X-Userkey, a body) is meant for the server the
// user named, and an answer of that server must not be able to send it
// anywhere else. An origin is a URL's scheme, host and port (a default
// port written or not is the same port).
//
// The rule, hop by hop:
//
//  1. None: no redirect is followed; the 3xx is the answer, whatever
//     origin its Location names.
//  2. SameOrigin: a redirect to the first request's origin is followed (at
//     most MaxHops in all), with its headers and, for a 307 or 308, its
//     body, as Go's client re-sends them. A redirect to another origin is
//     not followed: nothing is sent there, and the request fails with an
//     *Error naming both origins.
//  3. CrossOrigin: as SameOrigin, but a redirect to another origin is
//     followed carrying only the standard headers the client itself
//     writes (Accept, Accept-Encoding, Content-Type, User-Agent and MCP's
//     protocol headers, see Standard) and none of those the user set:
//     never Authorization, Cookie, a session id or a custom header. A 307
//     or 308 re-sends the body there, as the status asks; a 301, 302 or
//     303 turns a POST into a GET without one.
//
// Once a chain of redirects has left its origin, every later hop is
// treated as one to another origin, even one that leads back.
package redirect

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Follow says which redirects a request follows; the zero Follow is None.
type Follow string

// The redirect policies.
const (
	// None follows no redirect: a 3xx is the answer.
	None Follow = "none"
	// SameOrigin follows redirects within the request's origin and fails
	// on one to another origin.
	SameOrigin Follow = "same-origin"
	// CrossOrigin follows redirects anywhere, sending another origin only
	// the standard headers (Standard) and none the user set.
	CrossOrigin Follow = "cross-origin"
)

// Policies lists the policies, in the order messages name them.
var Policies = []Follow{None, SameOrigin, CrossOrigin}

// Parse returns the policy named s: none, same-origin or cross-origin.
func Parse(s string) (Follow, error) {
	for _, f := range Policies {
		if s == string(f) {
			return f, nil
		}
	}
	return "", fmt.Errorf("%q: want none, same-origin or cross-origin", s)
}

// MaxHops is the most redirects a request follows: one more fails it.
const MaxHops = 10

// Standard lists the headers a request keeps on a redirect to another
// origin under CrossOrigin, unless the user set them: those an HTTP or MCP
// client writes of its own accord, none of them a credential.
var Standard = []string{"Accept", "Accept-Encoding", "Content-Type", "User-Agent", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name"}

// Origin returns u's origin as the web writes one, "scheme://host:port",
// lower case, the port left out when it is the scheme's default (80 for
// http, 443 for https).
func Origin(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host
}

// Same reports whether a and b have the same origin: scheme, host and port.
func Same(a, b *url.URL) bool { return Origin(a) == Origin(b) }

// Error is a redirect the rule did not follow: one to another origin
// under SameOrigin, or one past MaxHops.
type Error struct {
	// From is the origin of the first request, To the origin the
	// redirect leads to, as Origin writes them.
	From, To string
	// Status is the redirect's HTTP status (302, 307...).
	Status int
	// Hops is set, with From and To empty, when the request stopped after
	// following MaxHops redirects.
	Hops int
}

// Error says what was not followed and why.
func (e *Error) Error() string {
	if e.Hops > 0 {
		return fmt.Sprintf("stopped after %d redirects", e.Hops)
	}
	return fmt.Sprintf("a %d redirect from %s to another origin, %s, was not followed: nothing was sent there", e.Status, e.From, e.To)
}

// Check returns an http.Client CheckRedirect func that holds a request to
// f. set names the headers the user set on the request (any case): under
// CrossOrigin none of them reaches another origin, even one of Standard.
func (f Follow) Check(set []string) func(req *http.Request, via []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if f == None || f == "" {
			return http.ErrUseLastResponse
		}
		if len(via) > MaxHops { // via holds the first request and each hop
			return &Error{Hops: MaxHops}
		}
		first := via[0].URL
		crossed := !Same(first, req.URL)
		for _, v := range via[1:] {
			crossed = crossed || !Same(first, v.URL)
		}
		if !crossed {
			return nil
		}
		if f != CrossOrigin {
			status := 0
			if req.Response != nil {
				status = req.Response.StatusCode
			}
			return &Error{From: Origin(first), To: Origin(req.URL), Status: status}
		}
		Strip(req.Header, set)
		return nil
	}
}

// Strip removes from h every header but those of Standard, and those
// named in set: what a request may carry to another origin.
func Strip(h http.Header, set []string) {
	for k := range h {
		if !standard(k) || named(k, set) {
			h.Del(k)
		}
	}
}

func standard(k string) bool { return named(k, Standard) }

func named(k string, list []string) bool {
	for _, n := range list {
		if strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}
