// Package jsonjs reads JSON text and writes it back exactly as Node's
// JSON.parse and JSON.stringify would, so that byte counts agree with Node
// to the byte.
//
//	text, _ := jsonjs.Decode(body)  // bytes to text as Node's TextDecoder makes them
//	v, err := jsonjs.Parse(text)    // JSON.parse; a *SyntaxError names line and column
//	out := jsonjs.Stringify(v)      // JSON.stringify(v); len(out) is Buffer.byteLength
//
// The stance: Go's encoding/json is a fine codec but a poor oracle for what
// a JavaScript program writes. It escapes <, > and &, keeps duplicate keys,
// orders keys as given, and formats numbers its own way. This package models
// the JavaScript value instead:
//
//  1. Decode turns bytes into text as Node's UTF-8 decoder does (WHATWG:
//     each maximal invalid subpart becomes one U+FFFD).
//  2. Parse builds a Value as JSON.parse does: numbers become doubles,
//     strings become UTF-16 strings (held here as WTF-8, so a lone
//     surrogate survives), objects keep JavaScript property order
//     (integer-like keys first, ascending; then insertion order; a repeated
//     key keeps its first place and takes the last value).
//  3. Stringify writes a Value as JSON.stringify(value) with no indent.
//
// Strings are Go strings in WTF-8: UTF-8 that may also hold the three-byte
// encodings of lone surrogates (U+D800..U+DFFF). Their byte length is what
// Node's Buffer.byteLength reports for the same JavaScript string, because
// Node writes a lone surrogate as the three bytes of U+FFFD.
package jsonjs

import (
	"math"
	"unsafe"
)

// Kind is the JavaScript type of a Value.
type Kind uint8

// The kinds of Value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String returns the kind's name as JavaScript's typeof would say it, with
// "null" and "array" for the two that typeof does not tell apart.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "unknown"
}

// Value is a JavaScript value as JSON.parse builds it. The zero Value is
// null. Values are immutable once built; transforms build new ones.
//
// A Value is three words, whatever its kind, since a parsed schema is
// mostly values: a pointer to a string's bytes, an array's elements or
// an object's members, with their count, or a number's bits.
type Value struct {
	p    unsafe.Pointer // the string's bytes, the elements or the members
	n    uint64         // their length, or the number's bits
	kind Kind
	b    bool
}

// Member is one property of an object: its key (WTF-8) and value.
type Member struct {
	Key   string
	Value Value
}

// NullValue returns null.
func NullValue() Value { return Value{} }

// NumberValue returns a number.
func NumberValue(f float64) Value { return Value{kind: Number, n: math.Float64bits(f)} }

// StringValue returns a string; s is WTF-8.
func StringValue(s string) Value {
	return Value{kind: String, p: unsafe.Pointer(unsafe.StringData(s)), n: uint64(len(s))}
}

// ArrayValue returns an array holding elems (not copied).
func ArrayValue(elems []Value) Value {
	return Value{kind: Array, p: unsafe.Pointer(unsafe.SliceData(elems)), n: uint64(len(elems))}
}

// ObjectValue returns an object built by assigning members in the order
// given, as JavaScript would: integer-like keys are moved first in
// ascending order, and a repeated key keeps its first place with its last
// value.
func ObjectValue(members []Member) Value {
	return objectOf(orderMembers(members))
}

// objectOf returns an object holding members, in JavaScript order
// already.
func objectOf(members []Member) Value {
	return Value{kind: Object, p: unsafe.Pointer(unsafe.SliceData(members)), n: uint64(len(members))}
}

// Kind returns the value's kind.
func (v Value) Kind() Kind { return v.kind }

// Bool returns a boolean's value, false for other kinds.
func (v Value) Bool() bool { return v.b }

// Num returns a number's value, 0 for other kinds.
func (v Value) Num() float64 {
	if v.kind != Number {
		return 0
	}
	return math.Float64frombits(v.n)
}

// Str returns a string's WTF-8 text, "" for other kinds.
func (v Value) Str() string {
	if v.kind != String || v.n == 0 {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.n))
}

// noElems and noMembers are what an empty array's and object's Elems and
// Members return: empty, not nil.
var (
	noElems   = []Value{}
	noMembers = []Member{}
)

// Elems returns an array's elements, nil for other kinds. Do not modify.
func (v Value) Elems() []Value {
	switch {
	case v.kind != Array:
		return nil
	case v.n == 0:
		return noElems
	}
	return unsafe.Slice((*Value)(v.p), int(v.n))
}

// Members returns an object's properties in JavaScript order, nil for other
// kinds. Do not modify.
func (v Value) Members() []Member {
	switch {
	case v.kind != Object:
		return nil
	case v.n == 0:
		return noMembers
	}
	return unsafe.Slice((*Member)(v.p), int(v.n))
}

// Same reports whether a and b are one value: of one kind, and for a
// string, an array or an object, the very bytes, elements or members (not
// copies of one text). It tells, at once, that a value was handed on
// unchanged.
func Same(a, b Value) bool { return a == b }

// Get returns the property named key of an object.
func (v Value) Get(key string) (Value, bool) {
	ms := v.Members()
	for i := range ms {
		if ms[i].Key == key {
			return ms[i].Value, true
		}
	}
	return Value{}, false
}

// Len16 returns the length of the WTF-8 string s in UTF-16 code units, as
// JavaScript's s.length reports it.
func Len16(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c < 0x80:
			i++
			n++
		case c < 0xE0:
			i += 2
			n++
		case c < 0xF0:
			i += 3
			n++
		default:
			i += 4
			n += 2
		}
	}
	return n
}

// ByteLen returns Buffer.byteLength(s, "utf8") for the JavaScript string
// held as WTF-8 in s.
func ByteLen(s string) int { return len(s) }
