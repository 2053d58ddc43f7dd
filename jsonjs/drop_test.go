package jsonjs

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// dropParsed is MeasureDropValid's answer taken the slow way: the value
// parsed, the members left out, the rest stringified.
func dropParsed(v Value, d *Drop) (Value, int) {
	switch v.Kind() {
	case Object:
		var out []Member
		n := 0
		for _, m := range v.Members() {
			if m.Key == d.Key || (m.Key == d.NumKey && m.Value.Kind() == Number && d.Num([]byte(string(Stringify(m.Value))))) {
				n++
				continue
			}
			nv, c := dropParsed(m.Value, d)
			n += c
			out = append(out, Member{Key: m.Key, Value: nv})
		}
		return ObjectValue(out), n
	case Array:
		var out []Value
		n := 0
		for _, e := range v.Elems() {
			ne, c := dropParsed(e, d)
			n += c
			out = append(out, ne)
		}
		return ArrayValue(out), n
	}
	return v, 0
}

// TestMeasureDropValid holds MeasureDropValid to the parsed value on
// random texts: spaced, nested, with the keys it drops at every depth,
// numbers written in several ways, and keys that repeat or are escaped
// (which it must refuse).
func TestMeasureDropValid(t *testing.T) {
	d := &Drop{Key: "$schema", NumKey: "maximum", Num: func(tok []byte) bool {
		f, err := strconv.ParseFloat(string(tok), 64)
		return err == nil && f == 9007199254740991
	}}
	gen := randomJSON(rand.New(rand.NewPCG(1, 2)))
	var agreed, refused, dropped int
	for range 20000 {
		text := gen()
		if err := Validate(text); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		end, m, ok := MeasureDropValid(text, 1, "description", d)
		if !ok {
			refused++
			continue
		}
		v, err := Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		kept, n := dropParsed(v, d)
		want := Dropped{N: StringifyLen(v), Kept: StringifyLen(kept), KeyBytes: keyStringBytes(v, "description"), Members: n}
		if m != want || end != len(text)-1 {
			t.Fatalf("%s: end %d, %+v; want end %d, %+v", text, end, m, len(text)-1, want)
		}
		agreed++
		if n > 0 {
			dropped++
		}
	}
	if agreed < 5000 || refused < 500 || dropped < 1000 {
		t.Errorf("%d measured (%d with members left out), %d refused: too few of one kind to prove much", agreed, dropped, refused)
	}
}

// randomJSON returns a maker of random JSON texts for the tests of the
// walks over validated text: an object at the top, spaced, nested, with
// the keys the drop and key counts look for at every depth, numbers
// written in several ways, and keys that repeat or are escaped; one space
// before and after.
func randomJSON(r *rand.Rand) func() []byte {
	keys := []string{`"$schema"`, `"maximum"`, `"description"`, `"a"`, `"b"`, `"c"`, `"d"`, `"e"`, `"f"`, `"g"`, `"h"`, `"\u0061x"`, `"é"`, `"1"`}
	leaves := []string{`"x"`, `"d\u00e9\n"`, `9007199254740991`, `9.007199254740991e15`, `9007199254740992`, `-1`, `1.50`, `true`, `null`, `"9007199254740991"`, `"\ud83d\ude00 \/"`}
	var gen func(b *strings.Builder, depth int)
	gen = func(b *strings.Builder, depth int) {
		sp := func() {
			if r.IntN(4) == 0 {
				b.WriteString(" \n\t"[:1+r.IntN(3)])
			}
		}
		k := r.IntN(5)
		if depth == 0 {
			k = 4 // an object at the top, as a schema is
		}
		switch {
		case depth > 3 || k < 2:
			b.WriteString(leaves[r.IntN(len(leaves))])
		case k == 2:
			b.WriteString("[")
			for e := range r.IntN(4) {
				if e > 0 {
					b.WriteString(",")
				}
				sp()
				gen(b, depth+1)
				sp()
			}
			b.WriteString("]")
		default:
			b.WriteString("{")
			for m := range r.IntN(5) {
				if m > 0 {
					b.WriteString(",")
				}
				sp()
				b.WriteString(keys[r.IntN(len(keys))])
				sp()
				b.WriteString(":")
				sp()
				gen(b, depth+1)
			}
			b.WriteString("}")
		}
	}
	return func() []byte {
		var b strings.Builder
		b.WriteString(" ")
		gen(&b, 0)
		b.WriteString(" ")
		return []byte(b.String())
	}
}

// TestAppendStringifyValidKey: the text and end are AppendStringifyValid's,
// and the key's bytes MeasureValid's, on random texts.
func TestAppendStringifyValidKey(t *testing.T) {
	gen := randomJSON(rand.New(rand.NewPCG(5, 6)))
	counted := 0
	for range 20000 {
		text := gen()
		if err := Validate(text); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		want, wend := AppendStringifyValid([]byte("x"), text, 1)
		_, _, wn := MeasureValid(text, 1, "description")
		got, end, n := AppendStringifyValidKey([]byte("x"), text, 1, "description")
		if string(got) != string(want) || end != wend || n != wn {
			t.Fatalf("%s: %q %d %d; want %q %d %d", text, got, end, n, want, wend, wn)
		}
		if n > 0 {
			counted++
		}
	}
	if counted < 1000 {
		t.Errorf("%d texts with description bytes: too few to prove much", counted)
	}
}
