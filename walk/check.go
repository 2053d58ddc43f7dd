package walk

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Builtins are the names every walk defines: the base URL, its host, the
// walk's name and a run id (8 hex digits, new for every run, so that
// concurrent runs can name what they create apart).
var Builtins = []string{"url", "url.host", "walk", "run.id", "run.short"}

// keyOutputs are the names a key step keeps, after its own name.
var keyOutputs = []string{"public_key", "public_key_base64", "public_key_base64url", "seed"}

// signOutputs are the names a signing key step keeps.
var signOutputs = []string{"signature", "signature_base64", "signature_base64url"}

// pkceOutputs are the names a pkce step keeps.
var pkceOutputs = []string{"verifier", "challenge", "method"}

// Check finds, before anything is sent, every {{name}} that nothing defines
// when it is used, and every mcp step naming a server the walk lacks. vars
// are the --var values; env looks up the environment.
func (s *Spec) Check(vars map[string]string, env func(string) (string, bool)) error {
	var errs SpecErrors
	defined := map[string]bool{}
	for _, b := range Builtins {
		defined[b] = true
	}
	use := func(file string, line int, tmpl string) {
		for _, name := range templateNames(tmpl) {
			if strings.HasPrefix(name, "env.") {
				if _, ok := env(strings.TrimPrefix(name, "env.")); !ok {
					errs = append(errs, &SpecError{File: file, Line: line, Msg: (&UndefinedError{Name: name}).Error()})
				}
				continue
			}
			if !defined[name] {
				errs = append(errs, &SpecError{File: file, Line: line, Msg: (&UndefinedError{Name: name}).Error()})
			}
		}
	}
	for _, v := range s.Vars {
		if _, over := vars[v.Key]; !over {
			use(s.File, v.Line, v.Value)
		}
		defined[v.Key] = true
	}
	for k := range vars {
		defined[k] = true
	}
	checkedServers := map[*Server]bool{}
	server := func(st *Step, sv *Server) {
		if checkedServers[sv] {
			return
		}
		checkedServers[sv] = true
		for _, t := range sv.templates() {
			use(st.File, st.Line, t)
		}
	}
	all := append(append([]*Step{}, s.Setup...), s.Steps...)
	for i := 0; i < len(all); i++ {
		st := all[i]
		if st.Group != nil {
			// Sent at once: none sees what another keeps.
			var defs []string
			for _, g := range st.Group {
				for _, t := range g.templates() {
					use(g.File, t.at(g), t.s)
				}
				defs = append(defs, g.defines()...)
			}
			for _, g := range st.Group {
				if g.MCP != nil {
					g.checkServer(s, server, &errs)
				}
			}
			for _, name := range defs {
				defined[name] = true
			}
			continue
		}
		for _, t := range st.templates() {
			use(st.File, t.at(st), t.s)
		}
		if st.MCP != nil {
			st.checkServer(s, server, &errs)
		}
		for _, name := range st.defines() {
			defined[name] = true
		}
		if r := st.Repeat; r != nil {
			// The condition and the next run's variables read what the run kept.
			use(st.File, r.Line, r.While)
			for _, kv := range r.Set {
				use(st.File, kv.Line, kv.Value)
			}
			for _, kv := range r.Set {
				defined[kv.Key] = true
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func (s *Spec) serverNames() []string {
	var out []string
	for n := range s.Servers {
		out = append(out, n)
	}
	sort.Strings(out)
	if out == nil {
		return []string{"none declared"}
	}
	return out
}

// defines returns the names a step keeps.
func (st *Step) defines() []string {
	var out []string
	for _, k := range st.Keep {
		out = append(out, k.Name)
	}
	if st.Key != nil {
		if st.Key.Sign == nil {
			for _, o := range keyOutputs {
				out = append(out, st.Key.Name+"."+o)
			}
		} else {
			as := st.Key.As
			if as == "" {
				as = st.Key.Name
			}
			for _, o := range signOutputs {
				out = append(out, as+"."+o)
			}
		}
	}
	if st.PKCE != "" {
		for _, o := range pkceOutputs {
			out = append(out, st.PKCE+"."+o)
		}
	}
	return out
}

type tmplAt struct {
	s    string
	line int // 0: the step's line
}

func (t tmplAt) at(st *Step) int {
	if t.line > 0 {
		return t.line
	}
	return st.Line
}

func kvTemplates(kvs []KV) []tmplAt {
	var out []tmplAt
	for _, kv := range kvs {
		out = append(out, tmplAt{kv.Value, kv.Line})
	}
	return out
}

func nodeTemplateList(n *yaml.Node) []tmplAt {
	if n == nil {
		return nil
	}
	n = resolveAlias(n)
	var out []tmplAt
	if n.Kind == yaml.ScalarNode {
		return []tmplAt{{n.Value, n.Line}}
	}
	for _, c := range n.Content {
		out = append(out, nodeTemplateList(c)...)
	}
	return out
}

func (sv *Server) templates() []string {
	out := []string{sv.URL, sv.Token, sv.Protocol}
	out = append(out, sv.Command...)
	for _, kv := range append(append([]KV{}, sv.Headers...), sv.Env...) {
		out = append(out, kv.Value)
	}
	return out
}

// templates returns every template a step fills when it runs (a server's
// are checked apart).
func (st *Step) templates() []tmplAt {
	var out []tmplAt
	add := func(ss ...string) {
		for _, s := range ss {
			out = append(out, tmplAt{s: s})
		}
	}
	if r := st.HTTP; r != nil {
		out = append(out, tmplAt{r.URL, r.Line}, tmplAt{r.Auth, r.AuthLine})
		out = append(out, kvTemplates(r.Query)...)
		out = append(out, kvTemplates(r.Headers)...)
		out = append(out, kvTemplates(r.Form)...)
		out = append(out, nodeTemplateList(r.JSON)...)
		if r.Body != nil {
			out = append(out, tmplAt{*r.Body, r.BodyLine})
		}
	}
	if r := st.MCP; r != nil {
		add(r.Name)
		out = append(out, nodeTemplateList(r.Args)...)
	}
	if d := st.Doc; d != nil {
		out = append(out, tmplAt{d.HTTP, d.HTTPLine}, tmplAt{d.Auth, d.AuthLine})
		add(d.Exec...)
		out = append(out, kvTemplates(d.Env)...)
	}
	if e := st.Exec; e != nil {
		add(e.Argv...)
		out = append(out, kvTemplates(e.Env)...)
	}
	if k := st.Key; k != nil {
		out = append(out, tmplAt{k.Seed, k.SeedLine})
		for _, p := range k.Sign {
			add(p.Value)
		}
		if k.Sign != nil {
			// Signing needs the key made by an earlier key step.
			add("{{" + k.Name + ".seed}}")
		}
	}
	for _, a := range append(append([]TextAssert{}, st.Expect.Body...), st.Expect.Text...) {
		if a.Kind != "matches" { // a regular expression is not a template
			out = append(out, tmplAt{a.Value, a.Line})
		}
	}
	for _, a := range st.Expect.Paths {
		out = append(out, nodeTemplateList(a.Equals)...)
	}
	return out
}

// prefixNames puts every name the steps define under prefix ("owner."):
// what they keep, their keys and PKCE pairs, and every use of those names
// in the steps' templates. An include used with `as` so sets up a second
// KEY beside the first.
func prefixNames(steps []*Step, prefix string, vars ...string) {
	defined := map[string]bool{}
	for _, v := range vars {
		defined[v] = true
	}
	for _, st := range steps {
		for _, n := range st.defines() {
			defined[n] = true
		}
		if st.Key != nil {
			defined[st.Key.Name] = true
		}
	}
	re := func(s string) string {
		if !strings.Contains(s, "{{") {
			return s
		}
		segs, err := parseTemplate(s)
		if err != nil {
			return s
		}
		var b strings.Builder
		for _, sg := range segs {
			switch {
			case sg.name == "":
				b.WriteString(sg.lit)
			case defined[sg.name]:
				b.WriteString("{{" + prefix + "." + sg.name + "}}")
			default:
				b.WriteString("{{" + sg.name + "}}")
			}
		}
		return b.String()
	}
	for _, st := range steps {
		st.rewrite(re)
		for i := range st.Keep {
			st.Keep[i].Name = prefix + "." + st.Keep[i].Name
		}
		if st.Key != nil {
			st.Key.Name = prefix + "." + st.Key.Name
			if st.Key.As != "" {
				st.Key.As = prefix + "." + st.Key.As
			}
		}
		if st.PKCE != "" {
			st.PKCE = prefix + "." + st.PKCE
		}
	}
}

func rewriteKVs(kvs []KV, f func(string) string) {
	for i := range kvs {
		kvs[i].Value = f(kvs[i].Value)
	}
}

func rewriteNode(n *yaml.Node, f func(string) string) {
	if n == nil {
		return
	}
	n = resolveAlias(n)
	if n.Kind == yaml.ScalarNode {
		n.Value = f(n.Value)
	}
	for _, c := range n.Content {
		rewriteNode(c, f)
	}
}

func rewriteList(xs []string, f func(string) string) {
	for i := range xs {
		xs[i] = f(xs[i])
	}
}

// rewrite applies f to every template of the step.
func (st *Step) rewrite(f func(string) string) {
	if r := st.HTTP; r != nil {
		r.URL, r.Auth = f(r.URL), f(r.Auth)
		rewriteKVs(r.Query, f)
		rewriteKVs(r.Headers, f)
		rewriteKVs(r.Form, f)
		rewriteNode(r.JSON, f)
		if r.Body != nil {
			b := f(*r.Body)
			r.Body = &b
		}
	}
	if r := st.MCP; r != nil {
		r.Name = f(r.Name)
		rewriteNode(r.Args, f)
		if sv := r.Inline; sv != nil {
			sv.URL, sv.Token, sv.Protocol = f(sv.URL), f(sv.Token), f(sv.Protocol)
			rewriteList(sv.Command, f)
			rewriteKVs(sv.Headers, f)
			rewriteKVs(sv.Env, f)
		}
	}
	if d := st.Doc; d != nil {
		d.HTTP, d.Auth = f(d.HTTP), f(d.Auth)
		rewriteList(d.Exec, f)
		rewriteKVs(d.Env, f)
	}
	if e := st.Exec; e != nil {
		rewriteList(e.Argv, f)
		rewriteKVs(e.Env, f)
	}
	if k := st.Key; k != nil {
		k.Seed = f(k.Seed)
		for i := range k.Sign {
			k.Sign[i].Value = f(k.Sign[i].Value)
		}
	}
	for i := range st.Expect.Body {
		st.Expect.Body[i].Value = f(st.Expect.Body[i].Value)
	}
	for i := range st.Expect.Text {
		st.Expect.Text[i].Value = f(st.Expect.Text[i].Value)
	}
	for _, a := range st.Expect.Paths {
		rewriteNode(a.Equals, f)
	}
}

// checkServer checks the server an mcp step names, with check.
func (st *Step) checkServer(s *Spec, check func(*Step, *Server), errs *SpecErrors) {
	switch {
	case st.MCP.Inline != nil:
		check(st, st.MCP.Inline)
	case st.MCP.Server != "":
		if sv, ok := s.Servers[st.MCP.Server]; ok {
			check(st, sv)
		} else {
			*errs = append(*errs, &SpecError{File: st.File, Line: st.Line, Msg: fmt.Sprintf("mcp.server: no server %q in servers (have: %s)", st.MCP.Server, strings.Join(s.serverNames(), ", "))})
		}
	case len(s.Servers) == 1:
		for _, sv := range s.Servers {
			check(st, sv)
		}
	default:
		*errs = append(*errs, &SpecError{File: st.File, Line: st.Line, Msg: fmt.Sprintf("mcp: which server? name one (server: ...) of %s, or give url or command", strings.Join(s.serverNames(), ", "))})
	}
}
