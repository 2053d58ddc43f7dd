package jsonjs

// The oracles and helpers below serve the tests alone (package jsonjs_test
// among them): each reads or writes JSON the plain way, to check a faster
// reader or writer against.

// StringifyLenText returns len(JSON.stringify(JSON.parse(text))) for the
// JSON text of one value (valid UTF-8, as Decode returns it), computed in
// one pass over the text without building the value. Only an object with
// a repeated key is parsed whole, since JavaScript drops all but the last.
// Its errors are those Parse would report.
func StringifyLenText(text []byte) (int, error) {
	p := parser{text: text}
	p.ws()
	n, err := p.lenValue()
	if err != nil {
		return 0, err
	}
	p.ws()
	if p.pos != len(text) {
		return 0, p.unexpected()
	}
	return n, nil
}

// ValidateFind reports what Validate reports and, in the same pass, finds
// the value at each path: a path is a list of keys, each read from the
// object before it as JavaScript reads the parsed value (of repeated keys
// the last one; a key's escapes undone). found[k] is what paths[k] names;
// it is empty when a step is missing or not an object. At most 64 paths.
func ValidateFind(text []byte, paths ...[]string) (found []Found, err error) {
	return ValidateFindEach(text, nil, paths...)
}

// FormatNumber returns String(f) as JavaScript writes a number:
// Number::toString with radix 10.
func FormatNumber(f float64) string { return string(AppendNumber(nil, f)) }
