package toollist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// AppendFiguresJSON is WriteFiguresJSON with no flush: the whole text at
// once, for the tests that read it back.
func AppendFiguresJSON(dst []byte, f *Figures) []byte {
	return WriteFiguresJSON(dst, f, nil)
}

// readCapture reads the capture at path and locates its tools, for a
// test to call the steps of Open one at a time (measure, countTokens,
// whatIf, given no pass).
func readCapture(path string) (*Capture, error) {
	c, _, err := read(path, Options{})
	return c, err
}

// parseCapture is readCapture of a capture's bytes.
func parseCapture(path string, data []byte) (*Capture, error) {
	c, _, err := parse(path, data, nil, Options{})
	return c, err
}

// Apply applies one transform to one parsed tool.
func Apply(t Transform, tool jsonjs.Value, name string) (jsonjs.Value, int, error) {
	return t.(valueTransform).apply(tool, name)
}

// Inline returns the schema with every local $ref's value replaced by what
// it points at, inlined in turn (a ref met again inside itself is left as
// it is), and the root definitions left out: two schemas that mean the
// same give the same text. ok is false when a $ref cannot be followed.
func Inline(s jsonjs.Value) (jsonjs.Value, bool) {
	ok := true
	var ex func(v jsonjs.Value, stack []string) jsonjs.Value
	ex = func(v jsonjs.Value, stack []string) jsonjs.Value {
		switch v.Kind() {
		case jsonjs.Array:
			out := make([]jsonjs.Value, len(v.Elems()))
			for i, e := range v.Elems() {
				out[i] = ex(e, stack)
			}
			return jsonjs.ArrayValue(out)
		case jsonjs.Object:
			out := make([]jsonjs.Member, 0, len(v.Members()))
			for _, m := range v.Members() {
				switch {
				case m.Key == "$ref" && m.Value.Kind() == jsonjs.String:
					toks, what := localPointer(m.Value.Str())
					if what != "" {
						ok = false
						out = append(out, m)
						continue
					}
					key := strings.Join(toks, "\x00")
					target, found := resolvePointer(s, toks)
					if !found {
						ok = false
					}
					if !found || slices.Contains(stack, key) {
						out = append(out, m)
						continue
					}
					out = append(out, jsonjs.Member{Key: "$ref", Value: ex(target, append(slices.Clip(stack), key))})
				case dataKey(m.Key):
					out = append(out, m)
				default:
					out = append(out, jsonjs.Member{Key: m.Key, Value: ex(m.Value, stack)})
				}
			}
			if len(out) == 1 && out[0].Key == "$ref" && out[0].Value.Kind() != jsonjs.String {
				return out[0].Value // {"$ref": X} alone means X
			}
			return jsonjs.ObjectValue(out)
		}
		return v
	}
	e := ex(s, []string{""})
	if e.Kind() == jsonjs.Object {
		e = deleteMember(deleteMember(e, "$defs"), "definitions")
	}
	return e, ok
}

// ProfileBothWays profiles one tool (its validated text) as ProfileBytes
// does, from its text and parsed, and returns what each way found; ok is
// false when the text walk gave the tool up to the parsed way.
func ProfileBothWays(text []byte) (fromText, parsed string, ok bool) {
	show := func(s *toolSummary) string {
		return fmt.Sprintf("name %q comps %v wire %v warn %q sentences %v subs %v shape %v %x values %x",
			s.name, s.comps, s.wire, s.warn, s.cross.texts, s.cross.subs, s.cross.hasShape, s.cross.shape, s.cross.vals)
	}
	var w textProfile
	var s toolSummary
	ok = w.tool(text, 0, &s)
	fromText = show(&s)
	tool, err := jsonjs.Parse(text)
	if err != nil {
		return fromText, err.Error(), ok
	}
	var v toolSummary
	if err := profileValue(tool, 0, nil, &v, "x.json", "tools"); err != nil {
		return fromText, err.Error(), ok
	}
	return fromText, show(&v), ok
}

// SavingsOf applies the transforms ts to the capture c, already read, as
// Open does with Options.Transforms.
func SavingsOf(c *Capture, ts ...Transform) ([]Saving, error) {
	return whatIf(c, nil, ts, nil)
}

// RefLenBothWays returns the length refLen adds up of the $ref to a
// definition, and that of the $ref written.
func RefLenBothWays(container, name string) (added, written int) {
	return refLen(container, name), jsonjs.StringifyLen(refValue(container, name))
}

// ModelReadBytes returns the UTF-8 bytes of JSON.stringify of what a model
// reads of tool, written whole: the oracle of toolLens, which adds them
// up a member at a time.
func ModelReadBytes(tool jsonjs.Value) int64 {
	return int64(jsonjs.StringifyLen(ModelRead(tool)))
}

// ToolLens is toolLens.
func ToolLens(tool jsonjs.Value) (wire, model int) { return toolLens(tool) }
