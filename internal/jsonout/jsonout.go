// Package jsonout is the module's one way to write a JSON report: compact
// JSON text, indented as JavaScript's JSON.stringify(value, null, 2)
// writes it, and a newline.
//
//	err := jsonout.Encode(os.Stdout, report) // a Go value, by its json tags
//	err = jsonout.Write(os.Stdout, jsonjs.Stringify(v))
//
// The steps:
//  1. the text: jsonjs.Stringify of a value tree, or Marshal of a Go
//     value by its json tags, written as JSON.stringify writes the
//     JavaScript value it stands for (strings, lone surrogates and
//     numbers alike);
//  2. Indent writes it with each member and element on a line of its
//     own, two spaces a level, ": " after a key, [] and {} when empty;
//  3. a Writer takes a long report a piece at a time and writes about
//     64 KiB at once, so that it is never held twice; AppendMembers puts
//     a struct's members into an object written in pieces.
//
// A report is plain tagged structs: a string from a tool list (a tool's
// name can hold a lone surrogate, which jsonjs keeps as WTF-8) is a Go
// string like any other.
//
// A Go map's keys are written in the order JSON.stringify writes an
// object's: the array-index keys (the canonical decimal form of an
// integer from 0 to 2^32-2: "0", "9", "10", not "01", "-1" or
// "4294967295") first, in ascending numeric order; then the others,
// which JavaScript keeps in insertion order and a map has none of, sorted
// as strings.
package jsonout

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

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

// Marshal returns v as compact JSON text, as JSON.stringify writes the
// JavaScript value that corresponds to it: a struct as an object of its
// exported fields by encoding/json's tags (name, omitempty, "-", fields
// of an embedded struct promoted), a map as an object with its keys in
// JavaScript's order (array indexes first, ascending; the rest sorted as
// strings: see the package doc), a slice or array as an array (a nil slice as []), a nil
// pointer, interface or map as null, an integer exactly, a float as
// JavaScript writes a number (-0 as 0, NaN and the infinities as null),
// and a string as JSON.stringify quotes it (jsonjs.AppendQuote: a lone
// surrogate kept as WTF-8 as a \udxxx escape, invalid UTF-8 as U+FFFD).
// A json.Marshaler writes itself; an Object keeps its members' order.
func Marshal(v any) ([]byte, error) {
	return appendValue(make([]byte, 0, 256), reflect.ValueOf(v))
}

var (
	marshalerType = reflect.TypeFor[json.Marshaler]()
	objectType    = reflect.TypeFor[Object]()
)

