package toollist

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
)

// Profile is what one MCP client or model API does with a tool list
// before its model reads it: a row of Profiles. Every field is data; the
// code that applies a profile is the same for all of them. Each fact's
// source, and the date it was checked, is in docs/clients.md.
type Profile struct {
	// Name is the client's key: --client NAME, the budget key suffix.
	Name string
	// Title is how the client is named in sentences.
	Title string
	// Names is how the client names a tool to its model.
	Names NameRule
	// DescriptionCut is how many UTF-16 code units of a tool description
	// the client keeps (JavaScript's s.slice(0, N)); 0 keeps it whole.
	DescriptionCut int
	// Instructions reports whether the client hands the server's
	// instructions (the initialize answer's) to its model.
	Instructions bool
	// InstructionsCut is DescriptionCut for the instructions.
	InstructionsCut int
	// Render is how each tool is written for the model: "json" (the
	// members of Fields, JSON.stringify) or "typescript" (a TypeScript-like
	// declaration, see RenderTypeScript).
	Render string
	// Fields are the tool members the client sends, in order, each under
	// the key it sends it as; every other member is dropped.
	Fields []Field
	// Prelude is text the client writes once before the tools (and
	// Postlude once after them), counted once, byte-exact.
	Prelude, Postlude string
	// OverheadTokens is what the client or API adds to every request that
	// carries tools, in tokens, as its documentation states it; it is
	// never added to byte counts. OverheadEstimate marks a figure that is
	// an estimate rather than a count of this request.
	OverheadTokens   int
	OverheadEstimate bool
	// OverheadWhat says what the overhead is.
	OverheadWhat string
	// Cap is the most tools the client takes; 0 for no known cap.
	Cap int
	// CapKeepsFirst reports that past the cap the client sends only the
	// first Cap tools (Cursor); otherwise it refuses the request or asks
	// the user to turn tools off, and the tools past the cap are named.
	CapKeepsFirst bool
	// CapEffect says what happens past the cap, in a phrase.
	CapEffect string
	// NamePattern is the name rule the model API holds each name (as the
	// client shows it) to: "openai" (^[a-zA-Z0-9_-]{1,64}$), "gemini"
	// (^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$) or "".
	NamePattern string
	// CombinedNameMax: the client leaves out a tool whose server name and
	// tool name together are this many characters or more; 0 for none.
	CombinedNameMax int
	// Deferral reports that the client defers tools behind a tool search
	// by default: at session start its model reads only each tool's name
	// (one line each), unless the tool is always loaded.
	Deferral bool
	// Exact reports whether the client's rendering is its documented
	// request form; false marks an approximation of an undocumented one.
	Exact bool
}

// Field is one tool member a client sends: From is its MCP name, To the
// key it is sent under.
type Field struct{ From, To string }

// NameRule is how a client forms the name its model sees from the server's
// name and the tool's: Prefix, the server part, Separator, the tool name;
// then cut to Max characters.
type NameRule struct {
	// Prefix starts every name ("mcp__"); "" with no server part.
	Prefix string
	// Separator joins the server part and the tool name.
	Separator string
	// ServerKeep lists the ASCII characters kept in the server part; any
	// other character becomes "_" (a run of them one "_" when
	// ServerCollapse). Lower makes the server part lower case first;
	// ServerMax cuts it to that many characters (0: no cut).
	ServerKeep     string
	ServerCollapse bool
	Lower          bool
	ServerMax      int
	// ToolFrom and ToolTo: every ToolFrom in the tool name becomes ToolTo
	// (VS Code's "." to "_").
	ToolFrom, ToolTo string
	// Max cuts the whole name to this many characters; 0: no cut.
	Max int
	// FromServerInfo: the server part is the server's own name, its
	// initialize answer's serverInfo.title (else serverInfo.name), and
	// the name in the configuration only when the answer gives neither
	// (VS Code).
	FromServerInfo bool
}

const (
	wordChars  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
	lowerChars = "abcdefghijklmnopqrstuvwxyz0123456789_.-"
)

