package toollist

// ClientCapabilities is what one client declares in initialize's
// params.capabilities, with where that was read and when. Servers may list
// tools by what the client declares (a tool that asks the user needs
// elicitation, one that asks the model needs sampling).
type ClientCapabilities struct {
	// Client is the profile name (claude-code, cursor, ...), or "default".
	Client string
	// JSON is the capabilities object sent, as sent.
	JSON string
	// Source is the address the declaration was read from.
	Source string
	// Checked is the date (YYYY-MM-DD) the source was read.
	Checked string
}

// Declared are the capabilities each client declares, one row a client,
// each with its source: the client's own code where it is public (the
// file and commit where it builds initialize's params), else its own
// release notes, else the MCP project's client list, which the clients'
// makers keep. docs/clients.md prints this table.
var Declared = []ClientCapabilities{
	{Client: "claude-code", JSON: `{"roots":{"listChanged":true},"elicitation":{}}`,
		Source: "Claude Code's source is not public; its CHANGELOG.md (anthropics/claude-code@5cfc0a1905ce0c0a9bd81d8a90fe6b62ff614357): 2.1.76 \"Added MCP elicitation support\", 2.1.203 roots/list with notifications/roots/list_changed; no sampling", Checked: "2026-12-04"},
	{Client: "cursor", JSON: `{"roots":{},"elicitation":{}}`,
		Source: "Cursor's source is not public; the MCP client list, docs/clients.mdx (modelcontextprotocol/modelcontextprotocol@99c623b69de9ab9cf2ff939c9e0346083bc172fb): Cursor supports \"Prompts, Tools, Roots, Elicitation\"", Checked: "2026-12-04"},
	{Client: "vscode", JSON: `{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}},"tasks":{"list":{},"cancel":{},"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}}}`,
		Source: "src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts (microsoft/vscode@c5308376f79a19368c9bd9dccc81090aa1bfcb79), McpServerRequestHandler.create; mcpServer.ts (@0052d689f910e056718b44fdecc7a5e1ad2c3b66) always gives the sampling and elicitation handlers", Checked: "2026-12-04"},
	{Client: "claude-api", JSON: `{}`,
		Source: "an API request carries tool definitions, no MCP session: nothing declared", Checked: "2026-12-04"},
	{Client: "openai", JSON: `{}`,
		Source: "an API request carries tool definitions, no MCP session: nothing declared", Checked: "2026-12-04"},
	{Client: "gemini", JSON: `{}`,
		Source: "an API request carries tool definitions, no MCP session: nothing declared", Checked: "2026-12-04"},
	{Client: "windsurf", JSON: `{}`,
		Source: "Windsurf's source is not public; the MCP client list, docs/clients.mdx (modelcontextprotocol/modelcontextprotocol@99c623b69de9ab9cf2ff939c9e0346083bc172fb): Windsurf Editor supports \"Tools, Discovery\" (no roots, sampling or elicitation)", Checked: "2026-12-04"},
}

// DefaultCapabilities is what capture declares when no client is named:
// roots and elicitation, which Claude Code, Cursor, VS Code and the MCP
// Inspector all declare (the Inspector: client/src/lib/hooks/useConnection.ts,
// modelcontextprotocol/inspector@8929a431dbf4fe28678cab93af973ad2ed041980,
// declares sampling, elicitation and roots).
const DefaultCapabilities = `{"roots":{},"elicitation":{}}`

// CapabilitiesFor returns the capabilities the client named name declares,
// and whether the table has a row for it.
func CapabilitiesFor(name string) (ClientCapabilities, bool) {
	for _, c := range Declared {
		if c.Client == name {
			return c, true
		}
	}
	return ClientCapabilities{}, false
}