func appendValue(dst []byte, v reflect.Value) ([]byte, error) {
	if !v.IsValid() {
		return append(dst, "null"...), nil
	}
	t := v.Type()
	if t == objectType {
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		ms := make([]member, v.Len())
		for i, m := range v.Interface().(Object) {
			ms[i] = member{m.Key, reflect.ValueOf(m.Value)}
		}
		return appendObject(dst, ms)
	}
	if t.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(marshalerType) {
		v, t = v.Addr(), v.Addr().Type()
	}
	if t.Implements(marshalerType) {
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			return append(dst, "null"...), nil
		}
		text, err := v.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return dst, fmt.Errorf("jsonout: %s: %w", t, err)
		}
		out := bytes.NewBuffer(dst)
		if err := json.Compact(out, text); err != nil {
			return dst, fmt.Errorf("jsonout: %s: %w", t, err)
		}
		return out.Bytes(), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return strconv.AppendBool(dst, v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(dst, v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(dst, v.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return jsonjs.AppendStringify(dst, jsonjs.NumberValue(v.Float())), nil
	case reflect.String:
		return appendString(dst, v.String()), nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		return appendValue(dst, v.Elem())
	case reflect.Slice, reflect.Array:
		dst = append(dst, '[')
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendValue(dst, v.Index(i)); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case reflect.Map:
		if v.IsNil() {
			return append(dst, "null"...), nil
		}
		ms := make([]member, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			if it.Key().Kind() != reflect.String {
				return dst, fmt.Errorf("jsonout: unsupported map key type %s", it.Key().Type())
			}
			ms = append(ms, member{it.Key().String(), it.Value()})
		}
		slices.SortFunc(ms, func(a, b member) int { return compareKeys(a.key, b.key) })
		return appendObject(dst, ms)
	case reflect.Struct:
		dst = append(dst, '{')
		first := true
		for _, f := range fieldsOf(t) {
			fv, ok := fieldValue(v, f.index)
			if !ok || f.omitEmpty && empty(fv) {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			var err error
			if dst, err = appendValue(append(dst, f.quoted...), fv); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return dst, fmt.Errorf("jsonout: unsupported type %s", t)
}

// compareKeys orders a map's keys as JSON.stringify orders an object's:
// array-index keys first, in ascending numeric order, then the rest,
// sorted as strings where JavaScript would keep insertion order.
func compareKeys(a, b string) int {
	x, xok := jsonjs.ArrayIndex(a)
	y, yok := jsonjs.ArrayIndex(b)
	switch {
	case xok && yok:
		return cmp.Compare(x, y)
	case xok:
		return -1
	case yok:
		return 1
	}
	return strings.Compare(a, b)
}

// member is a member of an object Marshal writes.
type member struct {
	key string
	v   reflect.Value
}

// appendObject appends an object of the members in their order.
func appendObject(dst []byte, ms []member) ([]byte, error) {
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = appendValue(append(appendString(dst, m.key), ':'), m.v); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendString appends s quoted as JSON.stringify quotes the JavaScript
// string it holds: WTF-8, whatever else is not UTF-8 read as
// jsonjs.Decode reads it.
func appendString(dst []byte, s string) []byte {
	if !utf8.ValidString(s) {
		var b []byte
		for i := 0; i < len(s); {
			// A surrogate (0xED 0xA0..0xBF x) is kept; the rest is decoded.
			j := i
			for j < len(s) && !(s[j] == 0xED && j+2 < len(s) && s[j+1] >= 0xA0 && s[j+1] <= 0xBF && s[j+2]&0xC0 == 0x80) {
				j++
			}
			text, _ := jsonjs.Decode([]byte(s[i:j]))
			b = append(b, text...)
			if j < len(s) {
				b = append(b, s[j:j+3]...)
				j += 3
			}
			i = j
		}
		s = string(b)
	}
	return jsonjs.AppendQuote(dst, s)
}

// field is a struct field Marshal writes: where it is and its key.
type field struct {
	index     []int
	quoted    []byte // the key quoted, and ':'
	omitEmpty bool
}

var fieldCache sync.Map // reflect.Type to []field

// fieldsOf returns the fields Marshal writes of a struct type, in order:
// its exported fields by their json tags, those of an embedded struct
// without a tag name in its place unless a shallower field has the key.
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	at := map[string]int{} // a key's field in fs
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			name, opts, _ := strings.Cut(tag, ",")
			index := append(slices.Clip(index), i)
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case tag == "-":
				continue
			case sf.Anonymous && name == "" && ft.Kind() == reflect.Struct:
				walk(ft, index)
				continue
			case !sf.IsExported():
				continue
			case name == "":
				name = sf.Name
			}
			f := field{index, append(appendString(nil, name), ':'), slices.Contains(strings.Split(opts, ","), "omitempty")}
			if k, ok := at[name]; !ok {
				at[name] = len(fs)
				fs = append(fs, f)
			} else if len(index) < len(fs[k].index) {
				fs[k] = f // the shallower field hides the deeper
			}
		}
	}
	walk(t, nil)
	slices.SortStableFunc(fs, func(a, b field) int { return slices.Compare(a.index, b.index) })
	fieldCache.Store(t, fs)
	return fs
}

// fieldValue returns the field at index of v, and false when it is in an
// embedded struct that a nil pointer leaves out.
func fieldValue(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return v, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// empty reports whether omitempty leaves v out.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Struct:
		return false
	}
	return v.IsZero()
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

// Object is a JSON object whose members are written in the order given,
// where a map's are sorted: a report's per-client or per-tokenizer
// counts, in the order asked for. Nil is written as null, as a nil map
// is.
type Object []Member

// Member is a member of an Object.
type Member struct {
	Key   string
	Value any
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
