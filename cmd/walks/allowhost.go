package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/readmeter/readmeter/internal/escape"
	"github.com/readmeter/readmeter/walk"
)

// allowHosts is the --allow-host list: the hosts a run may send requests
// to (an HTTP step, a doc's http, an MCP server's URL, a redirect), by
// name or name:port; loopback is always allowed.
type allowHosts []string

// newAllowHosts returns the hosts a run may reach: those given, and the
// --url's host.
func newAllowHosts(given []string, base string) (allowHosts, error) {
	a := allowHosts{}
	for _, h := range given {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" || strings.ContainsAny(h, "/?#@ ") {
			return nil, fmt.Errorf("--allow-host %q: want a host name or address, with a port or without (api.example.org, 10.0.0.5:8080)", h)
		}
		a = append(a, h)
	}
	if base != "" {
		if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
			a = append(a, strings.ToLower(u.Hostname()))
		}
	}
	return a, nil
}

// allows reports whether a request to u may be sent.
func (a allowHosts) allows(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, h := range a {
		if h == host || h == strings.ToLower(u.Host) {
			return true
		}
	}
	return false
}

// transport refuses, before anything is sent, a request to a host not
// allowed, naming the host and the flag that allows it.
type allowTransport struct {
	allow allowHosts
	next  http.RoundTripper
}

func (t allowTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.allow.allows(req.URL) {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("%s is not an allowed host: nothing sent (the --url host and loopback are; --allow-host %s allows it)", req.URL.Host, req.URL.Hostname())
	}
	return t.next.RoundTrip(req)
}

// client returns an HTTP client whose requests go only to allowed hosts.
func (a allowHosts) client() *http.Client {
	return &http.Client{Transport: allowTransport{allow: a, next: http.DefaultTransport}}
}

// refusedHosts returns, for every spec, each place (file and line) whose
// URL is written out whole (http://HOST/... or https://, the host not a
// template) to a host a not allows: an http step, a doc's http, an MCP
// server's url. Such a request would be refused at run time; this says so
// before anything is sent. A URL whose host is a template is held at run
// time, by the client.
func refusedHosts(specs []*walk.Spec, a allowHosts) []*walk.SpecError {
	var out, part []*walk.SpecError
	refuse := func(file string, line int, what, raw string) {
		u, ok := literalURL(raw)
		if !ok || a.allows(u) {
			return
		}
		part = append(part, &walk.SpecError{File: file, Line: line, Msg: fmt.Sprintf(
			"%s to %s: %s is not an allowed host (the --url host and loopback are): --allow-host %s allows it",
			what, escape.Term(raw), u.Host, u.Hostname())})
	}
	for _, s := range specs {
		part = part[:0]
		names := make([]string, 0, len(s.Servers))
		for name := range s.Servers {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			refuse(s.File, s.Servers[name].Line, "the mcp server "+name, s.Servers[name].URL)
		}
		all := append(append([]*walk.Step{}, s.Setup...), s.Steps...)
		for i := 0; i < len(all); i++ {
			st := all[i]
			if g := st.Group(); g != nil {
				all = append(all, g...)
				continue
			}
			switch act := st.Action.(type) {
			case *walk.HTTPRequest:
				refuse(st.File, max(act.Line, st.Line), "an http step", act.URL)
			case *walk.DocSource:
				if act.HTTP != "" {
					_, target, _ := strings.Cut(strings.TrimSpace(act.HTTP), " ")
					refuse(st.File, max(act.HTTPLine, st.Line), "a doc's http", strings.TrimSpace(target))
				}
			case *walk.MCPRequest:
				if act.Inline != nil {
					refuse(st.File, st.Line, "an mcp step's server", act.Inline.URL)
				}
			}
		}
		sort.SliceStable(part, func(i, j int) bool { return part[i].Line < part[j].Line })
		out = append(out, part...)
	}
	return out
}

// literalURL parses raw when it is an absolute http or https URL whose
// host is written out, not a template.
func literalURL(raw string) (*url.URL, bool) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || (!strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https")) {
		return nil, false
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if authority == "" || strings.Contains(authority, "{{") {
		return nil, false
	}
	u, err := url.Parse(scheme + "://" + authority)
	if err != nil || u.Host == "" {
		return nil, false
	}
	return u, true
}
