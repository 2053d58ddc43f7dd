package walk

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/infile"
	"github.com/readmeter/readmeter/internal/redirect"
	"github.com/readmeter/readmeter/ledger"
)

// SpecError is a mistake in a spec file: the file, the line, and what is
// wrong.
type SpecError struct {
	File string
	Line int
	Msg  string
}

// Error returns "file:line: msg".
func (e *SpecError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// SpecErrors are every mistake found in one or more spec files, in order.
type SpecErrors []*SpecError

// Error returns the mistakes, one a line.
func (es SpecErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// IsWalk reports whether the YAML file at path is a walk (it has a top-level
// `walk` key) rather than an include of shared steps.
func IsWalk(path string) (bool, error) {
	root, _, err := readYAML(path)
	if err != nil {
		return false, err
	}
	if root == nil || root.Kind != yaml.MappingNode {
		return false, nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "walk" {
			return true, nil
		}
	}
	return false, nil
}

// Load reads and parses the walk spec at path, includes resolved. A bad spec
// is returned as SpecErrors naming every mistake's file and line.
func Load(path string) (*Spec, error) {
	data, err := readCapped(path)
	if err != nil {
		return nil, err
	}
	return parse(path, data)
}

// parse parses a walk spec's bytes, read from path (its includes are read
// from beside it).
func parse(path string, data []byte) (*Spec, error) {
	root, size, err := decodeYAML(path, data)
	if err != nil {
		return nil, err
	}
	p := &parser{file: path, held: &held{bytes: size}}
	s := p.walk(root)
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return s, nil
}

// readYAML reads and decodes the YAML file at path; size is what it holds
// with its aliases expanded.
func readYAML(path string) (root *yaml.Node, size int64, err error) {
	data, err := readCapped(path)
	if err != nil {
		return nil, 0, err
	}
	return decodeYAML(path, data)
}

// readCapped reads the file at path by infile's rule, refusing one of
// more than MaxSpecFile bytes before reading further.
func readCapped(path string) ([]byte, error) {
	data, err := infile.Read(path, "spec file", MaxSpecFile)
	var ie *infile.Error
	switch {
	case errors.Is(err, infile.ErrTooLarge):
		return nil, SpecErrors{{File: path, Msg: fmt.Sprintf("larger than %d MiB, the most a spec file may be; a large fixture goes in a file a step reads (exec, doc)", MaxSpecFile>>20)}}
	case errors.As(err, &ie):
		return nil, SpecErrors{{File: path, Msg: ie.Msg}}
	case err != nil:
		return nil, SpecErrors{{File: path, Msg: err.Error()}}
	}
	if errors.As(infile.WebPage(path, data, "walk spec", "give the YAML file itself (the raw file, not its web page)"), &ie) {
		return nil, SpecErrors{{File: path, Line: ie.Line, Msg: ie.Msg}}
	}
	return data, nil
}

// decodeYAML parses a spec's bytes, read from path, into its root node,
// refusing a document that holds more than MaxSpecBytes with its aliases
// expanded; size is what it holds.
func decodeYAML(path string, data []byte) (root *yaml.Node, size int64, err error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err == io.EOF {
		return nil, 0, SpecErrors{{File: path, Msg: "empty file; a spec has walk and steps keys (see docs/specs.md)"}}
	} else if err != nil {
		line := 0
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = strings.TrimSpace(m[2])
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		return nil, 0, SpecErrors{{File: path, Line: line, Msg: "not valid YAML: " + msg}}
	}
	if len(doc.Content) == 0 {
		return nil, 0, SpecErrors{{File: path, Msg: "empty file"}}
	}
	x := &expansion{size: map[*yaml.Node]int64{}, inside: map[*yaml.Node]bool{}}
	if size = x.of(&doc); size > MaxSpecBytes {
		return nil, 0, SpecErrors{x.oversize(path, &doc)}
	}
	return resolveAlias(doc.Content[0]), size, nil
}

// MaxSpecFile is the most bytes a spec file (or an include) may have,
// 1 MiB: a larger one is refused before it is parsed, as parsing YAML
// takes some hundred times its size in memory. Specs are a few kilobytes.
const MaxSpecFile = 1 << 20

// MaxSpecBytes is the most a spec may hold with its aliases expanded,
// 16 MiB: each value counted as the bytes of its text and one more (a list
// or a mapping as one byte and its values), an alias as the bytes of the
// value it names, however often it is named. So a few lines of nested
// aliases (a "billion laughs") cannot make a spec, or a request body
// written from one, that takes gigabytes.
const MaxSpecBytes = 16 << 20

// expansion measures a node tree with its aliases expanded, each node
// once: an alias costs what its value costs, however often it is used.
type expansion struct {
	size   map[*yaml.Node]int64
	inside map[*yaml.Node]bool // being measured: an alias to one is a cycle
}

// of returns the bytes n holds with its aliases expanded, capped at
// MaxSpecBytes+1 (a cycle counts as that much: it never ends).
func (x *expansion) of(n *yaml.Node) int64 {
	if v, ok := x.size[n]; ok {
		return v
	}
	if x.inside[n] {
		return MaxSpecBytes + 1
	}
	x.inside[n] = true
	var v int64
	switch {
	case n.Kind == yaml.AliasNode:
		if n.Alias != nil {
			v = x.of(n.Alias)
		}
	default:
		v = 1 + int64(len(n.Value))
		for _, c := range n.Content {
			v = min(v+x.of(c), MaxSpecBytes+1)
		}
	}
	delete(x.inside, n)
	x.size[n] = v
	return v
}

// oversize returns an error naming the line at which doc, measured by
// x.of as holding more than MaxSpecBytes, grows past it: in file order,
// the alias (or value) whose bytes take the running total past the most.
func (x *expansion) oversize(path string, doc *yaml.Node) *SpecError {
	var total int64
	var walk func(n *yaml.Node) *SpecError
	walk = func(n *yaml.Node) *SpecError {
		if n.Kind == yaml.AliasNode {
			if total += x.of(n); total <= MaxSpecBytes {
				return nil
			}
			if n.Alias != nil && x.inside[n.Alias] {
				return &SpecError{File: path, Line: n.Line, Msg: fmt.Sprintf("the alias *%s is inside the value it names: it would expand for ever", n.Value)}
			}
			return &SpecError{File: path, Line: n.Line, Msg: fmt.Sprintf("the alias *%s takes the spec past %d MiB with its aliases expanded, the most a spec may hold (an alias bomb?); write the values out, or use fewer aliases", n.Value, MaxSpecBytes>>20)}
		}
		if total += 1 + int64(len(n.Value)); total > MaxSpecBytes {
			return &SpecError{File: path, Line: n.Line, Msg: fmt.Sprintf("the spec holds more than %d MiB here with its aliases expanded, the most a spec may hold", MaxSpecBytes>>20)}
		}
		x.inside[n] = true
		defer delete(x.inside, n)
		for _, c := range n.Content {
			if e := walk(c); e != nil {
				return e
			}
		}
		return nil
	}
	if e := walk(doc); e != nil {
		return e
	}
	return &SpecError{File: path, Msg: fmt.Sprintf("holds more than %d MiB with its aliases expanded, the most a spec may hold", MaxSpecBytes>>20)}
}

var yamlLine = regexp.MustCompile(`line (\d+):\s*(.*)`)

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

type parser struct {
	file  string
	errs  SpecErrors
	stack []string // include files being read, to refuse a cycle
	// uncounted is true inside a `use` with `count: false`: its steps run
	// among the counted ones, none of them counted.
	uncounted bool
	// held is what the walk's files hold so far, shared with the parsers
	// of its includes.
	held *held
}

// held is what a walk's spec and the includes read for it hold, aliases
// expanded, against MaxSpecBytes and MaxIncludes.
type held struct {
	bytes int64
	reads int
	over  bool // a limit was passed (and said so once)
}

// MaxIncludes is the most times a walk's `use` steps read an include, its
// includes' own uses counted.
const MaxIncludes = 1000

func (p *parser) errf(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &SpecError{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// pairs returns a mapping's key and value nodes, refusing unknown and
// repeated keys.
func (p *parser) pairs(n *yaml.Node, what string, allowed ...string) [][2]*yaml.Node {
	n = resolveAlias(n)
	if n.Kind != yaml.MappingNode {
		p.errf(n, "%s: want a mapping, got %s", what, kindName(n))
		return nil
	}
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		if allowed != nil && !contains(allowed, k.Value) {
			p.errf(k, "%s: unknown key %q (known: %s)", what, k.Value, strings.Join(allowed, ", "))
			continue
		}
		if seen[k.Value] {
			p.errf(k, "%s: key %q given twice", what, k.Value)
			continue
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, v})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}

func (p *parser) str(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errf(n, "%s: want a text, got %s", what, kindName(n))
		return ""
	}
	p.template(n, n.Value, what)
	return n.Value
}

func (p *parser) boolean(n *yaml.Node, what string) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		p.errf(n, "%s: want true or false, got %s", what, kindName(n))
		return false
	}
	return n.Value == "true"
}

