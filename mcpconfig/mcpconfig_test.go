package mcpconfig

import (
	"reflect"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseForms(t *testing.T) {
	vars := Vars{Env: env(map[string]string{"TOKEN": "t0k3n", "BIN": "/opt/bin", "EMPTY": ""}), Inputs: map[string]string{"key": "s3cret"}, Home: "/home/u"}
	for _, tc := range []struct {
		name, path, text string
		want             []Server
		err              string
	}{{
		name: "Claude Desktop",
		path: "claude_desktop_config.json",
		text: `{"mcpServers": {"fs": {"command": "${BIN}/fs", "args": ["${userHome}/docs"], "env": {"A": "b"}}}}`,
		want: []Server{{Name: "fs", Transport: Stdio, Command: "/opt/bin/fs", Args: []string{"/home/u/docs"}, Env: []string{"A=b"}, Secrets: []string{"/opt/bin", "b"}}},
	}, {
		name: "Claude Code with defaults and types",
		path: ".mcp.json",
		text: `{"mcpServers": {"api": {"type": "http", "url": "${API_URL:-https://x.example/mcp}", "headers": {"Authorization": "Bearer ${TOKEN}"}}, "old": {"type": "sse", "url": "https://x.example/sse"}}}`,
		want: []Server{
			{Name: "api", Transport: HTTP, URL: "https://x.example/mcp", Header: [][2]string{{"Authorization", "Bearer t0k3n"}}, Secrets: []string{"https://x.example/mcp", "t0k3n", "Bearer t0k3n"}},
			{Name: "old", Transport: SSE, URL: "https://x.example/sse"},
		},
	}, {
		name: "Windsurf serverUrl, a url ending in /sse, disabled",
		path: "mcp_config.json",
		text: `{"mcpServers": {"w": {"serverUrl": "https://w.example/mcp"}, "s": {"url": "https://s.example/sse/"}, "d": {"command": "x", "disabled": true}}}`,
		want: []Server{
			{Name: "w", Transport: HTTP, URL: "https://w.example/mcp"},
			{Name: "s", Transport: SSE, URL: "https://s.example/sse/"},
			{Name: "d", Transport: Stdio, Command: "x", Disabled: true},
		},
	}, {
		name: "VS Code JSONC with inputs",
		path: "proj/.vscode/mcp.json",
		text: "{\n // servers\n \"inputs\": [{\"id\": \"key\", \"type\": \"promptString\"},],\n \"servers\": {\"a\": {\"type\": \"stdio\", \"command\": \"run\", \"env\": {\"K\": \"${input:key}\", \"U\": \"http://a//b\"}, /* c */},},\n}",
		want: []Server{{Name: "a", Transport: Stdio, Command: "run", Env: []string{"K=s3cret", "U=http://a//b"}, Secrets: []string{"s3cret", "s3cret", "http://a//b"}}},
	}, {
		name: "VS Code settings.json",
		path: "settings.json",
		text: `{"editor.fontSize": 12, "mcp": {"servers": {"h": {"type": "http", "url": "https://h.example/mcp"}}}}`,
		want: []Server{{Name: "h", Transport: HTTP, URL: "https://h.example/mcp"}},
	}, {
		name: "not a configuration",
		path: "x.json",
		text: `{"tools": []}`,
		err:  `x.json: no "mcpServers" or "servers" object: not an MCP client configuration`,
	}, {
		name: "broken",
		path: "x.json",
		text: `{"mcpServers": {`,
		err:  `x.json: not JSON (comments and trailing commas are allowed, nothing else)`,
	}, {
		name: "a web page saved in its place",
		path: "mcp.json",
		text: "\n\n<!DOCTYPE html><html><body>mcp.json</body></html>",
		err:  `mcp.json:3: an HTML or XML page, not a configuration file: give the client's own JSON file (the raw file, not its web page)`,
	}, {
		name: "an entry that is not an object",
		path: "x.json",
		text: `{"mcpServers": {"a": 1}}`,
		err:  `x.json: mcpServers.a is not an object`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(tc.path, []byte(tc.text), vars)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.want {
				tc.want[i].File = tc.path
			}
			if !reflect.DeepEqual(f.Servers, tc.want) {
				t.Errorf("servers\n got %+v\nwant %+v", f.Servers, tc.want)
			}
		})
	}
}

func TestEntryErrors(t *testing.T) {
	vars := Vars{Env: env(map[string]string{}), Home: "/h"}
	f, err := Parse("c.json", []byte(`{"mcpServers": {
		"a": {"command": "${env:NOPE}"},
		"b": {"command": "x", "env": {"K": "${input:k}"}},
		"c": {"args": ["x"]},
		"d": {"command": "x", "type": "websocket"},
		"e": {"command": "${NOPE:-fallback}"},
		"f": {"command": "${weird thing}"}}}`), vars)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"mcpServers.a.command: ${env:NOPE}: the environment variable is not set",
		"mcpServers.b.env.K: ${input:k}: give its value with --input k=VALUE",
		"mcpServers.c: neither a command nor a url",
		`mcpServers.d.type: "websocket" is not a transport: use stdio, http or sse`,
		"",
		"mcpServers.f.command: ${weird thing}: not a variable measure knows",
	}
	for i, s := range f.Servers {
		got := ""
		if s.Err != nil {
			got = s.Err.Error()
		}
		if !strings.HasPrefix(got, want[i]) || (want[i] == "") != (got == "") {
			t.Errorf("%s: %q, want %q", s.Name, got, want[i])
		}
	}
	if f.Servers[4].Command != "fallback" {
		t.Errorf("default: %q", f.Servers[4].Command)
	}
}

func TestRedact(t *testing.T) {
	if got := Redact("run --key abc123 at abc123", []string{"abc123", "ab"}); got != "run --key [redacted] at [redacted]" {
		t.Errorf("Redact: %q", got)
	}
}