// Profiles are the clients whose reading of a tool list measure knows,
// in the order --client all prints them. docs/clients.md gives each fact's
// source and the date it was checked.
var Profiles = []Profile{
	{
		Name: "claude-code", Title: "Claude Code",
		Names:          NameRule{Prefix: "mcp__", Separator: "__", ServerKeep: wordChars},
		DescriptionCut: ClaudeCodeCutChars, Instructions: true, InstructionsCut: ClaudeCodeCutChars,
		Render: "json", Fields: anthropicFields,
		OverheadWhat: "none of its own: Claude Code's system prompt holds the tool-use prompt whatever servers are connected",
		NamePattern:  "openai",
		Deferral:     true, Exact: true,
	},
	{
		Name: "claude-api", Title: "the Anthropic API",
		Render: "json", Fields: anthropicFields,
		OverheadTokens: 346, OverheadEstimate: true,
		OverheadWhat: "the tool-use system prompt the API adds to a request with tools (tool_choice auto or none)",
		NamePattern:  "openai", Exact: true,
	},
	{
		Name: "openai", Title: "the OpenAI API",
		Render:   "typescript",
		Fields:   []Field{{"name", "name"}, {"description", "description"}, {"inputSchema", "parameters"}},
		Prelude:  "# Tools\n\n## functions\n\nnamespace functions {\n\n",
		Postlude: "} // namespace functions",
		Cap:      128, CapEffect: "refuses a request with more than 128 tools",
		NamePattern: "openai",
	},
	{
		Name: "cursor", Title: "Cursor",
		Render: "json", Fields: genericFields,
		Cap: 40, CapKeepsFirst: true, CapEffect: "sends only the first 40 tools to the agent",
		CombinedNameMax: 60,
	},
	{
		Name: "vscode", Title: "VS Code",
		Names:  NameRule{Prefix: "mcp_", Separator: "_", ServerKeep: lowerChars, ServerCollapse: true, Lower: true, ServerMax: 13, ToolFrom: ".", ToolTo: "_", Max: 64, FromServerInfo: true},
		Render: "json", Fields: []Field{{"name", "name"}, {"description", "description"}, {"inputSchema", "parameters"}},
		Cap: 128, CapEffect: "fails a chat request with more than 128 tools",
	},
	{
		Name: "gemini", Title: "the Gemini API",
		Render: "json", Fields: []Field{{"name", "name"}, {"description", "description"}, {"inputSchema", "parameters"}},
		Cap: 64, CapEffect: "takes at most 64 function declarations",
		NamePattern: "gemini", Exact: true,
	},
	{
		Name: "windsurf", Title: "Windsurf",
		Render: "json", Fields: genericFields,
		Cap: 100, CapEffect: "takes at most 100 tools in all",
	},
}

var (
	anthropicFields = []Field{{"name", "name"}, {"description", "description"}, {"inputSchema", "input_schema"}}
	// genericFields: a client whose request form is not documented is
	// counted as measure counts any client.
	genericFields = anthropicFields
)

// ProfileNames returns the names of the profiles, in order.
func ProfileNames() []string {
	out := make([]string, len(Profiles))
	for i, p := range Profiles {
		out[i] = p.Name
	}
	return out
}

// ClientProfile returns the profile named name, and whether there is one.
func ClientProfile(name string) (*Profile, bool) {
	for i := range Profiles {
		if Profiles[i].Name == name {
			return &Profiles[i], true
		}
	}
	return nil, false
}

// ToolName returns the name the client shows its model for the tool named
// tool of the server named server.
func (r NameRule) ToolName(server, tool string) string {
	if r.ToolFrom != "" {
		tool = strings.ReplaceAll(tool, r.ToolFrom, r.ToolTo)
	}
	name := tool
	if r.Prefix != "" {
		s := server
		if r.Lower {
			s = strings.ToLower(s)
		}
		var b strings.Builder
		bad := false
		for _, c := range s {
			if c < utf8.RuneSelf && strings.IndexByte(r.ServerKeep, byte(c)) >= 0 {
				b.WriteRune(c)
				bad = false
				continue
			}
			if !r.ServerCollapse || !bad {
				b.WriteByte('_')
			}
			bad = true
		}
		s = b.String()
		if r.ServerMax > 0 {
			s = slice16(s, r.ServerMax)
		}
		name = r.Prefix + s + r.Separator + tool
	}
	if r.Max > 0 {
		name = slice16(name, r.Max)
	}
	return name
}

