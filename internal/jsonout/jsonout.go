// Package jsonout is the module's one way to write a JSON report: compact
// JSON text, indented as JavaScript's JSON.stringify(value, null, 2)
// writes it, and a newline.
//
//	err := jsonout.Encode(os.Stdout, report) // a Go value, by its json tags
//	err = jsonout.Write(os.Stdout, jsonjs.Stringify(v))
//
// The steps:
//  1. the text: jsonjs.Stringify of a value tree, or Marshal of a Go
//     value (encoding/json's rules and tags, its strings escaped as
//     JSON.stringify escapes them: <, > and & as they are, U+2028 and
//     U+2029 too);
//  2. Indent writes it with each member and element on a line of its
//     own, two spaces a level, ": " after a key, [] and {} when empty;
//  3. a Writer takes a long report a piece at a time and writes about
//     64 KiB at once, so that it is never held twice; AppendMembers puts
//     a struct's members into an object written in pieces.
//
// A report whose strings come from a tool list (a tool's name can hold a
// lone surrogate, which jsonjs keeps as WTF-8) holds them as String or
// Strings, which are written as JSON.stringify writes them; Object keeps
// its members in the order given where a map's are sorted.
package jsonout

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// Encode writes v (Marshal) indented, and a newline, to w.
func Encode(w io.Writer, v any) error {
	text, err := Marshal(v)
	if err != nil {
		return err
	}
	return Write(w, text)
}

// Bytes returns v (Marshal) indented, and a newline: a report file's
// bytes.
func Bytes(v any) ([]byte, error) {
	text, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(Indent(nil, text, nil), '\n'), nil
}

// Marshal returns v as compact JSON text, by encoding/json's rules, with
// the strings escaped as JSON.stringify escapes them: only '"', '\\' and
// the control characters (<, >, &, U+2028 and U+2029 are left as they
// are). Invalid UTF-8 is written as U+FFFD, as encoding/json writes it.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	text := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	if !bytes.Contains(text, []byte(`\u202`)) {
		return text, nil
	}
	// encoding/json escapes U+2028 and U+2029 (for JavaScript before
	// ES2019); JSON.stringify writes them as they are.
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch string(text[i:min(i+6, len(text))]) {
		case `\u2028`:
			out = append(out, "\u2028"...)
			i += 6
			continue
		case `\u2029`:
			out = append(out, "\u2029"...)
			i += 6
			continue
		}
		out = append(out, c, text[i+1]) // an escape: \\ is not the start of \u2028
		i += 2
	}
	return out, nil
}

// AppendMembers appends the members of the object Marshal writes of v,
// without its braces, after a comma unless dst ends with the object's
// opening brace: the way to put a struct's members into an object
// written a piece at a time.
func AppendMembers(dst []byte, v any) ([]byte, error) {
	text, err := Marshal(v)
	if err != nil || len(text) <= 2 {
		return dst, err
	}
	if len(dst) > 0 && dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	return append(dst, text[1:len(text)-1]...), nil
}

// String is a string Marshal writes as JSON.stringify writes the
// JavaScript string it holds as WTF-8 (as jsonjs holds one): a lone
// surrogate as a \udxxx escape, where encoding/json writes U+FFFD.
type String string

// MarshalJSON returns s quoted as JSON.stringify quotes it.
func (s String) MarshalJSON() ([]byte, error) { return jsonjs.AppendQuote(nil, string(s)), nil }

// Strings is a list of strings each written as a String; nil is written
// as [].
type Strings []string

// MarshalJSON returns the strings as a JSON array.
func (ss Strings) MarshalJSON() ([]byte, error) {
	out := []byte{'['}
	for i, s := range ss {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonjs.AppendQuote(out, s)
	}
	return append(out, ']'), nil
}

// Number is a number Marshal writes as JSON.stringify writes it: -0 as
// 0, NaN and the infinities as null (encoding/json writes -0 and refuses
// the others).
type Number float64

// MarshalJSON returns n as JSON.stringify writes it.
func (n Number) MarshalJSON() ([]byte, error) {
	return jsonjs.AppendStringify(nil, jsonjs.NumberValue(float64(n))), nil
}

// Object is a JSON object whose members are written in the order given
// (a map's are sorted), each key as a String; nil is written as null, as
// a nil map is.
type Object []Member

// Member is a member of an Object.
type Member struct {
	Key   string
	Value any
}

// MarshalJSON returns the object, its values written by Marshal.
func (o Object) MarshalJSON() ([]byte, error) {
	if o == nil {
		return []byte("null"), nil
	}
	out := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			out = append(out, ',')
		}
		v, err := Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		out = append(append(jsonjs.AppendQuote(out, m.Key), ':'), v...)
	}
	return append(out, '}'), nil
}

// Write writes compact JSON text indented, and a newline, to w.
func Write(w io.Writer, text []byte) error {
	j := NewWriter(w)
	j.Put(text)
	return j.End()
}

// Writer writes compact JSON text handed over in pieces (each ending
// outside a string, and not just after an opening bracket) indented, in
// writes of about 64 KiB.
type Writer struct {
	w     io.Writer
	depth int
	out   []byte
	err   error
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, out: make([]byte, 0, 128<<10)}
}

// Put indents text and returns it emptied, to be filled again.
func (j *Writer) Put(text []byte) []byte {
	j.out = indentAt(j.out, text, &j.depth, j.flush)
	return text[:0]
}

func (j *Writer) flush(out []byte) []byte {
	if j.err == nil {
		_, j.err = j.w.Write(out)
	}
	return out[:0]
}

// End writes what is left and the final newline, and returns the first
// error of a write.
func (j *Writer) End() error {
	j.flush(append(j.out, '\n'))
	return j.err
}

// Indent appends compact JSON text as JSON.stringify(value, null, 2)
// would write it, handing out to flush (when not nil) whenever it passes
// 64 KiB and going on with what flush returns.
func Indent(out, src []byte, flush func([]byte) []byte) []byte {
	depth := 0
	return indentAt(out, src, &depth, flush)
}

// spaces are the indentation of the deepest levels written at once.
var spaces = []byte("\n" + strings.Repeat(" ", 128))

// indentAt is Indent from the given depth, which it leaves where src
// ends.
func indentAt(out, src []byte, depthAt *int, flush func([]byte) []byte) []byte {
	depth := *depthAt
	newline := func() {
		if n := 1 + 2*depth; n <= len(spaces) {
			out = append(out, spaces[:n]...)
			return
		}
		out = append(out, '\n')
		for range depth {
			out = append(out, ' ', ' ')
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case '"':
			j := jsonjs.StringEnd(src, i)
			out = append(out, src[i:j]...)
			i = j
			continue
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				out = append(out, c, src[i+1])
				i += 2
				continue
			}
			out = append(out, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
			if flush != nil && len(out) >= 64<<10 {
				out = flush(out)
			}
		case ':':
			out = append(out, ':', ' ')
		default:
			j := i + 1
			for j < len(src) && !structural[src[j]] {
				j++
			}
			out = append(out, src[i:j]...)
			i = j
			continue
		}
		i++
	}
	*depthAt = depth
	return out
}

// structural marks the bytes indentAt acts on outside strings.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true, ',': true, ':': true}
