package walk

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/redirect"
	"go.yaml.in/yaml/v3"
)

// Spec is one walk, as parsed from its file: a name, the budgets it is held
// to, how its answers are normalised, its variables, and its steps.
type Spec struct {
	// Name is the walk's name (the `walk` key), also its budget key's last part.
	Name string
	// About is one line saying what the walk does.
	About string
	// File is the spec's path as given to Load.
	File string
	// Line is the line of the `walk` key.
	Line int
	// Budget is the key of the budget the walk's total tokens are held to
	// ("FIRST_TASK_TOKENS.start_tasks"); empty when the spec names none.
	Budget string
	// BudgetLine is the line of the `budget` key.
	BudgetLine int
	// Measures are the walk's other budgets: a call count, one step's
	// bytes, a tool list's model-read tokens.
	Measures []Measure
	// Normalize lists the normalisers applied to every answer before it is
	// counted, in order.
	Normalize []Normalize
	// Vars are the walk's variables with their defaults, in file order.
	Vars []KV
	// Servers are the MCP servers the walk's mcp steps talk to, by name.
	Servers map[string]*Server
	// Setup are the steps run first and never counted.
	Setup []*Step
	// Steps are the counted steps (a step may opt out with `count: false`).
	Steps []*Step
	// Isolation says what the walk reads of the server: only what it made
	// itself (IsolationOwn, the default), or lists every walk writes
	// (IsolationShared: `isolation: shared`, or a step `shared: true`).
	Isolation Isolation
	// Includes are the files the spec includes (`use:`), each once, in the
	// order first read: with File, every file the walk was read from.
	Includes []string
}

// Isolation is what a walk reads of a server other walks use too.
type Isolation string

const (
	// IsolationOwn is a walk that reads only what it made itself (its own
	// KEYs, SPACEs and posts, found by names new every run): its counts do
	// not depend on what else runs on the server, before it or beside it.
	IsolationOwn Isolation = "own"
	// IsolationShared is a walk that reads lists other walks write too (an
	// index every run posts to, a SEEK or a directory not narrowed to its
	// own names): on a server other walks use, its counts depend on what
	// ran there before it.
	IsolationShared Isolation = "shared"
)

// AllMeasures returns every budget of the walk: its total (when it names a
// budget key) first, then its other measures.
func (s *Spec) AllMeasures() []Measure {
	var out []Measure
	if s.Budget != "" {
		out = append(out, Measure{Key: s.Budget, Measure: gate.Measure{Kind: gate.Total}, File: s.File, Line: s.BudgetLine})
	}
	return append(out, s.Measures...)
}

// Processes returns the place (file and line) and kind of every step of
// the walk, set-up included, that starts a process: an exec step, a doc
// read from a command's output, an mcp step whose server is a command.
// walks run --no-exec refuses a walk that has one.
func (s *Spec) Processes() []SpecError {
	var out []SpecError
	all := append(append([]*Step{}, s.Setup...), s.Steps...)
	for i := 0; i < len(all); i++ {
		st := all[i]
		if g := st.Group(); g != nil {
			all = append(all, g...)
			continue
		}
		switch a := st.Action.(type) {
		case *ExecCommand:
			out = append(out, SpecError{File: st.File, Line: st.Line, Msg: "an exec step starts " + clipArgv(a.Argv)})
		case *DocSource:
			if len(a.Exec) > 0 {
				out = append(out, SpecError{File: st.File, Line: st.Line, Msg: "a doc step reads the output of " + clipArgv(a.Exec)})
			}
		case *MCPRequest:
			sv := a.Inline
			if sv == nil {
				sv = s.Servers[a.Server]
			}
			if sv == nil && a.Server == "" && len(s.Servers) == 1 {
				for _, only := range s.Servers { // the walk's only server
					sv = only
				}
			}
			if sv != nil && len(sv.Command) > 0 {
				out = append(out, SpecError{File: st.File, Line: st.Line, Msg: "an mcp step starts its server " + clipArgv(sv.Command)})
			}
		}
	}
	return out
}

// clipArgv quotes a command's first word for a message.
func clipArgv(argv []string) string {
	if len(argv) == 0 {
		return "a command"
	}
	return strconv.Quote(argv[0])
}