// template checks a template's syntax.
func (p *parser) template(n *yaml.Node, s, what string) {
	if _, err := parseTemplate(s); err != nil {
		p.errf(n, "%s: %v", what, err)
	}
}

func (p *parser) strList(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode {
		// A string is a command for sh -c.
		return []string{"sh", "-c", p.str(n, what)}
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		p.errf(n, "%s: want a command line or a non-empty list of arguments, got %s", what, kindName(n))
		return nil
	}
	var out []string
	for i, c := range n.Content {
		out = append(out, p.str(resolveAlias(c), fmt.Sprintf("%s[%d]", what, i)))
	}
	return out
}

func (p *parser) kvs(n *yaml.Node, what string) []KV {
	var out []KV
	for _, kv := range p.pairs(n, what) {
		v := kv[1]
		if v.Kind != yaml.ScalarNode {
			p.errf(v, "%s.%s: want a text, got %s", what, kv[0].Value, kindName(v))
			continue
		}
		p.template(v, v.Value, what+"."+kv[0].Value)
		out = append(out, KV{Key: kv[0].Value, Value: v.Value, Line: kv[0].Line})
	}
	return out
}

var (
	walkKeys    = []string{"walk", "about", "budget", "budgets", "isolation", "normalize", "vars", "servers", "setup", "steps"}
	includeKeys = []string{"about", "vars", "servers", "steps"}
	nameRe      = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:-]*$`)
	budgetKeyRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$0-9][A-Za-z0-9_$]*)+$`)
)

