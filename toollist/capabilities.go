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
// each with its source. A client whose declaration is not documented
// declares what DefaultCapabilities holds. docs/clients.md prints this
// table.
var Declared = []ClientCapabilities{
	{Client: "claude-code", JSON: `{"roots":{},"elicitation":{}}`,
		Source: "https://www.developersdigest.tech/mcp-servers/clients (Claude Code: roots yes, elicitation yes, sampling not stated)", Checked: "2026-12-04"},
	{Client: "cursor", JSON: `{"roots":{},"elicitation":{}}`,
		Source: "https://dev.to/serverdex/which-mcp-clients-support-which-features-i-read-the-docs-59kb (Cursor: roots, elicitation)", Checked: "2026-12-04"},
	{Client: "vscode", JSON: `{"roots":{"listChanged":true},"sampling":{},"elicitation":{}}`,
		Source: "https://dev.to/serverdex/which-mcp-clients-support-which-features-i-read-the-docs-59kb (VS Code: sampling, roots, elicitation)", Checked: "2026-12-04"},
	{Client: "claude-api", JSON: `{}`,
		Source: "an API request carries tool definitions, no MCP session: nothing declared", Checked: "2026-12-04"},
	{Client: "openai", JSON: `{}`,
		Source: "an API request carries tool definitions, no MCP session: nothing declared", Checked: "2026-12-04"},
	{Client: "gemini", JSON: `{}`,
		Source: "an API request carries tool definitions, no MCP session: nothing declared", Checked: "2026-12-04"},
	{Client: "windsurf", JSON: `{}`,
		Source: "https://dev.to/serverdex/which-mcp-clients-support-which-features-i-read-the-docs-59kb (Windsurf: sampling, roots, elicitation not stated)", Checked: "2026-12-04"},
}

// DefaultCapabilities is what capture declares when no client is named:
// roots and elicitation, which Claude Code, Cursor and VS Code all declare.
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
