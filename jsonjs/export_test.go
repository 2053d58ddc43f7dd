package jsonjs

// The oracles and helpers below serve the tests alone (package jsonjs_test
// among them): each reads or writes JSON the plain way, to check a faster
// reader or writer against.

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

// RawElems lists the elements of the array whose text is raw. Surrounding
// whitespace is allowed. It is the plain reader that faster ones (ElemsValid)
// are checked against.
func RawElems(raw []byte) ([][]byte, error) {
	p := parser{text: raw}
	p.ws()
	if p.pos >= len(raw) || raw[p.pos] != '[' {
		return nil, p.fail("not an array")
	}
	p.pos++
	p.depth++
	p.ws()
	out := [][]byte{}
	if p.pos < len(raw) && raw[p.pos] == ']' {
		p.pos++
		return out, p.end()
	}
	for {
		p.ws()
		start := p.pos
		if err := p.skip(); err != nil {
			return nil, err
		}
		out = append(out, raw[start:p.pos])
		if done, err := p.afterValue(']'); err != nil {
			return nil, err
		} else if done {
			return out, p.end()
		}
	}
}
