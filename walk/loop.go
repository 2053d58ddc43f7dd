package walk

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Loop is a use step with a repeat: the included steps run in order, one
// round after another, Count times. Before each round the round's number
// (1 to Count), the cycled values and the include's vars are set, so each
// round makes its own things: the survey's twenty SPACEs from one include.
type Loop struct {
	// Count is how many rounds (a template, such as
	// "{{budget.SURVEY_BUDGET.spaces}}"), rendered once when the step
	// starts; CountLine is its line.
	Count     string
	CountLine int
	// Max bounds Count: a count above it fails the step at CountLine.
	Max int
	// Index, when set, is the name that holds the round's number, 1 to
	// Count; with Pad, Index.pad holds it zero-padded to Pad digits.
	Index string
	Pad   int
	// Cycle are names whose value goes round a list: round k takes
	// entry (k-1) mod the list's length.
	Cycle []Cycle
	// Vars are the include's vars (under its as.), rendered at the start
	// of each round, after the index and the cycled values.
	Vars []KV
	// Steps are the included steps, run in order each round.
	Steps []*Step
	// Line is where the repeat is declared.
	Line int
}

// Cycle is a name of a loop whose value goes round a list.
type Cycle struct {
	Name   string
	Values []string
	Line   int
}

// Kind returns "use".
func (*Loop) Kind() string { return "use" }

// parse is never called: the parser builds a Loop from a use step with a
// repeat (parser.loop).
func (*Loop) parse(*parser, *Spec, *yaml.Node, [][2]*yaml.Node, string, bool) {}

func (*Loop) traits() traits { return traits{} }

func (l *Loop) run(ctx context.Context, r *runner, st *Step) error { return r.loop(ctx, st, l) }

// The templates of a loop are checked in order with its steps
// (Spec.Check), not as one step's.
func (*Loop) templates() []tmplAt { return nil }

func (l *Loop) rewrite(f func(string) string) {
	l.Count = f(l.Count)
	rewriteKVs(l.Vars, f)
}

func (l *Loop) defines() []string {
	out := l.roundNames()
	for _, v := range l.Vars {
		out = append(out, v.Key)
	}
	return out
}

// roundNames returns the names set before each round: the index (and its
// padded form) and the cycled names.
func (l *Loop) roundNames() []string {
	var out []string
	if l.Index != "" {
		out = append(out, l.Index)
		if l.Pad > 0 {
			out = append(out, l.Index+".pad")
		}
	}
	for _, c := range l.Cycle {
		out = append(out, c.Name)
	}
	return out
}

func (l *Loop) rename(prefix string) {
	if l.Index != "" {
		l.Index = prefix + l.Index
	}
	for i := range l.Cycle {
		l.Cycle[i].Name = prefix + l.Cycle[i].Name
	}
	for i := range l.Vars {
		l.Vars[i].Key = prefix + l.Vars[i].Key
	}
}

// rounds returns how many rounds count, rendered, asks for: a whole
// number from 0 to Max.
func (l *Loop) rounds(count string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(count))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a whole number of rounds", clip(count))
	}
	if n > l.Max {
		return 0, fmt.Errorf("%d rounds, past the step's max of %d; raise max if the walk is to make that many", n, l.Max)
	}
	return n, nil
}

// loop runs a loop's rounds.
func (r *runner) loop(ctx context.Context, st *Step, l *Loop) error {
	count, err := r.sc.render(l.Count)
	if err != nil {
		return specErrAt(st, l.CountLine, err)
	}
	n, err := l.rounds(count)
	if err != nil {
		return &SpecError{File: st.File, Line: l.CountLine, Msg: "repeat.count: " + err.Error()}
	}
	for k := 1; k <= n; k++ {
		if l.Index != "" {
			r.sc.set(l.Index, value{text: strconv.Itoa(k)}, false)
			if l.Pad > 0 {
				r.sc.set(l.Index+".pad", value{text: fmt.Sprintf("%0*d", l.Pad, k)}, false)
			}
		}
		for _, c := range l.Cycle {
			r.sc.set(c.Name, value{text: c.Values[(k-1)%len(c.Values)]}, false)
		}
		for _, v := range l.Vars {
			t, err := r.sc.render(v.Value)
			if err != nil {
				return &SpecError{File: st.File, Line: v.Line, Msg: "use.vars." + v.Key + ": " + err.Error()}
			}
			r.sc.set(v.Key, value{text: t}, false)
		}
		for _, in := range l.Steps {
			if err := r.step(ctx, in); err != nil {
				return err
			}
		}
	}
	return nil
}

// MaxPad is the most digits a loop's index is padded to.
const MaxPad = 9

// loop reads a use step's repeat: count, max, index, pad and cycle.
func (p *parser) loop(n *yaml.Node, what string) *Loop {
	l := &Loop{Line: n.Line}
	var countNode *yaml.Node
	for _, kv := range p.pairs(n, what, "count", "max", "index", "pad", "cycle") {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "count":
			l.Count, l.CountLine, countNode = p.str(v, what+".count"), v.Line, v
		case "max":
			m, err := strconv.Atoi(v.Value)
			if err != nil || v.Kind != yaml.ScalarNode || m < 1 || m > MaxRepeat {
				p.errf(v, "%s.max: want a whole number from 1 to %d, got %q", what, MaxRepeat, v.Value)
			}
			l.Max = m
		case "index":
			l.Index = p.str(v, what+".index")
			if l.Index != "" && !nameRe.MatchString(l.Index) {
				p.errf(v, "%s.index: %q is not a name", what, l.Index)
			}
		case "pad":
			d, err := strconv.Atoi(v.Value)
			if err != nil || v.Kind != yaml.ScalarNode || d < 1 || d > MaxPad {
				p.errf(v, "%s.pad: want a number of digits from 1 to %d, got %q", what, MaxPad, v.Value)
			}
			l.Pad = d
		case "cycle":
			for _, c := range p.pairs(v, what+".cycle") {
				name, list := c[0].Value, c[1]
				if !nameRe.MatchString(name) {
					p.errf(c[0], "%s.cycle: %q is not a name", what, name)
					continue
				}
				if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
					p.errf(list, "%s.cycle.%s: want a non-empty list of values, got %s", what, name, kindName(list))
					continue
				}
				cy := Cycle{Name: name, Line: c[0].Line}
				for i, e := range list.Content {
					e = resolveAlias(e)
					if e.Kind != yaml.ScalarNode || e.Tag == "!!null" {
						p.errf(e, "%s.cycle.%s[%d]: want a text, got %s", what, name, i, kindName(e))
						continue
					}
					if strings.Contains(e.Value, "{{") {
						p.errf(e, "%s.cycle.%s[%d]: a cycled value is fixed, not a template", what, name, i)
						continue
					}
					cy.Values = append(cy.Values, e.Value)
				}
				if len(cy.Values) == len(list.Content) {
					l.Cycle = append(l.Cycle, cy)
				}
			}
		}
	}
	if l.Count == "" {
		p.errf(n, "%s: want count, the number of rounds (a number, or a template such as \"{{budget.SURVEY_BUDGET.spaces}}\")", what)
	}
	if l.Max == 0 {
		p.errf(n, "%s: want max, the most rounds", what)
	}
	if l.Pad > 0 && l.Index == "" {
		p.errf(n, "%s: pad is for index: name the round's number first", what)
	}
	if l.Count != "" && l.Max > 0 && !strings.Contains(l.Count, "{{") {
		if _, err := l.rounds(l.Count); err != nil {
			p.errf(countNode, "%s.count: %v", what, err)
		}
	}
	return l
}
