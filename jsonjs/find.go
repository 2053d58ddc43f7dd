package jsonjs

// Found is what ValidateFind finds at one path: the text of the value
// JavaScript reads there (nil when there is none) and, when that value is
// an array, the texts of its elements in order.
type Found struct {
	Value []byte
	Elems [][]byte
}

// ValidateFind reports what Validate reports and, in the same pass, finds
// the value at each path: a path is a list of keys, each read from the
// object before it as JavaScript reads the parsed value (of repeated keys
// the last one; a key's escapes undone). found[k] is what paths[k] names;
// it is empty when a step is missing or not an object. At most 64 paths.
func ValidateFind(text []byte, paths ...[]string) (found []Found, err error) {
	return ValidateFindEach(text, nil, paths...)
}

// ValidateFindEach is ValidateFind that also hands each element of an
// array at one of the paths to each as soon as the element is validated,
// while the rest of the text is still being read: k is the path's index,
// i the element's place in its array. An array that a repeated key
// replaces later has had its elements handed over too; the replacing
// array's elements come again from place 0. The text may still turn out
// invalid after elements were handed over. each may be nil.
func ValidateFindEach(text []byte, each func(k, i int, elem []byte), paths ...[]string) (found []Found, err error) {
	if len(paths) > 64 {
		panic("jsonjs: ValidateFind takes at most 64 paths")
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
		return f.skip()
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
		err = f.skip()
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
		if err := f.skip(); err != nil {
			return err
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