func (p *parser) walk(root *yaml.Node) *Spec {
	s := &Spec{File: p.file, Servers: map[string]*Server{}}
	if root.Kind != yaml.MappingNode {
		p.errf(root, "a walk spec is a mapping with a walk key, got %s", kindName(root))
		return s
	}
	var setup, steps, isolation *yaml.Node
	for _, kv := range p.pairs(root, "walk spec", walkKeys...) {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "walk":
			s.Name, s.Line = p.str(v, "walk"), k.Line
			if s.Name != "" && !nameRe.MatchString(s.Name) {
				p.errf(v, "walk: %q is not a name (letters, digits, _ . : -)", s.Name)
			}
		case "about":
			s.About = p.str(v, "about")
		case "budget":
			s.Budget, s.BudgetLine = p.str(v, "budget"), v.Line
			if s.Budget != "" && !budgetKeyRe.MatchString(s.Budget) {
				p.errf(v, "budget: %q is not a budget key like FIRST_TASK_TOKENS.start_tasks", s.Budget)
			}
		case "budgets":
			p.measures(s, v)
		case "isolation":
			isolation = v
			switch i := Isolation(p.str(v, "isolation")); i {
			case IsolationOwn, IsolationShared:
				s.Isolation = i
			default:
				p.errf(v, "isolation: want own (the walk reads only what it made) or shared (it reads lists other walks write), got %q", i)
			}
		case "normalize":
			p.normalize(s, v)
		case "vars":
			s.Vars = append(s.Vars, p.kvs(v, "vars")...)
		case "servers":
			p.servers(s, v)
		case "setup":
			setup = v
		case "steps":
			steps = v
		}
	}
	if s.Line == 0 {
		p.errf(root, "walk spec: no walk key (every walk spec names its walk)")
	}
	if setup != nil {
		s.Setup = p.steps(s, setup, "setup", false)
	}
	if steps == nil {
		p.errf(root, "walk spec: no steps")
	} else {
		s.Steps = p.steps(s, steps, "steps", true)
	}
	for _, st := range s.Flat() {
		if !st.Shared {
			continue
		}
		if s.Isolation == IsolationOwn && isolation != nil {
			p.errf(isolation, "isolation: own, but the step at %s:%d is shared: true (it reads what other walks write); declare isolation: shared", st.File, st.Line)
			break
		}
		s.Isolation = IsolationShared
	}
	if s.Isolation == "" {
		s.Isolation = IsolationOwn
	}
	for _, m := range s.Measures {
		if m.Part == "" {
			continue
		}
		found := false
		for _, st := range s.Flat() {
			if st.Counted && st.Part == m.Part && (m.Kind != gate.ToolList || listsTools(st)) {
				found = true
			}
		}
		if !found {
			want := "counted step"
			if m.Kind == gate.ToolList {
				want = "counted mcp list step"
			}
			p.errs = append(p.errs, &SpecError{File: m.File, Line: m.Line, Msg: fmt.Sprintf("budgets: %s: no %s has part %q; name the part as a step under steps names it", m.Key, want, m.Part)})
		}
	}
	return s
}

func (p *parser) measures(s *Spec, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "budgets: want a list of {key, measure}, got %s", kindName(n))
		return
	}
	for i, c := range n.Content {
		what := fmt.Sprintf("budgets[%d]", i)
		m := Measure{File: p.file, Line: c.Line}
		for _, kv := range p.pairs(c, what, "key", "measure") {
			switch kv[0].Value {
			case "key":
				m.Key = p.str(kv[1], what+".key")
				if m.Key != "" && !budgetKeyRe.MatchString(m.Key) {
					p.errf(kv[1], "%s.key: %q is not a budget key like TOOL_LIST_TOKENS.mcp", what, m.Key)
				}
			case "measure":
				v := p.str(kv[1], what+".measure")
				gm, ok := gate.ParseMeasure(v)
				if !ok {
					p.errf(kv[1], "%s.measure: %q: want total, bytes, calls, step:<part>, items:<part> or tool_list:<part>", what, v)
					kind, part, _ := strings.Cut(v, ":")
					gm = gate.Measure{Kind: gate.Kind(kind), Part: part}
				}
				m.Measure = gm
			}
		}
		if m.Key == "" || m.Kind == "" {
			p.errf(c, "%s: want both key and measure", what)
			continue
		}
		s.Measures = append(s.Measures, m)
	}
}

func (p *parser) normalize(s *Spec, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "normalize: want a list, got %s", kindName(n))
		return
	}
	for i, c := range n.Content {
		c = resolveAlias(c)
		what := fmt.Sprintf("normalize[%d]", i)
		if c.Kind == yaml.ScalarNode {
			if _, err := ledger.ByName(c.Value); err != nil {
				p.errf(c, "%s: %v", what, err)
				continue
			}
			s.Normalize = append(s.Normalize, Normalize{Name: c.Value, Line: c.Line})
			continue
		}
		nz := Normalize{Line: c.Line}
		has := false
		for _, kv := range p.pairs(c, what, "regex", "replace") {
			v := p.str(kv[1], what+"."+kv[0].Value)
			if kv[0].Value == "regex" {
				nz.Pattern, has = v, true
				if _, err := ledger.Regex(v, ""); err != nil {
					p.errf(kv[1], "%s: %v", what, err)
				}
			} else {
				nz.Replace = v
			}
		}
		if !has {
			p.errf(c, "%s: want regex (and replace)", what)
		}
		s.Normalize = append(s.Normalize, nz)
	}
}

