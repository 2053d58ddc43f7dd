package walk

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
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
// are the --var values; env looks up the environment. A {{budget.KEY}} is
// checked for its form only: CheckBudgets holds it to a budget file.
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
			if key, ok := strings.CutPrefix(name, budgetPrefix); ok {
				// Read from the budget file when the walk runs
				// (Spec.CheckBudgets holds them to it); here, its form.
				if !budgetKeyRe.MatchString(key) {
					errs = append(errs, &SpecError{File: file, Line: line, Msg: fmt.Sprintf("{{%s}}: %q is not a budget key like SURVEY_BUDGET.spaces", name, key)})
				}
				continue
			}
			if !defined[name] {
				errs = append(errs, &SpecError{File: file, Line: line, Msg: (&UndefinedError{Name: name}).Error()})
			}
		}
	}
	// size holds the most bytes each name can render to, as far as the
	// spec says (a kept value counts 0): a var or a repeat's set that
	// would pass MaxValue is refused here, before anything runs.
	size := map[string]int64{}
	for k, v := range vars {
		size[k] = int64(len(v))
	}
	sized := func(file string, line int, what, tmpl string) int64 {
		n := templateSize(tmpl, size, env)
		if n > MaxValue {
			errs = append(errs, &SpecError{File: file, Line: line, Msg: what + ": " + errTooLarge().Error()})
			return 0 // reported once, not again at each value built on it
		}
		return n
	}
	for _, v := range s.Vars {
		if _, over := vars[v.Key]; !over {
			use(s.File, v.Line, v.Value)
			size[v.Key] = sized(s.File, v.Line, "vars."+v.Key, v.Value)
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
		if l, ok := st.Action.(*Loop); ok {
			// A repeated use: its count, then each round's names and
			// vars, then its steps in order, in its place.
			use(st.File, l.CountLine, l.Count)
			for _, name := range l.roundNames() {
				defined[name] = true
				size[name] = int64(max(l.Pad, 20))
			}
			for _, c := range l.Cycle {
				for _, v := range c.Values {
					size[c.Name] = max(size[c.Name], int64(len(v)))
				}
			}
			for _, v := range l.Vars {
				use(st.File, v.Line, v.Value)
				size[v.Key] = sized(st.File, v.Line, "use.vars."+v.Key, v.Value)
				defined[v.Key] = true
			}
			all = slices.Insert(all, i+1, l.Steps...)
			continue
		}
		// A together step's steps are sent at once: none sees what
		// another keeps.
		sent := st.Group()
		if sent == nil {
			sent = []*Step{st}
		}
		for _, g := range sent {
			for _, t := range g.templates() {
				use(g.File, t.at(g), t.s)
			}
		}
		for _, g := range sent {
			if m, ok := g.Action.(*MCPRequest); ok {
				m.checkServer(s, g, server, &errs)
			}
		}
		for _, g := range sent {
			for _, name := range g.defines() {
				defined[name] = true
			}
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
			// Each further run sets them again: a set that feeds on
			// itself grows run by run, up to Max-1 times.
			for range r.Max - 1 {
				grew := false
				for _, kv := range r.Set {
					before := size[kv.Key]
					size[kv.Key] = templateSize(kv.Value, size, env)
					grew = grew || size[kv.Key] > before
				}
				if !grew {
					break
				}
				if kv, over := overSize(r.Set, size); over {
					errs = append(errs, &SpecError{File: st.File, Line: kv.Line, Msg: "repeat.set." + kv.Key + ": " + errTooLarge().Error()})
					break
				}
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// overSize returns the first of set whose size passes MaxValue.
func overSize(set []KV, size map[string]int64) (KV, bool) {
	for _, kv := range set {
		if size[kv.Key] > MaxValue {
			return kv, true
		}
	}
	return KV{}, false
}

// templateSize returns the most bytes tmpl renders to with the names'
// sizes (a name not in size counts 0), at most MaxValue+1.
func templateSize(tmpl string, size map[string]int64, env func(string) (string, bool)) int64 {
	segs, _ := parseTemplate(tmpl)
	var n int64
	for _, sg := range segs {
		switch {
		case sg.name == "":
			n += int64(len(sg.lit))
		case strings.HasPrefix(sg.name, "env."):
			v, _ := env(strings.TrimPrefix(sg.name, "env."))
			n += int64(len(v))
		default:
			n += size[sg.name]
		}
		if n > MaxValue {
			return MaxValue + 1
		}
	}
	return n
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

// defines returns the names a step keeps: its keep's, and those its kind
// keeps of its own accord.
func (st *Step) defines() []string {
	var out []string
	for _, k := range st.Keep {
		out = append(out, k.Name)
	}
	if st.Action != nil {
		out = append(out, st.Action.defines()...)
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
	if st.Action != nil {
		out = st.Action.templates()
	}
	for _, a := range append(append([]TextAssert{}, st.Expect.Body...), st.Expect.Text...) {
		if a.Kind != AssertMatches { // a regular expression is not a template
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
	// A together step's steps keep and fill as any other step does.
	all := append([]*Step{}, steps...)
	for i := 0; i < len(all); i++ {
		all = append(all, all[i].Group()...)
	}
	steps = all
	defined := map[string]bool{}
	for _, v := range vars {
		defined[v] = true
	}
	for _, st := range steps {
		for _, n := range st.defines() {
			defined[n] = true
		}
		if k, ok := st.Action.(*KeyStep); ok {
			defined[k.Name] = true
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
		st.Action.rename(prefix + ".")
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
	st.Action.rewrite(f)
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
func (m *MCPRequest) checkServer(s *Spec, st *Step, check func(*Step, *Server), errs *SpecErrors) {
	switch {
	case m.Inline != nil:
		check(st, m.Inline)
	case m.Server != "":
		if sv, ok := s.Servers[m.Server]; ok {
			check(st, sv)
		} else {
			*errs = append(*errs, &SpecError{File: st.File, Line: st.Line, Msg: fmt.Sprintf("mcp.server: no server %q in servers (have: %s)", m.Server, strings.Join(s.serverNames(), ", "))})
		}
	case len(s.Servers) == 1:
		for _, sv := range s.Servers {
			check(st, sv)
		}
	default:
		*errs = append(*errs, &SpecError{File: st.File, Line: st.Line, Msg: fmt.Sprintf("mcp: which server? name one (server: ...) of %s, or give url or command", strings.Join(s.serverNames(), ", "))})
	}
}

// BudgetName is a {{budget.KEY}} a walk reads: the key, and where.
type BudgetName struct {
	Key  string
	File string
	Line int
}

// BudgetNames returns every {{budget.KEY}} the walk's templates read, in
// the order written: its vars, its servers, and its steps' requests,
// asserts, repeats and counts.
func (s *Spec) BudgetNames() []BudgetName {
	var out []BudgetName
	seen := map[BudgetName]bool{}
	add := func(file string, line int, tmpl string) {
		for _, name := range templateNames(tmpl) {
			if key, ok := strings.CutPrefix(name, budgetPrefix); ok {
				b := BudgetName{Key: key, File: file, Line: line}
				if !seen[b] {
					seen[b] = true
					out = append(out, b)
				}
			}
		}
	}
	for _, v := range s.Vars {
		add(s.File, v.Line, v.Value)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Servers)) {
		sv := s.Servers[name]
		for _, t := range sv.templates() {
			add(s.File, sv.Line, t)
		}
	}
	all := append(append([]*Step{}, s.Setup...), s.Steps...)
	for i := 0; i < len(all); i++ {
		st := all[i]
		if l, ok := st.Action.(*Loop); ok {
			add(st.File, l.CountLine, l.Count)
			for _, v := range l.Vars {
				add(st.File, v.Line, v.Value)
			}
		}
		if m, ok := st.Action.(*MCPRequest); ok && m.Inline != nil {
			for _, t := range m.Inline.templates() {
				add(st.File, st.Line, t)
			}
		}
		for _, t := range st.templates() {
			add(st.File, t.at(st), t.s)
		}
		if r := st.Repeat; r != nil {
			add(st.File, r.Line, r.While)
			for _, kv := range r.Set {
				add(st.File, kv.Line, kv.Value)
			}
		}
		all = slices.Insert(all, i+1, st.Group()...)
	}
	return out
}

// CheckBudgets holds the walk's {{budget.KEY}} names to a budget file
// before anything runs: budget looks a key's value up, and file names the
// budget file in messages. A key the file lacks is a mistake at the line
// that reads it; so is a repeated use whose count, read from the file, is
// past its max.
func (s *Spec) CheckBudgets(budget func(key string) (int64, bool), file string) error {
	var errs SpecErrors
	for _, b := range s.BudgetNames() {
		if _, ok := budget(b.Key); !ok {
			errs = append(errs, &SpecError{File: b.File, Line: b.Line, Msg: fmt.Sprintf("{{budget.%s}}: %s has no budget %s; add it, or read a key it has", b.Key, file, b.Key)})
		}
	}
	all := append(append([]*Step{}, s.Setup...), s.Steps...)
	for i := 0; i < len(all); i++ {
		st := all[i]
		all = slices.Insert(all, i+1, st.Group()...)
		l, ok := st.Action.(*Loop)
		if !ok {
			continue
		}
		count, err := render(l.Count, func(name string) (string, bool) {
			key, ok := strings.CutPrefix(name, budgetPrefix)
			if !ok {
				return "", false
			}
			n, ok := budget(key)
			return strconv.FormatInt(n, 10), ok
		})
		if err != nil {
			continue // a count with other names is held when the walk runs
		}
		if _, err := l.rounds(count); err != nil {
			errs = append(errs, &SpecError{File: st.File, Line: l.CountLine, Msg: fmt.Sprintf("repeat.count: %v (%s in %s)", err, strings.TrimSpace(l.Count), file)})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
