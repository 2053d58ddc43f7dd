package walk

import (
	"context"

	"go.yaml.in/yaml/v3"
)

// Action is what a step does, one type per kind of step: *HTTPRequest,
// *MCPRequest, *DocSource, *ExecCommand, *KeyStep, *PKCEStep, *Together or
// *Loop.
// Each kind parses its own keys, says what its steps may do, names the
// templates it fills and the values it keeps, and runs; the parser, the
// checks and the runner reach a kind through this interface, never by its
// name. A new kind is a type with these methods and a line in stepKinds.
type Action interface {
	// Kind returns the key that gives the kind in a spec: "http", "mcp",
	// "doc", "exec", "key", "pkce" or "together".
	Kind() string
	// parse reads the value of the kind's key, n, and the keys only the
	// kind takes, among pairs (the step's keys).
	parse(p *parser, s *Spec, n *yaml.Node, pairs [][2]*yaml.Node, what string, counted bool)
	// traits says what a step of the kind may do.
	traits() traits
	// run runs the step once.
	run(ctx context.Context, r *runner, st *Step) error
	// templates returns every template the kind fills when it runs (a
	// server's are checked apart).
	templates() []tmplAt
	// rewrite applies f to every template of the kind.
	rewrite(f func(string) string)
	// defines returns the names the kind keeps of its own accord (a key's
	// public key, a PKCE pair), beside the step's keep.
	defines() []string
	// rename puts the names the kind keeps of its own accord under prefix
	// ("owner.").
	rename(prefix string)
}

// traits are what a step of a kind may do.
type traits struct {
	// counts: its answer is counted as a part (unless count: false).
	counts bool
	// call: a request to the server, one of Result.Calls when counted.
	call bool
	// repeats: it takes repeat.
	repeats bool
	// together: it may be sent in a together step.
	together bool
	// answers: it has an answer to hold to expect and to keep from.
	answers bool
}

// sender is a kind whose step is one exchange: a request and its answer,
// a document read, a command run. A kind with no answer (a key) returns a
// nil exchange.
type sender interface {
	send(ctx context.Context, r *runner, st *Step) (*exchange, error)
}

// kindDef is one kind of step as the parser meets it: its key, the keys
// only its steps take, and a new value to parse into (nil for use, which
// is read in place of the step).
type kindDef struct {
	key  string
	keys []string
	new  func() Action
}

// stepKinds are the kinds of step, in the order messages list them.
var stepKinds = []kindDef{
	{key: "http", keys: []string{"query", "headers", "auth", "json", "form", "body", "follow"}, new: func() Action { return &HTTPRequest{} }},
	{key: "mcp", new: func() Action { return &MCPRequest{} }},
	{key: "doc", new: func() Action { return &DocSource{} }},
	{key: "exec", keys: []string{"env"}, new: func() Action { return &ExecCommand{} }},
	{key: "key", keys: []string{"seed", "sign", "as"}, new: func() Action { return &KeyStep{} }},
	{key: "pkce", new: func() Action { return &PKCEStep{} }},
	{key: "use"},
	{key: "together", new: func() Action { return &Together{} }},
}

// kindOf returns the kind given by key k, or nil.
func kindOf(k string) *kindDef {
	for i := range stepKinds {
		if stepKinds[i].key == k {
			return &stepKinds[i]
		}
	}
	return nil
}

// kindKeyNames returns the keys that give a kind, in order.
func kindKeyNames() []string {
	out := make([]string, len(stepKinds))
	for i, d := range stepKinds {
		out[i] = d.key
	}
	return out
}

// keyOwner returns the kind whose steps alone take key k, or "".
func keyOwner(k string) string {
	for _, d := range stepKinds {
		if contains(d.keys, k) {
			return d.key
		}
	}
	return ""
}