var serverKeys = []string{"url", "token", "headers", "protocol", "version_header", "follow", "command", "env", "dir"}

func (p *parser) server(n *yaml.Node, what string) *Server {
	sv := &Server{Line: n.Line}
	for _, kv := range p.pairs(n, what, serverKeys...) {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "url":
			sv.URL = p.str(v, what+".url")
		case "token":
			sv.Token = p.str(v, what+".token")
		case "headers":
			sv.Headers = p.kvs(v, what+".headers")
		case "protocol":
			sv.Protocol = p.str(v, what+".protocol")
		case "version_header":
			sv.NoVersionHeader = !p.boolean(v, what+".version_header")
		case "follow":
			sv.Follow = p.follow(v, what+".follow")
		case "command":
			sv.Command = p.strList(v, what+".command")
		case "env":
			sv.Env = p.kvs(v, what+".env")
		case "dir":
			sv.Dir = filepath.Join(filepath.Dir(p.file), p.str(v, what+".dir"))
		}
	}
	if (sv.URL == "") == (sv.Command == nil) {
		p.errf(n, "%s: want a url or a command (exactly one)", what)
	}
	if sv.Follow != "" && sv.Command != nil {
		p.errf(n, "%s: follow is for a server at a url, whose answers may redirect; a command's do not", what)
	}
	return sv
}

func (p *parser) servers(s *Spec, n *yaml.Node) {
	for _, kv := range p.pairs(n, "servers") {
		name := kv[0].Value
		if _, dup := s.Servers[name]; dup {
			p.errf(kv[0], "servers: %q declared twice", name)
			continue
		}
		sv := p.server(kv[1], "servers."+name)
		sv.Name = name
		s.Servers[name] = sv
	}
}

// commonKeys are the keys every kind of step takes.
var commonKeys = []string{"part", "count", "shared", "keep", "expect", "repeat"}

// stepKeys are the keys a step may have: those that give its kind, the
// common ones, then those only a kind takes.
func stepKeys() []string {
	out := append(kindKeyNames(), commonKeys...)
	for _, d := range stepKinds {
		out = append(out, d.keys...)
	}
	return out
}

func (p *parser) steps(s *Spec, n *yaml.Node, what string, counted bool) []*Step {
	if n.Kind != yaml.SequenceNode {
		p.errf(n, "%s: want a list of steps, got %s", what, kindName(n))
		return nil
	}
	var out []*Step
	for i, c := range n.Content {
		out = append(out, p.step(s, resolveAlias(c), fmt.Sprintf("%s[%d]", what, i), counted)...)
	}
	return out
}

func (p *parser) step(s *Spec, n *yaml.Node, what string, counted bool) []*Step {
	pairs := p.pairs(n, what, stepKeys()...)
	if pairs == nil && n.Kind != yaml.MappingNode {
		return nil
	}
	st := &Step{File: p.file, Line: n.Line, Setup: !counted}
	var kind *kindDef
	var kindNode, keepNode, expectNode, repeatNode *yaml.Node
	count := true
	for _, kv := range pairs {
		k := kv[0].Value
		if d := kindOf(k); d != nil {
			if kind != nil {
				p.errf(kv[0], "%s: a step has one kind, this one has %s and %s", what, kind.key, k)
				continue
			}
			kind, kindNode = d, kv[1]
		}
	}
	if kind == nil {
		p.errf(n, "%s: a step needs a kind: one of %s", what, strings.Join(kindKeyNames(), ", "))
		return nil
	}
	if kind.new != nil {
		st.Action = kind.new()
	}
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		if kindOf(k.Value) != nil {
			continue
		}
		if owner := keyOwner(k.Value); owner != "" && owner != kind.key {
			p.errf(k, "%s: %s is for %s steps, this is a %s step", what, k.Value, owner, kind.key)
			continue
		}
		switch k.Value {
		case "part":
			st.Part = p.str(v, what+".part")
			if i := strings.IndexFunc(st.Part, unicode.IsControl); i >= 0 {
				r, _ := utf8.DecodeRuneInString(st.Part[i:])
				p.errf(v, "%s.part: %q holds the control character %U: a part name is one line of text (it names a row of every table)", what, st.Part, r)
			}
		case "count":
			count = p.boolean(v, what+".count")
		case "shared":
			st.Shared = p.boolean(v, what+".shared")
			if st.Shared && kind.key != "http" && kind.key != "mcp" {
				p.errf(k, "%s: shared is for http and mcp steps, this is a %s step", what, kind.key)
			}
		case "keep":
			keepNode = v
		case "expect":
			expectNode = v
		case "repeat":
			repeatNode = v
		}
	}
	if kind.new == nil { // use: the included steps, in place of this one
		for _, kv := range pairs {
			if k := kv[0].Value; k != "use" && k != "count" && k != "repeat" {
				p.errf(kv[0], "%s: a use step takes only count and repeat, not %s", what, k)
			}
		}
		if !counted && !count {
			p.errf(n, "%s: count: false is for steps; set-up steps are never counted", what)
		}
		was := p.uncounted
		p.uncounted = p.uncounted || !count
		defer func() { p.uncounted = was }()
		if repeatNode == nil {
			return p.use(s, kindNode, what, counted, nil)
		}
		// use with repeat: one step that runs the included steps round
		// after round, the include's vars set anew each round.
		l := p.loop(repeatNode, what+".repeat")
		l.Steps = p.use(s, kindNode, what, counted, l)
		st.Action = l
		return []*Step{st}
	}
	st.Action.parse(p, s, kindNode, pairs, what, counted)
	if _, ok := st.Action.(*Together); ok {
		return []*Step{st} // its steps take the part, keep, expect and count
	}
	can := st.Action.traits()
	st.Counted = counted && count && can.counts && !p.uncounted
	if st.Counted && st.Part == "" {
		p.errf(n, "%s: a counted step needs a part (or count: false)", what)
	}
	if st.Shared && !st.Counted {
		p.errf(n, "%s: shared is for a counted step: this one is never counted", what)
	}
	if !counted && !count {
		p.errf(n, "%s: count: false is for steps; set-up steps are never counted", what)
	}
	if keepNode != nil {
		st.Keep = p.keep(keepNode, what+".keep")
	}
	if expectNode != nil {
		st.Expect = p.expect(expectNode, what+".expect")
	}
	if repeatNode != nil {
		if !can.repeats {
			p.errf(repeatNode, "%s.repeat: only http and mcp steps repeat, this is a %s step", what, kind.key)
		} else {
			st.Repeat = p.repeat(repeatNode, what+".repeat")
		}
	}
	if !can.answers && (keepNode != nil || expectNode != nil) {
		p.errf(n, "%s: a %s step keeps its own values and takes no keep or expect", what, kind.key)
	}
	return []*Step{st}
}