// Flat returns the walk's steps with each together step's steps, and
// each repeated use step's steps (once), in its place.
func (s *Spec) Flat() []*Step { return flat(s.Steps) }

func flat(steps []*Step) []*Step {
	var out []*Step
	for _, st := range steps {
		if g := st.Group(); g != nil {
			out = append(out, flat(g)...)
			continue
		}
		out = append(out, st)
	}
	return out
}

// Measure is a budget entry of a walk: what is measured and the budget
// key it is held to.
type Measure struct {
	// Key is the budget key, "TOOL_LIST_TOKENS.tasks".
	Key string
	// Measure is what is read: the walk's tokens (gate.Total), its bytes,
	// its calls, one part's bytes (gate.Step) or the model-read tokens of
	// a tools/list answer (gate.ToolList).
	gate.Measure
	// File and Line say where the measure is declared.
	File string
	Line int
}

// Normalize is one normaliser a spec asks for: a built-in one by name, or a
// regular expression rewrite.
type Normalize struct {
	// Name is a built-in normaliser of package ledger: "full-width-times"
	// (database times padded to six fraction digits, in the text and inside
	// base64url `canonical` fields), "text-times" or "canonical-times".
	Name string
	// Pattern and Replace are a regular expression rewrite (Go syntax, ${1}
	// in Replace for a group), when Name is empty.
	Pattern, Replace string
	// Line is where the entry is declared.
	Line int
}

// KV is a key and a template value, in file order.
type KV struct {
	Key, Value string
	Line       int
}

// Server is an MCP server a walk talks to: an HTTP address or a command
// speaking stdio.
type Server struct {
	// Name is the server's name in `servers:`; empty for one given inline.
	Name string
	// URL is the address, absolute or relative to the base URL (template).
	URL string
	// Token is a bearer token (template).
	Token string
	// Headers are extra request headers (templates).
	Headers []KV
	// Protocol is the MCP protocol version sent in initialize.
	Protocol string
	// Follow is the redirects its answers are followed to (see package
	// internal/redirect): redirect.SameOrigin when empty, as for an MCP
	// client; a redirect to another origin fails the step unless it is
	// redirect.CrossOrigin, which sends there none of the server's token
	// and headers.
	Follow redirect.Follow
	// NoVersionHeader is true when the server is declared with
	// `version_header: false`: the version initialize negotiates is not
	// sent as MCP-Protocol-Version on the requests after it, as a client
	// that sends no such header (the service's own test) does not.
	NoVersionHeader bool
	// Command is the argv of a stdio server (templates).
	Command []string
	// Env are environment variables added for a stdio server (templates).
	Env []KV
	// Dir is the working directory of a stdio server, relative to the spec.
	Dir string
	// Line is where the server is declared.
	Line int
}

// Step is one step of a walk: what it does (its Action, one type per
// kind), what must hold of its answer, and what to keep from it.
type Step struct {
	// File and Line say where the step is declared (an included step names
	// the included file).
	File string
	Line int
	// Part is the ledger part the step's answer is counted in.
	Part string
	// Counted is true for a step among `steps:` that counts its answer.
	Counted bool
	// Shared is true for a counted step declared `shared: true`: its answer
	// reads what every run writes (a SPACE all runs post to), so runs at
	// once may count it differently; --repeat and Differ do not compare it.
	// Its walk is IsolationShared.
	Shared bool
	// Setup is true for a set-up step.
	Setup bool
	// Action is what the step does: an *HTTPRequest, *MCPRequest,
	// *DocSource, *ExecCommand, *KeyStep, *PKCEStep, *Together or *Loop.
	Action Action

	// Repeat, when set, sends the step again while a kept value says
	// there is more, at most Repeat.Max times in all.
	Repeat *Repeat

	// Keep are the values kept from the answer, in file order.
	Keep []Keep
	// Expect is what must hold of the answer.
	Expect Expect
}

// Group returns the steps a step holds: a together step's, sent at once,
// or a repeated use step's (a *Loop), run in order each round; nil for a
// step of any other kind.
func (s *Step) Group() []*Step {
	switch a := s.Action.(type) {
	case *Together:
		return a.Steps
	case *Loop:
		return a.Steps
	}
	return nil
}

// Where returns "file:line" of the step.
func (s *Step) Where() string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

