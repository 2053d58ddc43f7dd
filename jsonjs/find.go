package jsonjs

// Found is what ValidateFindEach finds at one path: the text of the value
// JavaScript reads there (nil when there is none) and, when that value is
// an array, the texts of its elements in order.
type Found struct {
	Value []byte
	Elems [][]byte
}

// ValidateFindEach reports what Validate reports and, in the same pass,
// finds the value at each path: a path is a list of keys, each read from
// the object before it as JavaScript reads the parsed value (of repeated
// keys the last one; a key's escapes undone). found[k] is what paths[k]
// names; it is empty when a step is missing or not an object. At most 64
// paths. It also hands each element of an
// array at one of the paths to each as soon as the element is validated,
// while the rest of the text is still being read: k is the path's index,
// i the element's place in its array. An array that a repeated key
// replaces later has had its elements handed over too; the replacing
// array's elements come again from place 0. The text may still turn out
// invalid after elements were handed over. each may be nil.
func ValidateFindEach(text []byte, each func(k, i int, elem []byte), paths ...[]string) (found []Found, err error) {
	if len(paths) > 64 {
		panic("jsonjs: ValidateFindEach takes at most 64 paths")
	}
	f := finder{parser: parser{text: text}, paths: paths, found: make([]Found, len(paths)), each: each}
	var active uint64
	for k := range paths {
		active |= 1 << k
	}
	f.ws()
	if err := f.value(0, active); err != nil {
		return nil, err
	}
	f.ws()
	if f.pos != len(f.text) {
		return nil, f.unexpected()
	}
	return f.found, nil
}

type finder struct {
	parser
	paths [][]string
	found []Found
	each  func(k, i int, elem []byte)
}

// value checks one value at p.pos, as skip does, for the paths in active,
// whose first level keys all led here.
func (f *finder) value(level int, active uint64) error {
	if active == 0 {
		return f.skipValue()
	}
	start := f.pos
	var here, deeper uint64 // paths that end here, paths that go on
	for k, path := range f.paths {
		if active&(1<<k) == 0 {
			continue
		}
		if len(path) == level {
			here |= 1 << k
		} else {
			deeper |= 1 << k
		}
	}
	var err error
	switch {
	case f.pos < len(f.text) && f.text[f.pos] == '[' && here != 0:
		err = f.array(here)
	case f.pos < len(f.text) && f.text[f.pos] == '{' && deeper != 0:
		err = f.object(level, deeper)
	default:
		err = f.skipValue()
	}
	if err != nil {
		return err
	}
	for k := range f.paths {
		if here&(1<<k) != 0 {
			f.found[k].Value = f.text[start:f.pos]
		}
	}
	return nil
}

// array checks an array, recording its elements for the paths in here.
func (f *finder) array(here uint64) error {
	if err := f.enter(); err != nil {
		return err
	}
	var elems [][]byte
	arrayStart := f.pos
	f.pos++
	f.ws()
	if f.pos < len(f.text) && f.text[f.pos] == ']' {
		f.pos++
		f.depth--
		f.setElems(here, [][]byte{})
		return nil
	}
	for {
		f.ws()
		start := f.pos
		if err := f.skipValue(); err != nil {
			return err
		}
		if len(elems) == presizeAfter {
			elems = presize(elems, f.pos-arrayStart, len(f.text)-f.pos)
		}
		elems = append(elems, f.text[start:f.pos])
		if f.each != nil {
			for k := range f.paths {
				if here&(1<<k) != 0 {
					f.each(k, len(elems)-1, elems[len(elems)-1])
				}
			}
		}
		f.ws()
		if f.pos >= len(f.text) {
			return f.unexpected()
		}
		switch f.text[f.pos] {
		case ',':
			f.pos++
		case ']':
			f.pos++
			f.depth--
			f.setElems(here, elems)
			return nil
		default:
			return f.unexpected()
		}
	}
}

// presizeAfter is how many elements an array's list holds before it is
// sized, once, for the whole array (see presize).
const presizeAfter = 64

// presize returns elems with room for the elements the rest of the text
// would hold were they as long as those so far (read is the text they
// took, left the text after them), and an eighth more: a long list
// grows once, not by doubling, which would touch about twice the memory.
// Elements taken for shorter than 128 bytes count as 128, so that the
// room added never takes more than a quarter of the text left (short
// elements first and long ones after grow the list by doubling, as
// before).
func presize(elems [][]byte, read, left int) [][]byte {
	per := max(read/len(elems), 128)
	more := left / per
	want := len(elems) + more + more/8
	if want <= cap(elems) {
		return elems
	}
	return append(make([][]byte, 0, want), elems...)
}