// use reads an include: its steps, in place of the use step. With loop,
// the vars given to it (under as.) are the loop's, set anew each round,
// not the walk's.
func (p *parser) use(s *Spec, n *yaml.Node, what string, counted bool, loop *Loop) []*Step {
	var rel, as string
	var useVars []KV
	var varsNode *yaml.Node
	if n.Kind == yaml.MappingNode {
		for _, kv := range p.pairs(n, what+".use", "file", "as", "vars") {
			if kv[0].Value == "file" {
				rel = p.str(kv[1], what+".use.file")
			} else if kv[0].Value == "vars" {
				varsNode = kv[1]
				useVars = p.kvs(kv[1], what+".use.vars")
			} else {
				as = p.str(kv[1], what+".use.as")
				if !nameRe.MatchString(as) {
					p.errf(kv[1], "%s.use.as: %q is not a name", what, as)
					return nil
				}
			}
		}
	} else {
		rel = p.str(n, what+".use")
	}
	if rel == "" {
		if n.Kind == yaml.MappingNode {
			p.errf(n, "%s.use: want file (and as)", what)
		}
		return nil
	}
	if strings.Contains(rel, "{{") {
		p.errf(n, "%s.use: an include path is fixed, not a template", what)
		return nil
	}
	path := filepath.Join(filepath.Dir(p.file), rel)
	if filepath.Ext(path) == "" {
		path += ".yaml"
	}
	for _, f := range append(p.stack, p.file) {
		if f == path {
			p.errf(n, "%s.use: %s includes itself", what, rel)
			return nil
		}
	}
	if p.held.over {
		return nil // said once already
	}
	if p.held.reads++; p.held.reads > MaxIncludes {
		p.held.over = true
		p.errf(n, "%s.use: the walk reads includes more than %d times, the most it may; use fewer", what, MaxIncludes)
		return nil
	}
	root, size, err := readYAML(path)
	if err == nil && !slices.Contains(s.Includes, path) {
		s.Includes = append(s.Includes, path)
	}
	if err != nil {
		var se SpecErrors
		if errors.As(err, &se) {
			for _, e := range se {
				p.errs = append(p.errs, &SpecError{File: p.file, Line: n.Line, Msg: fmt.Sprintf("%s.use: %s", what, e.Error())})
			}
		}
		return nil
	}
	if p.held.bytes += size; p.held.bytes > MaxSpecBytes {
		p.held.over = true
		p.errf(n, "%s.use: %s takes the walk past %d MiB with its includes and aliases expanded, the most a walk may hold; use fewer includes", what, rel, MaxSpecBytes>>20)
		return nil
	}
	sub := &parser{file: path, stack: append(append([]string{}, p.stack...), p.file), uncounted: p.uncounted, held: p.held}
	var steps []*Step
	if root.Kind != yaml.MappingNode {
		sub.errf(root, "an include is a mapping with steps, got %s", kindName(root))
	} else {
		var stepsNode *yaml.Node
		for _, kv := range sub.pairs(root, "include", includeKeys...) {
			switch kv[0].Value {
			case "vars":
				// The walk's own variables win: an include's are defaults.
				for _, v := range sub.kvs(kv[1], "vars") {
					if !hasVar(s.Vars, v.Key) {
						s.Vars = append(s.Vars, v)
					}
				}
			case "servers":
				sub.servers(s, kv[1])
			case "steps":
				stepsNode = kv[1]
			}
		}
		if stepsNode == nil {
			sub.errf(root, "include: no steps")
		} else {
			steps = sub.steps(s, stepsNode, "steps", counted)
		}
	}
	p.errs = append(p.errs, sub.errs...)
	if useVars != nil && as == "" {
		p.errf(varsNode, "%s.use.vars: vars are given to an include used with as (its names then live under as.)", what)
		return steps
	}
	if as != "" {
		var names []string
		for _, v := range useVars {
			// The include's own {{name}} becomes {{as.name}}, set here.
			kv := KV{Key: as + "." + v.Key, Value: v.Value, Line: v.Line}
			if loop != nil {
				loop.Vars = append(loop.Vars, kv)
			} else {
				s.Vars = append(s.Vars, kv)
			}
			names = append(names, v.Key)
		}
		prefixNames(steps, as, names...)
	}
	return steps
}

