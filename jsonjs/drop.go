package jsonjs

// Drop names the members MeasureDropValid leaves out: every member whose
// key is Key, and every member whose key is NumKey and whose value is a
// number for which Num reports true.
type Drop struct {
	Key    string
	NumKey string
	Num    func(tok []byte) bool
}

// Dropped is what MeasureDropValid finds of a value: the length of
// JSON.stringify of it as given (N) and with the members Drop names left
// out at any depth (Kept), the UTF-8 bytes of the strings that are the
// values of members named key (KeyBytes, as MeasureValid counts them),
// and how many members were left out (Members; inside a member left out,
// nothing more counts).
type Dropped struct {
	N, Kept  int
	KeyBytes int64
	Members  int
}

// MeasureDropValid is MeasureValid that also measures the value with the
// members d names left out, in the same pass, and returns the index just
// past the value. It reports false, and nothing else that counts, when
// an object on the way has a repeated or an escaped key: what JavaScript
// keeps of it is for a parsed value to say.
func MeasureDropValid(b []byte, i int, key string, d *Drop) (end int, m Dropped, ok bool) {
	w := dropWalker{b: b, key: key, d: d}
	end, m = w.value(i)
	return end, m, !w.slow
}

type dropWalker struct {
	b    []byte
	key  string
	d    *Drop
	slow bool
}

func (w *dropWalker) value(i int) (int, Dropped) {
	switch w.b[i] {
	case '{':
		return w.object(i)
	case '[':
		return w.array(i)
	}
	vw := validWalker{b: w.b}
	e, n, _ := vw.value(i)
	return e, Dropped{N: n, Kept: n}
}

func (w *dropWalker) array(i int) (int, Dropped) {
	b := w.b
	i = validWS(b, i+1)
	if b[i] == ']' {
		return i + 1, Dropped{N: 2, Kept: 2}
	}
	m := Dropped{N: 1, Kept: 1}
	for {
		e, c := w.value(i)
		if w.slow {
			return e, m
		}
		m.N += c.N + 1 // the value, then ',' or ']'
		m.Kept += c.Kept + 1
		m.KeyBytes += c.KeyBytes
		m.Members += c.Members
		i = validWS(b, e)
		if b[i] == ']' {
			return i + 1, m
		}
		i = validWS(b, i+1) // past ','
	}
}

func (w *dropWalker) object(i int) (int, Dropped) {
	b := w.b
	i = validWS(b, i+1)
	if b[i] == '}' {
		return i + 1, Dropped{N: 2, Kept: 2}
	}
	m := Dropped{N: 1, Kept: 1}
	kept := 0
	var keysBuf [16][]byte
	keys := keysBuf[:0]
	for {
		ke, kn, kraw := validString(b, i)
		key := b[i+1 : ke-1]
		if kraw != len(key) { // an escape always makes the key shorter
			w.slow = true
			return ke, m
		}
		keys = append(keys, key)
		i = validWS(b, validWS(b, ke)+1) // past ':'
		var e int
		var c Dropped
		if b[i] == '"' && w.key != "" && string(key) == w.key {
			var sb int
			e, c.N, sb = validString(b, i)
			c.Kept, c.KeyBytes = c.N, int64(sb)
		} else if e, c = w.value(i); w.slow {
			return e, m
		}
		m.N += kn + 1 + c.N + 1 // "key":value, then ',' or '}'
		m.KeyBytes += c.KeyBytes
		drop := (string(key) == w.d.Key && w.d.Key != "") ||
			(string(key) == w.d.NumKey && w.d.NumKey != "" && (b[i] == '-' || b[i] >= '0' && b[i] <= '9') && w.d.Num(b[i:e]))
		if drop {
			m.Members++
		} else {
			m.Kept += kn + 1 + c.Kept + 1
			m.Members += c.Members
			kept++
		}
		i = validWS(b, e)
		if b[i] == '}' {
			i++
			break
		}
		i = validWS(b, i+1) // past ','
	}
	if HasDuplicate(keys) {
		w.slow = true
	}
	if kept == 0 {
		m.Kept = 2
	}
	return i, m
}