func (f *finder) setElems(here uint64, elems [][]byte) {
	for k := range f.paths {
		if here&(1<<k) != 0 {
			f.found[k].Elems = elems
		}
	}
}

// object checks an object whose members may lead on along the paths in
// deeper.
func (f *finder) object(level int, deeper uint64) error {
	if err := f.enter(); err != nil {
		return err
	}
	f.pos++
	f.ws()
	if f.pos < len(f.text) && f.text[f.pos] == '}' {
		f.pos++
		f.depth--
		return nil
	}
	for {
		f.ws()
		if f.pos >= len(f.text) || f.text[f.pos] != '"' {
			return f.unexpected()
		}
		key, err := f.strBytes(false)
		if err != nil {
			return err
		}
		var next uint64
		for k, path := range f.paths {
			if deeper&(1<<k) != 0 && path[level] == string(key) {
				next |= 1 << k
				// A later member of the same key replaces what an
				// earlier one led to.
				f.found[k] = Found{}
			}
		}
		f.ws()
		if f.pos >= len(f.text) || f.text[f.pos] != ':' {
			return f.unexpected()
		}
		f.pos++
		f.ws()
		if err := f.value(level+1, next); err != nil {
			return err
		}
		f.ws()
		if f.pos >= len(f.text) {
			return f.unexpected()
		}
		switch f.text[f.pos] {
		case ',':
			f.pos++
		case '}':
			f.pos++
			f.depth--
			return nil
		default:
			return f.unexpected()
		}
	}
}

// skipFast checks the value at f.pos as skip does, on the common path
// only, without building errors: when the value holds anything it does not
// take (an error, or nesting near MaxDepth) it leaves f.pos and f.depth as
// they were and returns false, and skip reads the value again to report
// exactly.
func (f *finder) skipFast() bool {
	pos, depth := f.pos, f.depth
	if f.fast() {
		return true
	}
	f.pos, f.depth = pos, depth
	return false
}

// skipValue checks one value as skip does, trying the fast path first.
func (f *finder) skipValue() error {
	if f.skipFast() {
		return nil
	}
	return f.skip()
}

func (f *finder) fast() bool {
	t := f.text
	if f.pos >= len(t) {
		return false
	}
	switch c := t[f.pos]; {
	case c == '"':
		return f.fastString()
	case c == '{' || c == '[':
		f.depth++
		if f.depth > MaxDepth {
			return false
		}
		closer := byte(']')
		if c == '{' {
			closer = '}'
		}
		f.pos++
		f.skipWS()
		if f.pos < len(t) && t[f.pos] == closer {
			f.pos++
			f.depth--
			return true
		}
		for {
			f.skipWS()
			if c == '{' {
				if f.pos >= len(t) || t[f.pos] != '"' || !f.fastString() {
					return false
				}
				f.skipWS()
				if f.pos >= len(t) || t[f.pos] != ':' {
					return false
				}
				f.pos++
				f.skipWS()
			}
			if !f.fast() {
				return false
			}
			f.skipWS()
			if f.pos >= len(t) {
				return false
			}
			switch t[f.pos] {
			case ',':
				f.pos++
			case closer:
				f.pos++
				f.depth--
				return true
			default:
				return false
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return f.fastNumber()
	case c == 't' || c == 'n':
		return f.fastWord("true", "null")
	case c == 'f':
		return f.fastWord("false", "false")
	}
	return false
}

func (f *finder) fastWord(a, b string) bool {
	t := f.text[f.pos:]
	for _, w := range [...]string{a, b} {
		if len(t) >= len(w) && string(t[:len(w)]) == w {
			f.pos += len(w)
			return true
		}
	}
	return false
}

// fastNumber takes a number as number does.
func (f *finder) fastNumber() bool {
	t := f.text
	i := f.pos
	if t[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(t) && t[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(t) && t[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	f.pos = i
	return true
}

// fastString takes a string as strBytes does.
func (f *finder) fastString() bool {
	t := f.text
	i := f.pos + 1
	for {
		i = plainRun(t, i)
		if i >= len(t) {
			return false
		}
		switch t[i] {
		case '"':
			f.pos = i + 1
			return true
		case '\\':
			if i+1 >= len(t) {
				return false
			}
			switch t[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(t) || hexVal(t[i+2]) < 0 || hexVal(t[i+3]) < 0 || hexVal(t[i+4]) < 0 || hexVal(t[i+5]) < 0 {
					return false
				}
				i += 6
			default:
				return false
			}
		default:
			return false // a control character
		}
	}
}

// skipWS moves past white space, looking at one byte when there is none.
func (f *finder) skipWS() {
	if f.pos < len(f.text) && f.text[f.pos] > ' ' {
		return
	}
	f.ws()
}
