package walk

import "strings"

// NeedsBase reports whether the walk sends anything to the base URL: an
// http step, a document fetched over HTTP, or an MCP server over HTTP
// whose address is not written out whole (a path, or a template such as
// "{{url}}/mcp"). A walk whose every server is a stdio command, or an
// absolute URL, needs none: a run of such walks starts no server for them.
func (s *Spec) NeedsBase() bool {
	for _, sv := range s.Servers {
		if serverNeedsBase(sv) {
			return true
		}
	}
	for _, st := range append(append([]*Step{}, s.Setup...), s.Steps...) {
		if stepNeedsBase(st) {
			return true
		}
	}
	return false
}

func stepNeedsBase(st *Step) bool {
	switch a := st.Action.(type) {
	case *HTTPRequest:
		return !absoluteURL(a.URL)
	case *DocSource:
		if a.HTTP == "" {
			return false
		}
		_, target, ok := strings.Cut(strings.TrimSpace(a.HTTP), " ")
		return !ok || !absoluteURL(strings.TrimSpace(target))
	case *MCPRequest:
		return a.Inline != nil && serverNeedsBase(a.Inline)
	case *Together, *Loop:
		for _, g := range st.Group() {
			if stepNeedsBase(g) {
				return true
			}
		}
	}
	return false
}

func serverNeedsBase(sv *Server) bool {
	return len(sv.Command) == 0 && !absoluteURL(sv.URL)
}

// absoluteURL reports whether a spec's URL template starts with its scheme
// written out, as the runner's resolve reads it: it needs no base URL.
func absoluteURL(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}