// Title names the step for messages: its part, or its kind ("step" for a
// step with no Action, as a report's walk is rebuilt).
func (s *Step) Title() string {
	if s.Part != "" {
		return s.Part
	}
	if s.Action == nil {
		return "step"
	}
	if s.Setup {
		return "set-up " + s.Action.Kind() + " step"
	}
	return s.Action.Kind() + " step"
}

// MaxRepeat is the most a repeat's max may be.
const MaxRepeat = 1000

// Repeat is a step sent again while its condition holds: a page read
// while the answer says there is more.
type Repeat struct {
	// While is a template, rendered after each run (with what the run
	// kept): the step runs again unless it renders to "", "false", "0",
	// "null" or "[]".
	While string
	// Max bounds the runs, the first included; a condition that still
	// holds after Max runs fails the walk.
	Max int
	// Set are variables set (templates) before each further run, such as
	// the cursor the next page starts after.
	Set []KV
	// Line is where the repeat is declared.
	Line int
}

// HTTPRequest is an HTTP step's request; every string is a template.
type HTTPRequest struct {
	Method, URL string
	// Line is the line of the request line.
	Line    int
	Query   []KV
	Headers []KV
	// Auth is a bearer token; AuthLine its line.
	Auth     string
	AuthLine int
	// JSON is a JSON body, written from YAML in file order.
	JSON *yaml.Node
	// Form is a form body (application/x-www-form-urlencoded).
	Form []KV
	// Body is a raw text body; BodyLine its line.
	Body     *string
	BodyLine int
	HasBody  bool
	// Follow is the redirects the request follows: redirect.None (a 3xx
	// is the answer) when empty; with redirect.SameOrigin those within
	// its origin; with redirect.CrossOrigin those to another origin too,
	// which get none of the step's headers.
	Follow redirect.Follow
}

// MCPRequest is an MCP step's message.
type MCPRequest struct {
	// Server names a server of `servers:`; Inline is one given in the step.
	Server string
	Inline *Server
	// Op is the message: initialize, discover, list, call, prompt,
	// notify, method or raw.
	Op MCPOp
	// Name is the tool (call), the prompt (prompt), the method (notify, method), the protocol
	// version (initialize, discover) or the raw message (raw).
	Name string
	// Args are the tool's arguments or the method's params.
	Args *yaml.Node
}

// DocSource is where a document step's text comes from: a file, a
// command's output, or the body of a GET.
type DocSource struct {
	File string
	Exec []string
	Env  []KV
	// HTTP is a request line, "GET /skills/x/SKILL.md".
	HTTP string
	Auth string
	// HTTPLine and AuthLine are the lines of HTTP and Auth.
	HTTPLine, AuthLine int
}

// ExecCommand is a command whose standard output, JSON, is kept from.
type ExecCommand struct {
	Argv []string
	Env  []KV
}

// KeyStep makes an Ed25519 key pair named Name (kept as Name.public_key and
// the like), or, with Sign, signs a pre-image with it.
type KeyStep struct {
	Name string
	// Seed is an optional 32-byte seed, hex (template), for a fixed key;
	// SeedLine its line.
	Seed     string
	SeedLine int
	// Sign is the pre-image's parts, in order; nil for no signature.
	Sign []PreimagePart
	// As names the signature's values (default: the key's name).
	As string
}

// PreimagePart is one part of a pre-image: text (UTF-8), hex bytes, base64
// bytes or a zero byte.
type PreimagePart struct {
	Kind  PreimageKind
	Value string // a template, except for zero
}

// Keep is one value kept from an answer.
type Keep struct {
	Name string
	// Path is a gjson path into the answer; Header names a response header
	// instead.
	Path, Header string
	// Regex, when set, keeps its first group of the value found.
	Regex *regexp.Regexp
	Line  int
}

// Expect is what must hold of an answer.
type Expect struct {
	// Status lists the accepted HTTP statuses; empty means any 2xx.
	Status []int
	// StatusLine is where the status is declared.
	StatusLine int
	// Body asserts on the counted body text.
	Body []TextAssert
	// Text asserts on a tool result's text content, joined with newlines.
	Text []TextAssert
	// Paths assert on gjson paths of the answer.
	Paths []PathAssert
	// NotError requires a tool result whose isError is not true.
	NotError     bool
	NotErrorLine int
}

