package budgets

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// A JSON budget file is read in two steps, both through jsonjs: Validate
// takes the whole text or refuses it as JSON.parse would (a refusal is
// told in the budget reader's words at its line), then the validated
// object is walked for its budgets, each key decoded as JSON.parse decodes
// it (every escape, surrogate pairs joined, a lone surrogate kept), each
// number's offsets kept for Update.

// parseJSON reads f.data as a JSON budget file.
func (f *File) parseJSON() error {
	f.lines = newLines(f.data, false)
	ls := f.lines
	src := f.data
	start := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		start = 3
	}
	i := jsonjs.SkipSpace(src, start)
	if i >= len(src) || src[i] != '{' {
		return errAt(f.Path, ls, i, "a JSON budget file is one object, {\"BLOCK\": {\"key\": 123}}")
	}
	if err := jsonjs.Validate(src[start:]); err != nil {
		var se *jsonjs.SyntaxError
		if !errors.As(err, &se) {
			return fmt.Errorf("%s: %v", f.Path, err)
		}
		at, msg := refusal(src, i, start+se.Offset, se.Msg)
		return errAt(f.Path, ls, at, "%s", msg)
	}
	var err error
	f.root, err = f.jsonObject(i, "", nil, false)
	return err
}

// jsonObject reads the validated object at f.data[i] (its "{"), records
// its budgets, whose names start with prefix, and returns it. A "$" member
// holds no budget; of the top level, ServerMember's string is kept.
func (f *File) jsonObject(i int, prefix string, parent *object, hid bool) (*object, error) {
	src := f.data
	o := &object{open: i, comma: -1, parent: parent}
	seen := map[string]int{}
	for i++; ; {
		i = jsonjs.SkipSpace(src, i)
		switch src[i] {
		case '}':
			o.close = i
			return o, nil
		case ',':
			i++
			continue
		}
		keyOff := i
		ke := jsonjs.StringEnd(src, i)
		key := jsonjs.StringValid(src[i:ke])
		vs := jsonjs.SkipSpace(src, jsonjs.SkipSpace(src, ke)+1) // past ":"
		i = jsonjs.SkipValid(src, vs)
		m := &member{key: key, keyOff: keyOff, keyEnd: ke, quote: '"', s: vs, e: i}
		o.members = append(o.members, m)
		name := key
		if prefix != "" {
			name = prefix + "." + key
		}
		if first, dup := seen[key]; dup {
			// JSON.parse would keep the last and drop the first: say so.
			return nil, errAt(f.Path, f.lines, keyOff, "%s is declared twice (first at line %d); keep one", name, f.lines.at(first))
		}
		seen[key] = keyOff
		switch {
		case strings.HasPrefix(key, "$"):
			m.kind = leafForeign
			if prefix == "" && key == ServerMember {
				if src[vs] != '"' {
					return nil, errAt(f.Path, f.lines, vs, "%s: %s is not a server's name; write a string, such as \"twin\" or \"api.example.org\"", key, clipLit(string(src[vs:i])))
				}
				f.server, f.serverOff = jsonjs.StringValid(src[vs:i]), keyOff
			}
		case src[vs] == '{':
			sub, err := f.jsonObject(vs, name, o, hid || !addressable(key))
			if err != nil {
				return nil, err
			}
			m.obj = sub
		default:
			lit := string(src[vs:i])
			n, ok := plainInt(lit, false)
			if !ok {
				return nil, errAt(f.Path, f.lines, vs, "%s: %s is not a budget; write a non-negative integer, or an object of them", name, clipLit(lit))
			}
			if err := f.leaf(name, hid || !addressable(key), m, n, false); err != nil {
				return nil, err
			}
		}
		if j := jsonjs.SkipSpace(src, i); src[j] == ',' {
			if k := jsonjs.SkipSpace(src, j+1); src[k] == '}' {
				o.comma = j // JSON.parse refuses it: Validate said so
			}
		}
	}
}

