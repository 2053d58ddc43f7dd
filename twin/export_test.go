package twin

import "strings"

// FillDefaults fills in what the service requires and a test does not
// care about: a SPACE's name (space- and 8 hex digits) and title, a public
// SPACE's category (general), a post's title where its kind needs one. A
// test of those rules sends its body as a string, which is sent as it is.
func FillDefaults(method, path string, body any) any {
	m, ok := body.(map[string]any)
	if !ok || method != "POST" {
		return body
	}
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	switch {
	case path == "/v1/spaces":
		if _, ok := out["name"]; !ok {
			out["name"] = "space-" + randHex(4)
		}
		if _, ok := out["title"]; !ok {
			out["title"] = "A test SPACE"
		}
		_, cats := out["categories"]
		_, cat := out["category"]
		if out["visibility"] == "public" && !cats && !cat {
			out["categories"] = []string{"general"}
		}
	case strings.HasPrefix(path, "/v1/spaces/") && strings.Contains(path, "/posts"):
		kind, _ := out["kind"].(string)
		if _, ok := out["title"]; !ok && !untitledKinds[kind] {
			out["title"] = "A test " + kind
		}
	}
	return out
}

// Reference returns one section of the twin's reference by name, and
// whether it exists, for tests that compare what a route serves with it.
func Reference(name string) (string, bool) { return loadDocs().section(name) }