// TextAssert is one assertion on text: a prefix, a substring or a regular
// expression.
type TextAssert struct {
	Kind  AssertKind // AssertPrefix, AssertContains or AssertMatches
	Value string     // template for prefix and contains
	Re    *regexp.Regexp
	Line  int
}

// PathAssert is one assertion on a gjson path: it exists (or not), equals a
// value, or matches a regular expression.
type PathAssert struct {
	Path string
	// Kind is AssertExists, AssertEquals or AssertMatches.
	Kind AssertKind
	// Exists is the wanted existence for AssertExists.
	Exists bool
	// Equals is the wanted value (YAML, compared as JSON) for AssertEquals.
	Equals *yaml.Node
	Re     *regexp.Regexp
	Line   int
}

// MCPOp is the message an mcp step sends, as the spec names it.
type MCPOp string

// The messages of an mcp step.
const (
	// OpInitialize sends initialize (its params as written, or the
	// protocol version and this client's name).
	OpInitialize MCPOp = "initialize"
	// OpDiscover sends server/discover.
	OpDiscover MCPOp = "discover"
	// OpList sends tools/list and follows nextCursor.
	OpList MCPOp = "list"
	// OpCall calls the tool Name with Args.
	OpCall MCPOp = "call"
	// OpPrompt gets the prompt Name with Args as its arguments.
	OpPrompt MCPOp = "prompt"
	// OpNotify sends the notification Name.
	OpNotify MCPOp = "notify"
	// OpMethod sends the request Name.
	OpMethod MCPOp = "method"
	// OpRaw sends Name, a JSON-RPC message written out.
	OpRaw MCPOp = "raw"
)

// mcpOps are the messages, in the order messages list them.
var mcpOps = []MCPOp{OpInitialize, OpDiscover, OpList, OpCall, OpPrompt, OpNotify, OpMethod, OpRaw}

// method returns the JSON-RPC method the message sends; name is the
// step's name, the method of notify and method.
func (o MCPOp) method(name string) string {
	switch o {
	case OpDiscover:
		return "server/discover"
	case OpList:
		return "tools/list"
	case OpCall:
		return "tools/call"
	case OpPrompt:
		return "prompts/get"
	case OpNotify, OpMethod:
		return name
	}
	return string(o)
}

// AssertKind is what an assertion asks of a text or a path.
type AssertKind string

// The kinds of assertion.
const (
	// AssertPrefix: the text starts with the value.
	AssertPrefix AssertKind = "prefix"
	// AssertContains: the text holds the value.
	AssertContains AssertKind = "contains"
	// AssertMatches: the text, or the path's value, matches a regular
	// expression.
	AssertMatches AssertKind = "matches"
	// AssertExists: the path matches something (or, wanted absent,
	// nothing).
	AssertExists AssertKind = "exists"
	// AssertEquals: the path's value equals the value, compared as JSON.
	AssertEquals AssertKind = "equals"
)

// PreimageKind is how a part of a pre-image is written.
type PreimageKind string

// The kinds of pre-image part.
const (
	// PreimageText is text, its UTF-8 bytes.
	PreimageText PreimageKind = "text"
	// PreimageHex is bytes written in hex.
	PreimageHex PreimageKind = "hex"
	// PreimageBase64 is bytes written in base64 (standard or URL-safe).
	PreimageBase64 PreimageKind = "base64"
	// PreimageZero is one zero byte.
	PreimageZero PreimageKind = "zero"
)

// HashSpecs returns the SHA-256 (hex) of a set of walks as their files
// hold them: for each spec in order, its name, the number of its files,
// then its file's bytes and each include's bytes, every one preceded by
// its length. Two runs with the same hash ran the same walks from the same
// bytes, wherever the files were.
func HashSpecs(specs []*Spec) (string, error) {
	h := sha256.New()
	put := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	for _, s := range specs {
		files := append([]string{s.File}, s.Includes...)
		put([]byte(s.Name))
		put([]byte(strconv.Itoa(len(files))))
		for _, p := range files {
			data, err := infile.Read(p, "spec file", MaxSpecFile)
			if err != nil {
				return "", fmt.Errorf("walk %s: %v", s.Name, err)
			}
			put(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