func hasVar(vs []KV, k string) bool {
	for _, v := range vs {
		if v.Key == k {
			return true
		}
	}
	return false
}

var methodRe = regexp.MustCompile(`^[A-Z]+$`)

// httpMethods are the methods an http step may send (RFC 9110's and
// PATCH): a typo such as GTE is refused when the spec is read, not sent.
var httpMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"}

// parse reads the request line, "METHOD /path", and the request's keys:
// query, headers, auth and one body (json, form or body).
func (r *HTTPRequest) parse(p *parser, _ *Spec, n *yaml.Node, pairs [][2]*yaml.Node, what string, _ bool) {
	line := p.str(n, what+".http")
	method, url, ok := strings.Cut(strings.TrimSpace(line), " ")
	url = strings.TrimSpace(url)
	if !ok || !methodRe.MatchString(method) || url == "" {
		if line != "" {
			p.errf(n, "%s.http: want \"METHOD /path\", got %q", what, line)
		}
		return
	}
	if !slices.Contains(httpMethods, method) {
		p.errf(n, "%s.http: %q is not an HTTP method: use %s", what, method, strings.Join(httpMethods, ", "))
		return
	}
	r.Method, r.URL, r.Line = method, url, n.Line
	bodies := 0
	for _, kv := range pairs {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "query":
			r.Query = p.kvs(v, what+".query")
		case "headers":
			r.Headers = p.kvs(v, what+".headers")
		case "auth":
			r.Auth, r.AuthLine = p.str(v, what+".auth"), v.Line
		case "json":
			bodies++
			p.nodeTemplates(v, what+".json")
			r.JSON, r.HasBody = v, true
		case "form":
			bodies++
			r.Form, r.HasBody = p.kvs(v, what+".form"), true
		case "body":
			bodies++
			b := p.str(v, what+".body")
			r.Body, r.BodyLine, r.HasBody = &b, v.Line, true
		case "follow":
			r.Follow = p.follow(v, what+".follow")
		}
	}
	if bodies > 1 {
		p.errf(n, "%s: a request has one body: json, form or body", what)
	}
}

// follow reads a redirect policy: none, same-origin or cross-origin.
func (p *parser) follow(n *yaml.Node, what string) redirect.Follow {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errf(n, "%s: want none, same-origin or cross-origin, got %s", what, kindName(n))
		return ""
	}
	f, err := redirect.Parse(n.Value)
	if err != nil {
		p.errf(n, "%s: %v", what, err)
	}
	return f
}

// nodeTemplates checks the template syntax of every scalar under n.
func (p *parser) nodeTemplates(n *yaml.Node, what string) {
	n = resolveAlias(n)
	if n.Kind == yaml.ScalarNode {
		p.template(n, n.Value, what)
	}
	for _, c := range n.Content {
		p.nodeTemplates(c, what)
	}
}

// opNames returns the messages' names, in order.
func opNames() []string {
	out := make([]string, len(mcpOps))
	for i, o := range mcpOps {
		out[i] = string(o)
	}
	return out
}

// parse reads the message: initialize, discover or list written alone,
// or a mapping with the message, its name and params, and the server
// (named, or given inline).
func (r *MCPRequest) parse(p *parser, _ *Spec, n *yaml.Node, _ [][2]*yaml.Node, what string, _ bool) {
	if n.Kind == yaml.ScalarNode {
		v := p.str(n, what+".mcp")
		switch v {
		case string(OpInitialize), string(OpDiscover), string(OpList):
			r.Op = MCPOp(v)
		case "tools/list":
			r.Op = OpList
		default:
			p.errf(n, "%s.mcp: %q: write initialize, discover or list, or a mapping with call, notify, method or raw", what, v)
		}
		return
	}
	var inline *yaml.Node
	var inlinePairs []*yaml.Node
	for _, kv := range p.pairs(n, what+".mcp", append(append([]string{"server", "args", "params"}, opNames()...), serverKeys...)...) {
		k, v := kv[0], kv[1]
		switch {
		case k.Value == "server":
			r.Server = p.str(v, what+".mcp.server")
		case k.Value == "args" || k.Value == "params":
			p.nodeTemplates(v, what+".mcp."+k.Value)
			if r.Args != nil {
				p.errf(k, "%s.mcp: args and params are the same thing; give one", what)
			}
			r.Args = v
		case contains(opNames(), k.Value):
			if r.Op != "" {
				p.errf(k, "%s.mcp: one message a step, this one has %s and %s", what, r.Op, k.Value)
				continue
			}
			r.Op = MCPOp(k.Value)
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				r.Name = ""
			} else if v.Kind == yaml.ScalarNode && v.Tag == "!!bool" && v.Value == "true" {
				r.Name = ""
			} else {
				r.Name = p.str(v, what+".mcp."+k.Value)
			}
		default:
			inlinePairs = append(inlinePairs, k, v)
		}
	}
	if inlinePairs != nil {
		inline = &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Content: inlinePairs}
		if r.Server != "" {
			p.errf(n, "%s.mcp: name a server or give one inline (url, token, command), not both", what)
		} else {
			r.Inline = p.server(inline, what+".mcp")
		}
	}
	switch r.Op {
	case "":
		p.errf(n, "%s.mcp: no message: want one of %s", what, strings.Join(opNames(), ", "))
	case OpCall, OpPrompt, OpNotify, OpMethod, OpRaw:
		if r.Name == "" {
			p.errf(n, "%s.mcp.%s: want a name", what, r.Op)
		}
	case OpList:
		if r.Name != "" && r.Name != "tools" {
			p.errf(n, "%s.mcp.list: only tools are listed, got %q", what, r.Name)
		}
	}
	if r.Args != nil && (r.Op == OpDiscover || r.Op == OpRaw) {
		p.errf(r.Args, "%s.mcp: params are for initialize, list, call, prompt, notify and method", what)
	}
}