// once runs an exchange once: its request, then what must hold, what to
// keep, and its count.
func (r *runner) once(ctx context.Context, st *Step, s sender) error {
	if r.opts.OnStep != nil {
		defer r.opts.OnStep()
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	ex, err := s.send(ctx, r, st)
	if err != nil || ex == nil {
		return err
	}
	return r.finish(st, ex)
}

// Kind returns "http".
func (*HTTPRequest) Kind() string { return "http" }

func (*HTTPRequest) traits() traits {
	return traits{counts: true, call: true, repeats: true, together: true, answers: true}
}

func (h *HTTPRequest) run(ctx context.Context, r *runner, st *Step) error { return r.once(ctx, st, h) }

func (h *HTTPRequest) send(ctx context.Context, r *runner, st *Step) (*exchange, error) {
	return r.http(ctx, st, h)
}

func (h *HTTPRequest) templates() []tmplAt {
	out := []tmplAt{{h.URL, h.Line}, {h.Auth, h.AuthLine}}
	out = append(out, kvTemplates(h.Query)...)
	out = append(out, kvTemplates(h.Headers)...)
	out = append(out, kvTemplates(h.Form)...)
	out = append(out, nodeTemplateList(h.JSON)...)
	if h.Body != nil {
		out = append(out, tmplAt{*h.Body, h.BodyLine})
	}
	return out
}

func (h *HTTPRequest) rewrite(f func(string) string) {
	h.URL, h.Auth = f(h.URL), f(h.Auth)
	rewriteKVs(h.Query, f)
	rewriteKVs(h.Headers, f)
	rewriteKVs(h.Form, f)
	rewriteNode(h.JSON, f)
	if h.Body != nil {
		b := f(*h.Body)
		h.Body = &b
	}
}

func (*HTTPRequest) defines() []string { return nil }
func (*HTTPRequest) rename(string)     {}

// Kind returns "mcp".
func (*MCPRequest) Kind() string { return "mcp" }

// traits: every message repeats; a call, a prompt and a method are sent
// together.
func (m *MCPRequest) traits() traits {
	together := m.Op == OpCall || m.Op == OpPrompt || m.Op == OpMethod
	return traits{counts: true, call: true, repeats: true, together: together, answers: true}
}

func (m *MCPRequest) run(ctx context.Context, r *runner, st *Step) error { return r.once(ctx, st, m) }

func (m *MCPRequest) send(ctx context.Context, r *runner, st *Step) (*exchange, error) {
	return r.mcp(ctx, st, m)
}

func (m *MCPRequest) templates() []tmplAt {
	return append([]tmplAt{{s: m.Name}}, nodeTemplateList(m.Args)...)
}

func (m *MCPRequest) rewrite(f func(string) string) {
	m.Name = f(m.Name)
	rewriteNode(m.Args, f)
	if sv := m.Inline; sv != nil {
		sv.URL, sv.Token, sv.Protocol = f(sv.URL), f(sv.Token), f(sv.Protocol)
		rewriteList(sv.Command, f)
		rewriteKVs(sv.Headers, f)
		rewriteKVs(sv.Env, f)
	}
}

func (*MCPRequest) defines() []string { return nil }
func (*MCPRequest) rename(string)     {}

// Kind returns "doc".
func (*DocSource) Kind() string { return "doc" }

func (*DocSource) traits() traits { return traits{counts: true, answers: true} }

func (d *DocSource) run(ctx context.Context, r *runner, st *Step) error { return r.once(ctx, st, d) }

func (d *DocSource) send(ctx context.Context, r *runner, st *Step) (*exchange, error) {
	return r.doc(ctx, st, d)
}

func (d *DocSource) templates() []tmplAt {
	out := []tmplAt{{d.HTTP, d.HTTPLine}, {d.Auth, d.AuthLine}}
	for _, a := range d.Exec {
		out = append(out, tmplAt{s: a})
	}
	return append(out, kvTemplates(d.Env)...)
}

func (d *DocSource) rewrite(f func(string) string) {
	d.HTTP, d.Auth = f(d.HTTP), f(d.Auth)
	rewriteList(d.Exec, f)
	rewriteKVs(d.Env, f)
}

func (*DocSource) defines() []string { return nil }
func (*DocSource) rename(string)     {}

// Kind returns "exec".
func (*ExecCommand) Kind() string { return "exec" }

func (e *ExecCommand) parse(p *parser, _ *Spec, n *yaml.Node, pairs [][2]*yaml.Node, what string, _ bool) {
	e.Argv = p.strList(n, what+".exec")
	for _, kv := range pairs {
		if kv[0].Value == "env" {
			e.Env = p.kvs(kv[1], what+".env")
		}
	}
}

func (*ExecCommand) traits() traits { return traits{answers: true} }

func (e *ExecCommand) run(ctx context.Context, r *runner, st *Step) error { return r.once(ctx, st, e) }

func (e *ExecCommand) send(ctx context.Context, r *runner, st *Step) (*exchange, error) {
	return r.exec(ctx, st, e)
}

func (e *ExecCommand) templates() []tmplAt {
	var out []tmplAt
	for _, a := range e.Argv {
		out = append(out, tmplAt{s: a})
	}
	return append(out, kvTemplates(e.Env)...)
}

func (e *ExecCommand) rewrite(f func(string) string) {
	rewriteList(e.Argv, f)
	rewriteKVs(e.Env, f)
}

func (*ExecCommand) defines() []string { return nil }
func (*ExecCommand) rename(string)     {}

// Kind returns "key".
func (*KeyStep) Kind() string { return "key" }

func (*KeyStep) traits() traits { return traits{} }

func (k *KeyStep) run(ctx context.Context, r *runner, st *Step) error { return r.once(ctx, st, k) }

func (k *KeyStep) send(_ context.Context, r *runner, st *Step) (*exchange, error) {
	return nil, r.key(st, k)
}

func (k *KeyStep) templates() []tmplAt {
	out := []tmplAt{{k.Seed, k.SeedLine}}
	for _, p := range k.Sign {
		out = append(out, tmplAt{s: p.Value})
	}
	if k.Sign != nil {
		// Signing needs the key made by an earlier key step.
		out = append(out, tmplAt{s: "{{" + k.Name + ".seed}}"})
	}
	return out
}

func (k *KeyStep) rewrite(f func(string) string) {
	k.Seed = f(k.Seed)
	for i := range k.Sign {
		k.Sign[i].Value = f(k.Sign[i].Value)
	}
}

func (k *KeyStep) defines() []string {
	var out []string
	if k.Sign == nil {
		for _, o := range keyOutputs {
			out = append(out, k.Name+"."+o)
		}
		return out
	}
	as := k.As
	if as == "" {
		as = k.Name
	}
	for _, o := range signOutputs {
		out = append(out, as+"."+o)
	}
	return out
}

func (k *KeyStep) rename(prefix string) {
	k.Name = prefix + k.Name
	if k.As != "" {
		k.As = prefix + k.As
	}
}

// PKCEStep makes an OAuth PKCE pair named Name: Name.verifier,
// Name.challenge (S256) and Name.method.
type PKCEStep struct {
	Name string
}

// Kind returns "pkce".
func (*PKCEStep) Kind() string { return "pkce" }

func (k *PKCEStep) parse(p *parser, _ *Spec, n *yaml.Node, _ [][2]*yaml.Node, what string, _ bool) {
	k.Name = p.str(n, what+".pkce")
	if k.Name != "" && !nameRe.MatchString(k.Name) {
		p.errf(n, "%s.pkce: %q is not a name", what, k.Name)
	}
}

func (*PKCEStep) traits() traits { return traits{} }

func (k *PKCEStep) run(ctx context.Context, r *runner, st *Step) error { return r.once(ctx, st, k) }

func (k *PKCEStep) send(_ context.Context, r *runner, _ *Step) (*exchange, error) {
	return nil, r.pkce(k)
}

func (*PKCEStep) templates() []tmplAt         { return nil }
func (*PKCEStep) rewrite(func(string) string) {}

func (k *PKCEStep) defines() []string {
	var out []string
	for _, o := range pkceOutputs {
		out = append(out, k.Name+"."+o)
	}
	return out
}

func (k *PKCEStep) rename(prefix string) { k.Name = prefix + k.Name }

// Together is a step whose steps are sent at once: each answer is
// checked, kept from and counted under its own part, in the order
// written, once all have come.
type Together struct {
	Steps []*Step
}

// Kind returns "together".
func (*Together) Kind() string { return "together" }

func (t *Together) parse(p *parser, s *Spec, n *yaml.Node, pairs [][2]*yaml.Node, what string, counted bool) {
	for _, kv := range pairs {
		if k := kv[0].Value; k != "together" {
			p.errf(kv[0], "%s: a together step takes no %s: give it to the steps inside", what, k)
		}
	}
	t.Steps = p.together(s, n, what, counted)
}

func (*Together) traits() traits { return traits{} }

func (t *Together) run(ctx context.Context, r *runner, _ *Step) error {
	return r.together(ctx, t.Steps)
}

// The templates, names and renames of a together step are its steps'.
func (*Together) templates() []tmplAt         { return nil }
func (*Together) rewrite(func(string) string) {}
func (*Together) defines() []string           { return nil }
func (*Together) rename(string)               {}

// listsTools reports whether st is an mcp list step, whose answer is a
// tool list a tool_list measure reads.
func listsTools(st *Step) bool {
	m, ok := st.Action.(*MCPRequest)
	return ok && m.Op == OpList
}
