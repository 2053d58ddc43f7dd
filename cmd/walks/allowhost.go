package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
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