// parse reads where the document comes from: a file, a command or a GET.
func (d *DocSource) parse(p *parser, _ *Spec, n *yaml.Node, _ [][2]*yaml.Node, what string, _ bool) {
	srcs := 0
	for _, kv := range p.pairs(n, what+".doc", "file", "exec", "env", "http", "auth") {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "file":
			srcs++
			d.File = filepath.Join(filepath.Dir(p.file), p.str(v, what+".doc.file"))
		case "exec":
			srcs++
			d.Exec = p.strList(v, what+".doc.exec")
		case "env":
			d.Env = p.kvs(v, what+".doc.env")
		case "http":
			srcs++
			d.HTTP, d.HTTPLine = p.str(v, what+".doc.http"), v.Line
			if m, u, ok := strings.Cut(d.HTTP, " "); !ok || m != "GET" || strings.TrimSpace(u) == "" {
				p.errf(v, "%s.doc.http: want \"GET /path\", got %q", what, d.HTTP)
			}
		case "auth":
			d.Auth, d.AuthLine = p.str(v, what+".doc.auth"), v.Line
		}
	}
	if srcs != 1 && n.Kind == yaml.MappingNode {
		p.errf(n, "%s.doc: want exactly one of file, exec or http", what)
	}
}

// parse reads the key's name, its seed, and the pre-image it signs.
func (k *KeyStep) parse(p *parser, _ *Spec, n *yaml.Node, pairs [][2]*yaml.Node, what string, _ bool) {
	k.Name = p.str(n, what+".key")
	if k.Name != "" && !nameRe.MatchString(k.Name) {
		p.errf(n, "%s.key: %q is not a name", what, k.Name)
	}
	for _, kv := range pairs {
		switch kv[0].Value {
		case "seed":
			k.Seed, k.SeedLine = p.str(kv[1], what+".seed"), kv[1].Line
		case "as":
			k.As = p.str(kv[1], what+".as")
		case "sign":
			v := kv[1]
			if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
				p.errf(v, "%s.sign: want a list of parts (text, hex, base64, zero)", what)
				continue
			}
			k.Sign = []PreimagePart{}
			for i, c := range v.Content {
				c = resolveAlias(c)
				w := fmt.Sprintf("%s.sign[%d]", what, i)
				if c.Kind == yaml.ScalarNode && c.Value == string(PreimageZero) {
					k.Sign = append(k.Sign, PreimagePart{Kind: PreimageZero})
					continue
				}
				ps := p.pairs(c, w, string(PreimageText), string(PreimageHex), string(PreimageBase64))
				if len(ps) != 1 {
					if c.Kind == yaml.MappingNode {
						p.errf(c, "%s: want one of text, hex, base64, or zero", w)
					}
					continue
				}
				k.Sign = append(k.Sign, PreimagePart{Kind: PreimageKind(ps[0][0].Value), Value: p.str(ps[0][1], w+"."+ps[0][0].Value)})
			}
		}
	}
}

func (p *parser) keep(n *yaml.Node, what string) []Keep {
	var out []Keep
	for _, kv := range p.pairs(n, what) {
		k, v := kv[0], kv[1]
		kp := Keep{Name: k.Value, Line: k.Line}
		if !nameRe.MatchString(kp.Name) {
			p.errf(k, "%s: %q is not a name", what, kp.Name)
		}
		w := what + "." + kp.Name
		if v.Kind == yaml.ScalarNode {
			kp.Path = p.str(v, w)
		} else {
			for _, kv2 := range p.pairs(v, w, "path", "header", "regex") {
				s := p.str(kv2[1], w+"."+kv2[0].Value)
				switch kv2[0].Value {
				case "path":
					kp.Path = s
				case "header":
					kp.Header = s
				case "regex":
					re, err := regexp.Compile(s)
					if err != nil {
						p.errf(kv2[1], "%s.regex: %v", w, err)
					} else if re.NumSubexp() < 1 {
						p.errf(kv2[1], "%s.regex: want a group, (...), to keep", w)
					} else {
						kp.Regex = re
					}
				}
			}
			if (kp.Path == "") == (kp.Header == "") {
				p.errf(v, "%s: want a path or a header (exactly one)", w)
			}
		}
		out = append(out, kp)
	}
	return out
}

