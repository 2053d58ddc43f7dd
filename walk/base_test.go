package walk_test

import (
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/walk"
)

func TestNeedsBase(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		want       bool
	}{
		{"stdio server", "servers:\n  s: { command: [ srv ] }\nsteps:\n  - part: l\n    mcp: list\n", false},
		{"absolute mcp url", "servers:\n  s: { url: \"http://127.0.0.1:1/mcp\" }\nsteps:\n  - part: l\n    mcp: list\n", false},
		{"relative mcp url", "servers:\n  s: { url: /mcp }\nsteps:\n  - part: l\n    mcp: list\n", true},
		{"url template", "servers:\n  s: { url: \"{{url}}/mcp\" }\nsteps:\n  - part: l\n    mcp: list\n", true},
		{"http path", "steps:\n  - part: me\n    http: GET /v1/me\n", true},
		{"http absolute", "steps:\n  - part: me\n    http: GET https://example.com/v1/me\n", false},
		{"doc over http", "steps:\n  - part: d\n    doc: { http: GET /skills/x.md }\n", true},
		{"doc file", "steps:\n  - part: d\n    doc: { file: w.yaml }\n", false},
		{"http in set-up", "setup:\n  - http: POST /v1/keys\nsteps:\n  - part: d\n    doc: { file: w.yaml }\n", true},
		{"inline stdio", "steps:\n  - part: l\n    mcp: { list: true, command: [ srv ] }\n", false},
		{"inline url", "steps:\n  - part: l\n    mcp: { list: true, url: /mcp }\n", true},
		{"together", "steps:\n  - together:\n      - part: a\n        http: GET /a\n      - part: b\n        http: GET https://example.com/b\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := write(t, dir, "w.yaml", "walk: w\n"+tc.spec)
			s, err := walk.Load(filepath.Clean(p))
			if err != nil {
				t.Fatal(err)
			}
			if got := s.NeedsBase(); got != tc.want {
				t.Errorf("NeedsBase() = %v, want %v", got, tc.want)
			}
		})
	}
}
