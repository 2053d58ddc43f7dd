package budgets

// object is an object literal of a budget file (a TypeScript block or one
// nested in it; JSON's top-level object or one nested in it): where its
// braces and members are, which Insert needs to add members in the file's
// own style.
type object struct {
	open, close int // the offsets of its "{" and "}"
	members     []*member
	comma       int // the offset of a comma after the last member; -1 when none
	parent      *object
	block       *tsBlock // TypeScript: the block the object is in
}

// member is one member of an object: its key, and either a nested object
// or a leaf value.
type member struct {
	key            string
	keyOff, keyEnd int
	quote          byte    // the key's quote character, 0 when bare
	obj            *object // a nested object
	kind           leafKind
	s, e           int    // the value's offsets (for a nested object, its braces)
	odd            string // TypeScript: what the member is when it is not `key: value` (a spread, a computed key...)
}

// find returns the member with the key, the last when written twice.
func (o *object) find(key string) *member {
	var found *member
	for _, m := range o.members {
		if m.odd == "" && m.key == key {
			found = m
		}
	}
	return found
}

// end returns the offset after the member's value.
func (m *member) end() int { return m.e }

type leafKind uint8

const (
	leafInt     leafKind = iota // a plain integer literal
	leafNumeric                 // a number that is not a plain literal: 1e3, 0x10, -1, A + 1, REF
	leafForeign                 // anything else: a string, an array, a function
)

// tsBlock is a top-level object of a TypeScript file: the name it is
// exported as, and whether it is a budget block.
type tsBlock struct {
	name    string
	nameOff int
	obj     *object // nil when its members could not be read as plain data
	why     string  // why it is not a budget block; "" when it is
	asConst bool    // followed by `as const`
	semi    bool    // its statement ends with ";"
	local   string  // declared as this name and exported by `export { local as name }`
}