func (p *parser) expect(n *yaml.Node, what string) Expect {
	var e Expect
	for _, kv := range p.pairs(n, what, "status", "body", "text", "json", "not_error") {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "status":
			e.StatusLine = v.Line
			nodes := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				nodes = v.Content
			}
			for _, c := range nodes {
				code, err := strconv.Atoi(c.Value)
				if c.Kind != yaml.ScalarNode || err != nil || code < 100 || code > 599 {
					p.errf(c, "%s.status: want an HTTP status or a list of them, got %s", what, kindName(c))
					continue
				}
				e.Status = append(e.Status, code)
			}
		case "body":
			e.Body = p.textAsserts(v, what+".body")
		case "text":
			e.Text = p.textAsserts(v, what+".text")
		case "json":
			for _, kv2 := range p.pairs(v, what+".json") {
				e.Paths = append(e.Paths, p.pathAssert(kv2[0], kv2[1], what+".json."+kv2[0].Value))
			}
		case "not_error":
			e.NotError, e.NotErrorLine = p.boolean(v, what+".not_error"), v.Line
		}
	}
	return e
}

func (p *parser) textAsserts(n *yaml.Node, what string) []TextAssert {
	var out []TextAssert
	for _, kv := range p.pairs(n, what, string(AssertPrefix), string(AssertContains), string(AssertMatches)) {
		a := TextAssert{Kind: AssertKind(kv[0].Value), Value: p.str(kv[1], what+"."+kv[0].Value), Line: kv[1].Line}
		if a.Kind == AssertMatches {
			re, err := regexp.Compile(a.Value)
			if err != nil {
				p.errf(kv[1], "%s.matches: %v", what, err)
				continue
			}
			a.Re = re
		}
		out = append(out, a)
	}
	return out
}

func (p *parser) pathAssert(k, v *yaml.Node, what string) PathAssert {
	a := PathAssert{Path: k.Value, Line: k.Line}
	if v.Kind == yaml.MappingNode {
		ps := p.pairs(v, what, string(AssertEquals), string(AssertMatches), string(AssertExists))
		if len(ps) != 1 {
			if len(ps) > 1 {
				p.errf(v, "%s: one of equals, matches or exists", what)
			} else if v.Kind == yaml.MappingNode && len(v.Content) == 0 {
				p.errf(v, "%s: want equals, matches or exists", what)
			}
			return a
		}
		a.Kind = AssertKind(ps[0][0].Value)
		w := ps[0][1]
		switch a.Kind {
		case AssertEquals:
			p.nodeTemplates(w, what+".equals")
			a.Equals = w
		case AssertMatches:
			re, err := regexp.Compile(p.str(w, what+".matches"))
			if err != nil {
				p.errf(w, "%s.matches: %v", what, err)
			}
			a.Re = re
		case AssertExists:
			a.Exists = p.boolean(w, what+".exists")
		}
		return a
	}
	// A bare value is equals.
	p.nodeTemplates(v, what)
	a.Kind, a.Equals = AssertEquals, v
	return a
}

// together parses a together step's steps: http requests and mcp calls,
// prompts and methods, sent at once.
func (p *parser) together(s *Spec, n *yaml.Node, what string, counted bool) []*Step {
	what += ".together"
	if n.Kind != yaml.SequenceNode || len(n.Content) < 2 {
		p.errf(n, "%s: want a list of two or more steps", what)
		return nil
	}
	if len(n.Content) > MaxTogether {
		p.errf(n, "%s: %d steps; at most %d are sent at once", what, len(n.Content), MaxTogether)
		return nil
	}
	var out []*Step
	for i, c := range n.Content {
		c = resolveAlias(c)
		w := fmt.Sprintf("%s[%d]", what, i)
		for _, st := range p.step(s, c, w, counted) {
			if !st.Action.traits().together {
				p.errf(c, "%s: only http steps and mcp call, prompt and method steps are sent together", w)
				continue
			}
			if st.Repeat != nil {
				p.errf(c, "%s: a step sent together does not repeat", w)
			}
			out = append(out, st)
		}
	}
	return out
}

// MaxTogether is the most steps a together step sends at once.
const MaxTogether = 16

// repeat parses a step's repeat: {while, max, set}.
func (p *parser) repeat(n *yaml.Node, what string) *Repeat {
	r := &Repeat{Line: n.Line}
	for _, kv := range p.pairs(n, what, "while", "max", "set") {
		switch kv[0].Value {
		case "while":
			r.While = p.str(kv[1], what+".while")
			p.template(kv[1], r.While, what+".while")
		case "max":
			m, err := strconv.Atoi(kv[1].Value)
			if err != nil || kv[1].Kind != yaml.ScalarNode || m < 1 || m > MaxRepeat {
				p.errf(kv[1], "%s.max: want a whole number from 1 to %d, got %q", what, MaxRepeat, kv[1].Value)
			}
			r.Max = m
		case "set":
			r.Set = p.kvs(kv[1], what+".set")
		}
	}
	if r.While == "" {
		p.errf(n, "%s: want while, a template such as \"{{has_more}}\"", what)
	}
	if r.Max == 0 {
		p.errf(n, "%s: want max, the most runs (a bound on a server that always says there is more)", what)
	}
	return r
}
