package mcpconfig_test

import (
	"fmt"

	"github.com/readmeter/readmeter/mcpconfig"
)

func Example() {
	// A VS Code configuration: "servers", with an input and variables.
	data := []byte(`{
  // JSONC: comments and trailing commas are fine.
  "inputs": [{"id": "token", "type": "promptString", "password": true}],
  "servers": {
    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${workspaceFolder}"]},
    "tasks": {"type": "http", "url": "https://api.example.org/mcp", "headers": {"Authorization": "Bearer ${input:token}"}},
    "notes": {"command": "notes-mcp", "env": {"NOTES_KEY": "${env:NOTES_KEY}"}},
  },
}`)
	f, err := mcpconfig.Parse("/home/ana/notes/.vscode/mcp.json", data, mcpconfig.Vars{
		Env:    func(string) (string, bool) { return "", false },
		Inputs: map[string]string{"token": "s3cret-token"},
	})
	if err != nil {
		panic(err)
	}
	for _, s := range f.Servers {
		switch {
		case s.Err != nil:
			fmt.Printf("%s: %v\n", s.Name, s.Err)
		case s.Transport == mcpconfig.Stdio:
			fmt.Printf("%s: %s %s %q\n", s.Name, s.Transport, s.Command, s.Args)
		default:
			fmt.Printf("%s: %s %s, %d values never to print\n", s.Name, s.Transport, s.URL, len(s.Secrets))
		}
	}
	// Output:
	// files: stdio npx ["-y" "@modelcontextprotocol/server-filesystem" "/home/ana/notes"]
	// tasks: http https://api.example.org/mcp, 2 values never to print
	// notes: servers.notes.env.NOTES_KEY: ${env:NOTES_KEY}: the environment variable is not set
}