// refusal says where and, in the budget reader's words, why the text that
// jsonjs.Validate refused at off (with its message msg) is not a budget
// file; top is the top-level object's "{". It reads src[top:off], which
// Validate read as JSON, to know what was expected at off.
func refusal(src []byte, top, off int, msg string) (at int, why string) {
	type level struct {
		open byte
		key  string // the member being read, in an object
	}
	var stack []level
	last := byte('v') // what came last: { [ , : k (a key) or v (a value)
	valueAt := -1     // where the last number or word began
	commaAt := -1     // where the last comma is
	for j := top; j < off; {
		c := src[j]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j++
			continue
		case c == '"':
			e := jsonjs.StringEnd(src, j)
			if e > off || e == off && strings.HasPrefix(msg, "unterminated") {
				if strings.Contains(msg, "unterminated") {
					return j, "a string is not closed"
				}
				return j, fmt.Sprintf("%s is not a JSON string (a bad escape, or a control character)", clipLit(string(src[j:e])))
			}
			if n := len(stack); n > 0 && stack[n-1].open == '{' && (last == '{' || last == ',') {
				stack[n-1].key = jsonjs.StringValid(src[j:e])
				last = 'k'
			} else {
				last = 'v'
			}
			j = e
			continue
		case c == '{' || c == '[':
			stack = append(stack, level{open: c})
			last = c
		case c == '}' || c == ']':
			stack = stack[:len(stack)-1]
			last = 'v'
		case c == ',' || c == ':':
			last = c
			if c == ',' {
				commaAt = j
			}
		default: // a number or a word
			valueAt = j
			for j < off && !strings.ContainsRune(",:{}[]\" \t\r\n", rune(src[j])) {
				j++
			}
			last = 'v'
			continue
		}
		j++
	}
	if strings.HasPrefix(msg, "nested deeper") {
		return off, msg
	}
	if len(stack) == 0 {
		return off, "unexpected text after the object"
	}
	name := func() string {
		var keys []string
		for _, l := range stack {
			if l.open == '{' {
				keys = append(keys, l.key)
			}
		}
		return strings.Join(keys, ".")
	}
	notBudget := func(from int) (int, string) {
		end := from
		for end < len(src) && !strings.ContainsRune(",}] \t\r\n", rune(src[end])) {
			end++
		}
		return from, fmt.Sprintf("%s: %s is not a budget; write a non-negative integer, or an object of them", name(), clipLit(string(src[from:end])))
	}
	inObject := stack[len(stack)-1].open == '{'
	next := byte(0)
	if off < len(src) {
		next = src[off]
	}
	switch {
	case last == ',' && (next == '}' || next == ']'):
		return commaAt, fmt.Sprintf("a trailing comma before %q: JSON takes none; remove the comma", next)
	case last == 'v' && inObject && next == '"':
		return off, "a missing comma: a comma goes between a value and the next key"
	case last == 'v' && !inObject && off < len(src) && !strings.ContainsRune(",]:} \t\r\n", rune(next)):
		return off, "a missing comma: a comma goes between two values of a list"
	case last == 'v' && valueAt >= 0 && off < len(src) && !strings.ContainsRune(",:{}[]\" \t\r\n", rune(src[off-1])) && inObject:
		return notBudget(valueAt) // a number or word JSON refuses: 01, 1., tru
	case !inObject && last == 'v':
		return off, `expected "," or "]"`
	case !inObject:
		return off, "expected a JSON value"
	case last == '{' || last == ',':
		return off, "expected a quoted key"
	case last == 'k':
		return off, fmt.Sprintf("expected \":\" after %q", stack[len(stack)-1].key)
	case last == ':' && off >= len(src):
		return off, fmt.Sprintf("the file ends inside %s", name())
	case last == ':':
		return notBudget(off)
	}
	return off, `expected "," or "}"`
}
