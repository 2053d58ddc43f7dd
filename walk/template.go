package walk

import (
	"fmt"
	"regexp"
	"strings"
)

// A template is text with {{name}} in it: a variable, a kept value,
// env.NAME, or budget.KEY (a budget's value, from the budget file). Names
// hold letters, digits, _ . : and -.
type segment struct {
	lit  string
	name string // empty for a literal
}

var templateName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.:-]*$`)

func parseTemplate(s string) ([]segment, error) {
	var out []segment
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			if s != "" {
				out = append(out, segment{lit: s})
			}
			return out, nil
		}
		if i > 0 {
			out = append(out, segment{lit: s[:i]})
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return nil, fmt.Errorf("%q: {{ is not closed by }}", s)
		}
		name := strings.TrimSpace(s[i+2 : i+j])
		if !templateName.MatchString(name) {
			return nil, fmt.Errorf("{{%s}}: not a name (letters, digits, _ . : -)", s[i+2:i+j])
		}
		out = append(out, segment{name: name})
		s = s[i+j+2:]
	}
}

// templateNames returns the names a template uses.
func templateNames(s string) []string {
	segs, _ := parseTemplate(s)
	var out []string
	for _, sg := range segs {
		if sg.name != "" {
			out = append(out, sg.name)
		}
	}
	return out
}

// soleName returns the name when s is exactly one {{name}}.
func soleName(s string) (string, bool) {
	segs, err := parseTemplate(s)
	if err != nil || len(segs) != 1 || segs[0].name == "" {
		return "", false
	}
	return segs[0].name, true
}

// UndefinedError is a {{name}} that nothing defined when it was used.
type UndefinedError struct{ Name string }

// Error says which name is undefined.
func (e *UndefinedError) Error() string {
	if strings.HasPrefix(e.Name, "env.") {
		return fmt.Sprintf("{{%s}}: the environment has no %s", e.Name, strings.TrimPrefix(e.Name, "env."))
	}
	if key, ok := strings.CutPrefix(e.Name, budgetPrefix); ok {
		return fmt.Sprintf("{{%s}}: the run has no budget file that holds %s", e.Name, key)
	}
	return fmt.Sprintf("{{%s}} is not defined (not a var, a --var, or a value kept by an earlier step)", e.Name)
}

// MaxValue is the most bytes a rendered template may hold, 16 MiB (as
// MaxSpecBytes): a var that doubles another forty times over, or a repeat
// whose set doubles a value at each run, is refused with its file and
// line, not rendered until memory runs out. Spec.Check counts the vars
// and the repeats' sets before anything runs.
const MaxValue = 16 << 20

// errTooLarge says a rendered value would pass MaxValue.
func errTooLarge() error {
	return fmt.Errorf("renders to more than %d MiB, the most a rendered value may hold (a value that doubles another over and over?); use fewer copies of it", MaxValue>>20)
}

// render fills a template from lookup.
func render(s string, lookup func(string) (string, bool)) (string, error) {
	if !strings.Contains(s, "{{") {
		return s, nil
	}
	segs, err := parseTemplate(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, sg := range segs {
		if sg.name == "" {
			b.WriteString(sg.lit)
			continue
		}
		v, ok := lookup(sg.name)
		if !ok {
			return "", &UndefinedError{Name: sg.name}
		}
		if b.Len()+len(v) > MaxValue {
			return "", errTooLarge()
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// budgetPrefix starts a name read from the budget file: {{budget.KEY}}.
const budgetPrefix = "budget."