// slice16 returns JavaScript's s.slice(0, n) of the WTF-8 string s: its
// first n UTF-16 code units (a pair cut in two leaves its high surrogate).
func slice16(s string, n int) string {
	u := 0
	for i := 0; i < len(s); {
		c := s[i]
		size, w := 1, 1
		switch {
		case c >= 0xF0:
			size, w = 4, 2
		case c >= 0xE0:
			size = 3
		case c >= 0xC0:
			size = 2
		}
		if u+w > n {
			if w == 2 && u+1 == n {
				r, _ := utf8.DecodeRuneInString(s[i:])
				hi := 0xD800 + ((r - 0x10000) >> 10)
				return s[:i] + string([]byte{0xED, byte(0xA0 | (hi>>6)&0x0F), byte(0x80 | hi&0x3F)})
			}
			return s[:i]
		}
		u += w
		i += size
	}
	return s
}

// ClientOptions are what a client's reading depends on besides the tool
// list.
type ClientOptions struct {
	// Server is the server's name in the client's configuration, which
	// clients put in front of tool names (a client whose NameRule is
	// FromServerInfo takes the server's own name instead, when in gives
	// one).
	Server string
	// AlwaysLoad names the tools (by their MCP names) a deferring client
	// loads whole at session start, besides those whose
	// _meta["anthropic/alwaysLoad"] is true.
	AlwaysLoad []string
	// Counters count each text with real tokenizers too.
	Counters []Counter
}

// ClientTool is one tool as a client hands it to its model.
type ClientTool struct {
	// Name is the tool's name as the client shows it; Tool its name in the
	// capture ("tools[i]" when that is not a string).
	Name, Tool string
	// Index is the tool's place in the capture.
	Index int
	// Sent reports whether the client hands the tool to its model at all
	// (not past a cap that keeps the first tools, not filtered out).
	Sent bool
	// Bytes is the UTF-8 bytes the model reads of the tool when it is
	// loaded (0 when it is not sent), Tokens floor(Bytes/3).
	Bytes, Tokens int64
	// Tokenizers holds the real tokenizers' counts of the same text.
	Tokenizers []TokenizerCount
	// DeferredBytes is what the model reads of the tool at session start
	// when the client defers it (its name and a newline); 0 for a client
	// that does not defer, or a tool always loaded.
	DeferredBytes int64
	// AlwaysLoad reports that a deferring client loads the tool whole.
	AlwaysLoad bool
	// CutChars is how many UTF-16 code units of the description the
	// client cuts off.
	CutChars int
}

// ClientFinding is one thing a client does to the list that its author
// should know: a cut, a cap, a name refused or cut, fields dropped.
type ClientFinding struct {
	// Kind is description-cut, instructions-cut, tool-cap, name-refused,
	// name-cut, name-filtered or fields-dropped.
	Kind string
	// Tool is the tool's name in the capture, "" for the whole list.
	Tool string
	// Detail says what happens, in a sentence.
	Detail string
}

// ClientFigures are what one client's model reads of a tool list.
type ClientFigures struct {
	Profile *Profile
	// Server is the server name used in tool names.
	Server string
	// Tools holds every tool of the capture, in its order.
	Tools []ClientTool
	// Sent is how many tools the client hands its model.
	Sent int
	// PreludeBytes is the client's text written once around the tools.
	PreludeBytes int64
	// HasInstructions reports whether the client reads instructions;
	// InstructionsBytes is their UTF-8 bytes after the cut and
	// InstructionsCutChars the UTF-16 code units cut off.
	HasInstructions      bool
	InstructionsBytes    int64
	InstructionsCutChars int
	// Bytes is the whole reading with every tool loaded: the prelude, the
	// tools sent and the instructions; Tokens is floor(Bytes/3).
	Bytes, Tokens int64
	// Tokenizers holds the real tokenizers' counts of the same texts.
	Tokenizers []TokenizerCount
	// DeferredBytes is a deferring client's reading at session start:
	// each deferred tool's name line, the tools always loaded, the
	// prelude and the instructions; DeferredTokens floor(DeferredBytes/3).
	DeferredBytes, DeferredTokens int64
	// Findings are the cuts, caps and names that change what is read.
	Findings []ClientFinding
}

// SharedBytes is what the client reads once whatever tools there are:
// the prelude and the instructions.
func (cf *ClientFigures) SharedBytes() int64 { return cf.PreludeBytes + cf.InstructionsBytes }

