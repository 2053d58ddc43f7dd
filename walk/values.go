package walk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/readmeter/readmeter/internal/secret"
	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"
)

// value is a variable or a kept value: its text, and its JSON when it was
// kept from a JSON answer (so {{n}} alone in a JSON body keeps its type).
type value struct {
	text string
	raw  string // JSON text; empty for a plain string
}

// scope holds a run's names.
type scope struct {
	vals    map[string]value
	env     func(string) (string, bool)
	budget  func(string) (int64, bool) // nil: no budget file
	mu      sync.Mutex                 // guards secrets: steps sent together add to them at once
	secrets []string
}

func (sc *scope) lookup(name string) (string, bool) {
	if env, ok := strings.CutPrefix(name, "env."); ok {
		return sc.env(env)
	}
	if key, ok := strings.CutPrefix(name, budgetPrefix); ok {
		if sc.budget == nil {
			return "", false
		}
		n, ok := sc.budget(key)
		return strconv.FormatInt(n, 10), ok
	}
	v, ok := sc.vals[name]
	return v.text, ok
}

func (sc *scope) render(s string) (string, error) { return render(s, sc.lookup) }

func (sc *scope) set(name string, v value, secret bool) {
	sc.vals[name] = v
	if secret && v.text != "" {
		sc.secret(v.text)
	}
}

func (sc *scope) secret(s string) {
	if len(s) < 4 {
		return // too short to redact without mangling the text
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	for _, x := range sc.secrets {
		if x == s {
			return
		}
	}
	sc.secrets = append(sc.secrets, s)
}

// header keeps a header's value out of what is printed when the header
// carries a credential: the whole value, and the token after its scheme
// ("Bearer TOKEN").
func (sc *scope) header(key, v string) {
	if !secret.Header(key) {
		return
	}
	sc.secret(v)
	if _, tok, ok := strings.Cut(v, " "); ok {
		sc.secret(strings.TrimSpace(tok))
	}
}

// secretName reports whether a kept value's name or path says it is a
// credential, never to be printed.
var secretName = regexp.MustCompile(`(?i)(^|[._-])(access_token|refresh_token|id_token|token|secret|password|code_verifier|verifier|seed|api_?key|private_?key)$`)

// credential is a field name that holds a credential: one that is, or ends
// in, token, secret, password, api key, private key, verifier, seed or
// authorization ("token", "access_token", "client_secret", "apiKey").
const credential = `(?:[A-Za-z0-9_-]*)(?:token|secret|password|passwd|api[_-]?key|private[_-]?key|verifier|seed|authorization)`

// secretField finds credentials in answer and request text, JSON and form.
// A JSON member is found in a JSON text written inside a JSON string too
// (its quotes escaped: \"token\":\"...\"), however deep.
var (
	secretJSON = regexp.MustCompile(`(?i)(\\*)"` + credential + `\\*"\s*:\s*(\\*)"`)
	secretForm = regexp.MustCompile(`(?i)((?:^|[&?])` + credential + `=)([^&\s]*)`)
)

// redact replaces every secret and every credential field in s.
func (sc *scope) redact(s string) string {
	sc.mu.Lock()
	secrets := sc.secrets
	sc.mu.Unlock()
	s = secret.Redact(s, secrets) // in every spelling: escaped, URL-encoded, base64
	s = redactJSONFields(s)
	s = secretForm.ReplaceAllString(s, "${1}[redacted]")
	return s
}

// renderJSON writes n as JSON, in file order, filling templates. A string
// that is exactly one {{name}} of a value kept from JSON is written as that
// JSON (a number stays a number).
func (sc *scope) renderJSON(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	if err := sc.writeJSON(&b, resolveAlias(n)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func (sc *scope) writeJSON(b *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k, err := sc.render(n.Content[i].Value)
			if err != nil {
				return err
			}
			b.Write(jsonString(k))
			b.WriteByte(':')
			if err := sc.writeJSON(b, resolveAlias(n.Content[i+1])); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := sc.writeJSON(b, resolveAlias(c)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			b.WriteString("null")
		case "!!bool":
			b.WriteString(n.Value)
		case "!!int", "!!float":
			f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
			if err != nil || !json.Valid([]byte(n.Value)) {
				if err != nil {
					return fmt.Errorf("line %d: %q is not a JSON number", n.Line, n.Value)
				}
				b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
				return nil
			}
			b.WriteString(n.Value)
		default:
			if name, ok := soleName(n.Value); ok {
				if v, ok := sc.vals[name]; ok && v.raw != "" {
					// Compact, as JSON.stringify writes a value (a value
					// kept from a command's indented output included).
					if err := json.Compact(b, []byte(v.raw)); err != nil {
						b.WriteString(v.raw)
					}
					return nil
				}
				if strings.HasPrefix(name, budgetPrefix) {
					// A budget is a number: written as one.
					if v, ok := sc.lookup(name); ok {
						b.WriteString(v)
						return nil
					}
				}
			}
			s, err := sc.render(n.Value)
			if err != nil {
				return err
			}
			b.Write(jsonString(s))
		}
	default:
		return fmt.Errorf("line %d: cannot write this as JSON", n.Line)
	}
	return nil
}

// equalJSON reports whether a gjson result equals the wanted YAML value,
// compared as JSON values (numbers by value, objects by members).
func (sc *scope) equalJSON(got gjson.Result, want *yaml.Node) (bool, string, error) {
	w, err := sc.renderJSON(want)
	if err != nil {
		return false, "", err
	}
	var a, b any
	if err := json.Unmarshal([]byte(got.Raw), &a); err != nil {
		return false, string(w), nil
	}
	if err := json.Unmarshal(w, &b); err != nil {
		return false, string(w), err
	}
	return deepEqual(a, b), string(w), nil
}

func deepEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// keptValue turns a gjson result into a kept value: strings as their text,
// anything else as its JSON.
func keptValue(r gjson.Result) value {
	if r.Type == gjson.String {
		return value{text: r.String(), raw: r.Raw}
	}
	return value{text: r.Raw, raw: r.Raw}
}

func init() {
	// @commas joins an array's values with commas, as a JSON string: the
	// names a read of many takes in one query value (items.#.name|@commas).
	// With an argument, at most that many: @commas:20.
	gjson.AddModifier("commas", func(jsonText, arg string) string {
		max := -1
		if arg != "" {
			if n, err := strconv.Atoi(arg); err == nil && n >= 0 {
				max = n
			}
		}
		var parts []string
		gjson.Parse(jsonText).ForEach(func(_, v gjson.Result) bool {
			if max >= 0 && len(parts) >= max {
				return false
			}
			if v.Type == gjson.String {
				parts = append(parts, v.String())
			} else {
				parts = append(parts, v.Raw)
			}
			return true
		})
		b, _ := json.Marshal(strings.Join(parts, ","))
		return string(b)
	})
}

// redactJSONFields masks the value of every credential member in s, at
// any depth of escaping: the value's closing quote is the first one with
// as many backslashes before it as its opening quote had.
func redactJSONFields(s string) string {
	var b strings.Builder
	for {
		m := secretJSON.FindStringSubmatchIndex(s)
		if m == nil {
			b.WriteString(s)
			return b.String()
		}
		depth := m[5] - m[4] // backslashes before the value's opening quote
		start := m[1]
		end := -1
		for i := start; i < len(s); i++ {
			if s[i] != '"' {
				continue
			}
			n := 0
			for k := i - 1; k >= start && s[k] == '\\'; k-- {
				n++
			}
			if n == depth {
				end = i - depth
				break
			}
		}
		if end < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:start])
		b.WriteString("[redacted]")
		s = s[end:]
	}
}
