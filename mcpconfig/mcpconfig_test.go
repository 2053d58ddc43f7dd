package mcpconfig

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// TestEnvFile reads VS Code's envFile: its variables come before env's,
// so that env wins; a relative path is the workspace folder's; the
// values are secrets; a file that is missing or holds a line that is not
// KEY=VALUE is the server's error, naming the file and line.
func TestEnvFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".env", "# the keys\nexport TOKEN=abc123\n\nQUOTED=\"two\\nlines\"\nSINGLE='a # b'\nPLAIN=value # a note\r\nEMPTY=\nSHARED=from-file\n")
	write("bad.env", "OK=1\nthis is not a variable\n")
	config := filepath.Join(dir, ".vscode", "mcp.json")
	write(".vscode/mcp.json", `{"servers": {
		"a": {"command": "x", "envFile": "${workspaceFolder}/.env", "env": {"SHARED": "from-env"}},
		"b": {"command": "x", "envFile": ".env"},
		"c": {"command": "x", "envFile": "missing.env"},
		"d": {"command": "x", "envFile": "bad.env"}}}`)
	f, err := Read(config, Vars{Env: env(map[string]string{}), Home: "/h"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TOKEN=abc123", "QUOTED=two\nlines", "SINGLE=a # b", "PLAIN=value", "EMPTY=", "SHARED=from-file"}
	for i, s := range f.Servers[:2] {
		w := want
		if i == 0 {
			w = append(slices.Clone(want), "SHARED=from-env")
		}
		if s.Err != nil || !slices.Equal(s.Env, w) {
			t.Errorf("%s: env %q, err %v; want %q", s.Name, s.Env, s.Err, w)
		}
		if !slices.Contains(s.Secrets, "abc123") || Redact("token abc123", s.Secrets) != "token [redacted]" {
			t.Errorf("%s: the file's values are not secrets: %q", s.Name, s.Secrets)
		}
	}
	for _, c := range []struct{ server, want string }{
		{"c", "servers.c.envFile: "},
		{"d", "servers.d.envFile: " + filepath.Join(dir, "bad.env") + ":2: not KEY=VALUE"},
	} {
		var got string
		for _, s := range f.Servers {
			if s.Name == c.server && s.Err != nil {
				got = s.Err.Error()
			}
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want it to start %q", c.server, got, c.want)
		}
	}
}