// MeasureClient counts what the client of profile p hands its model of the
// capture c (whose figures Measure returned as f) and the initialize
// answer in (nil when there is none). Each tool is parsed and rendered as
// the client renders it; a JSON rendering is JSON.stringify's, byte-exact
// with Node.
func MeasureClient(c *Capture, f *Figures, in *Init, p *Profile, o ClientOptions) (*ClientFigures, error) {
	if p.Names.FromServerInfo && in != nil {
		if in.ServerTitle != "" {
			o.Server = in.ServerTitle
		} else if in.ServerName != "" {
			o.Server = in.ServerName
		}
	}
	cf := &ClientFigures{Profile: p, Server: o.Server, Tools: make([]ClientTool, len(c.Tools))}
	dropped := map[string]int{}
	var droppedOrder []string
	sentSoFar := 0
	var past []string
	for i := range c.Tools {
		tool, err := c.tool(i)
		if err != nil {
			return nil, err
		}
		label, isName := toolLabel(tool, i)
		ct := &cf.Tools[i]
		ct.Tool, ct.Index, ct.Name = label, i, label
		if isName {
			ct.Name = p.Names.ToolName(o.Server, label)
		}
		for _, m := range tool.Members() {
			if !slices.ContainsFunc(p.Fields, func(fd Field) bool { return fd.From == m.Key }) {
				if dropped[m.Key] == 0 {
					droppedOrder = append(droppedOrder, m.Key)
				}
				dropped[m.Key]++
			}
		}
		// names the client refuses, cuts or leaves out
		if isName {
			if p.CombinedNameMax > 0 && jsonjs.Len16(o.Server)+jsonjs.Len16(label) >= p.CombinedNameMax {
				cf.Findings = append(cf.Findings, ClientFinding{"name-filtered", label, fmt.Sprintf(
					"%s leaves %s out: the server name %q and the tool name together are %d characters, %d or more",
					p.Title, label, o.Server, jsonjs.Len16(o.Server)+jsonjs.Len16(label), p.CombinedNameMax)})
				continue
			}
			whole := p.Names
			whole.Max = 0
			if full := whole.ToolName(o.Server, label); full != ct.Name {
				cf.Findings = append(cf.Findings, ClientFinding{"name-cut", label, fmt.Sprintf(
					"%s cuts the name %s to %d characters: %s", p.Title, full, p.Names.Max, ct.Name)})
			}
			if refused := patternRefuses(p.NamePattern, ct.Name); refused != "" {
				cf.Findings = append(cf.Findings, ClientFinding{"name-refused", label, fmt.Sprintf(
					"%s refuses the tool name %s: %s", p.Title, ct.Name, refused)})
			}
		}
		if p.Cap > 0 && sentSoFar >= p.Cap {
			past = append(past, label)
			if p.CapKeepsFirst {
				continue
			}
		}
		sentSoFar++
		ct.Sent = true
		text, cut, err := renderTool(tool, ct.Name, p)
		if err != nil {
			return nil, inputErr(c.Path, "%s[%d]: %v", c.toolsAt(), i, err)
		}
		ct.CutChars = cut
		if cut > 0 {
			cf.Findings = append(cf.Findings, ClientFinding{"description-cut", label, fmt.Sprintf(
				"%s cuts %s's description at %s characters: %s characters lost",
				p.Title, label, units.Group(int64(p.DescriptionCut)), units.Group(int64(cut)))})
		}
		ct.Bytes = int64(len(text))
		ct.Tokens = units.Tokens(ct.Bytes)
		for _, k := range o.Counters {
			ct.Tokenizers = append(ct.Tokenizers, TokenizerCount{Name: k.Name(), Tokens: int64(k.Count(string(text)))})
		}
		if p.Deferral {
			ct.AlwaysLoad = slices.Contains(o.AlwaysLoad, label) || metaAlwaysLoad(tool)
			if !ct.AlwaysLoad {
				ct.DeferredBytes = int64(len(ct.Name)) + 1
			}
		}
	}
	if len(past) > 0 {
		verb := "is past"
		if len(past) > 1 {
			verb = "are past"
		}
		if p.CapKeepsFirst {
			verb = "left out"
		}
		for _, name := range past {
			cf.Findings = append(cf.Findings, ClientFinding{"tool-cap", name, fmt.Sprintf(
				"%s %s: %s %s the cap of %d", p.Title, p.CapEffect, name, verb, p.Cap)})
		}
	}
	if len(droppedOrder) > 0 {
		parts := make([]string, len(droppedOrder))
		for i, k := range droppedOrder {
			parts[i] = fmt.Sprintf("%s (%d %s)", k, dropped[k], plural(dropped[k], "tool", "tools"))
		}
		cf.Findings = append(cf.Findings, ClientFinding{"fields-dropped", "", "the model never reads " + strings.Join(parts, ", ")})
	}
	cf.PreludeBytes = int64(len(p.Prelude) + len(p.Postlude))
	if p.Instructions && in != nil && in.HasInstructions {
		cf.HasInstructions = true
		text := in.Instructions
		if p.InstructionsCut > 0 && in.Chars > p.InstructionsCut {
			text = slice16(text, p.InstructionsCut)
			cf.InstructionsCutChars = in.Chars - p.InstructionsCut
			cf.Findings = append(cf.Findings, ClientFinding{"instructions-cut", "", fmt.Sprintf(
				"%s cuts the server's instructions at %s characters: %s characters lost",
				p.Title, units.Group(int64(p.InstructionsCut)), units.Group(int64(cf.InstructionsCutChars)))})
		}
		cf.InstructionsBytes = int64(jsonjs.ByteLen(text))
	}
	cf.Bytes, cf.DeferredBytes = cf.SharedBytes(), cf.SharedBytes()
	cf.Tokenizers = make([]TokenizerCount, len(o.Counters))
	for k, ctr := range o.Counters {
		n := ctr.Count(p.Prelude) + ctr.Count(p.Postlude)
		if cf.HasInstructions {
			n += ctr.Count(slice16(in.Instructions, cutOr(p.InstructionsCut, in.Chars)))
		}
		cf.Tokenizers[k] = TokenizerCount{Name: ctr.Name(), Tokens: int64(n)}
	}
	for i := range cf.Tools {
		t := &cf.Tools[i]
		if !t.Sent {
			continue
		}
		cf.Sent++
		cf.Bytes += t.Bytes
		for k := range t.Tokenizers {
			cf.Tokenizers[k].Tokens += t.Tokenizers[k].Tokens
		}
		if p.Deferral && !t.AlwaysLoad {
			cf.DeferredBytes += t.DeferredBytes
		} else {
			cf.DeferredBytes += t.Bytes
		}
	}
	cf.Tokens = units.Tokens(cf.Bytes)
	cf.DeferredTokens = units.Tokens(cf.DeferredBytes)
	if !p.Deferral {
		cf.DeferredBytes, cf.DeferredTokens = 0, 0
	}
	return cf, nil
}

