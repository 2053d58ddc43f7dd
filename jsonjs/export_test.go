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
