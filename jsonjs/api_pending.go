package jsonjs

import "fmt"

// SyntaxError is text that JSON.parse refuses: where (byte offset, 1-based
// line and column in characters) and what is wrong.
type SyntaxError struct {
	Offset int
	Line   int
	Column int
	Msg    string
}

// Error returns "line L, column C: MSG".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// RawMember is one member of an object's text, found without parsing its
// value: the key (unescaped, WTF-8), the value's exact bytes, and the
// value's byte offset in the text given.
type RawMember struct {
	Key    string
	Value  []byte
	Offset int
}

// Decode turns bytes into text as Node's buffer.toString("utf8") does: each
// maximal invalid subpart becomes U+FFFD. It returns data itself when data
// is valid UTF-8, and how many replacements it made.
func Decode(data []byte) (text []byte, replaced int) { panic("jsonjs: Decode pending") }

// Parse reads text (valid UTF-8, as Decode returns it) as JSON.parse does.
// Its errors are *SyntaxError.
func Parse(text []byte) (Value, error) { panic("jsonjs: Parse pending") }

// Validate reports the first error Parse would report, building nothing.
func Validate(text []byte) error { panic("jsonjs: Validate pending") }

// RawMembers lists the members of the object whose text is raw, in the
// order written, duplicates kept (JavaScript keeps the last value).
func RawMembers(raw []byte) ([]RawMember, error) { panic("jsonjs: RawMembers pending") }

// RawElems lists the elements of the array whose text is raw.
func RawElems(raw []byte) ([][]byte, error) { panic("jsonjs: RawElems pending") }

// Stringify returns JSON.stringify(v).
func Stringify(v Value) []byte { return AppendStringify(nil, v) }

// AppendStringify appends JSON.stringify(v) to dst.
func AppendStringify(dst []byte, v Value) []byte { panic("jsonjs: AppendStringify pending") }

// AppendQuote appends the JSON string JSON.stringify writes for s (WTF-8).
func AppendQuote(dst []byte, s string) []byte { panic("jsonjs: AppendQuote pending") }

// FormatNumber returns String(f) as JavaScript writes a number.
func FormatNumber(f float64) string { panic("jsonjs: FormatNumber pending") }

func orderMembers(m []Member) []Member { return m }