// cutOr returns cut when it is set, else n (no cut).
func cutOr(cut, n int) int {
	if cut > 0 {
		return cut
	}
	return n
}

// metaAlwaysLoad reports whether the tool asks a deferring client to load
// it whole: _meta["anthropic/alwaysLoad"] is true.
func metaAlwaysLoad(tool jsonjs.Value) bool {
	m, ok := tool.Get("_meta")
	if !ok {
		return false
	}
	v, ok := m.Get("anthropic/alwaysLoad")
	return ok && v.Kind() == jsonjs.Bool && v.Bool()
}

// patternRefuses says why a model API refuses name under the rule named
// pattern, or "" when it takes it.
func patternRefuses(pattern, name string) string {
	switch pattern {
	case "openai":
		if !openAIName(name) {
			return "names must match ^[a-zA-Z0-9_-]{1,64}$"
		}
	case "gemini":
		if !geminiName(name) {
			return "names must start with a letter or _, then letters, digits, _ . : -, 64 at most"
		}
	}
	return ""
}

// renderTool returns the text a client's model reads of one tool, named
// name, and how many UTF-16 code units of its description were cut off.
func renderTool(tool jsonjs.Value, name string, p *Profile) ([]byte, int, error) {
	cut := 0
	ms := make([]jsonjs.Member, 0, len(p.Fields))
	for _, fd := range p.Fields {
		v, ok := tool.Get(fd.From)
		if !ok {
			continue
		}
		switch fd.From {
		case "name":
			if v.Kind() == jsonjs.String {
				v = jsonjs.StringValue(name)
			}
		case "description":
			if v.Kind() == jsonjs.String && p.DescriptionCut > 0 {
				if n := jsonjs.Len16(v.Str()); n > p.DescriptionCut {
					cut = n - p.DescriptionCut
					v = jsonjs.StringValue(slice16(v.Str(), p.DescriptionCut))
				}
			}
		}
		ms = append(ms, jsonjs.Member{Key: fd.To, Value: v})
	}
	obj := jsonjs.ObjectValue(ms)
	if p.Render == "typescript" {
		return RenderTypeScript(obj), cut, nil
	}
	return jsonjs.Stringify(obj), cut, nil
}
