package jsonjs_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
)

// checkChecker feeds text to a Checker in pieces of random sizes: it must
// accept what Validate accepts, and find the members RawMembers finds.
func checkChecker(t *testing.T, r *rand.Rand, name string, text []byte) {
	t.Helper()
	var c jsonjs.Checker
	for rest := text; len(rest) > 0; {
		n := 1 + r.IntN(min(len(rest), 1+r.IntN(64)))
		c.Write(rest[:n])
		rest = rest[n:]
	}
	want := jsonjs.Validate(text) == nil
	if c.Valid() != want {
		t.Fatalf("%s: Checker says valid=%v, Validate %v: %q", name, c.Valid(), want, clip(text))
	}
	var whole jsonjs.Checker // every token within one piece
	whole.Write(text)
	if whole.Valid() != want || (want && len(whole.Members()) != len(c.Members())) {
		t.Fatalf("%s: Checker on the whole text says valid=%v with %d members, in pieces %v with %d: %q", name, whole.Valid(), len(whole.Members()), want, len(c.Members()), clip(text))
	}
	if !want {
		return
	}
	rm, err := jsonjs.RawMembers(text)
	if err != nil {
		if len(c.Members()) != 0 {
			t.Fatalf("%s: not an object, yet %d members", name, len(c.Members()))
		}
		return
	}
	if len(rm) != len(c.Members()) {
		t.Fatalf("%s: %d members, RawMembers %d", name, len(c.Members()), len(rm))
	}
	for i, s := range c.Members() {
		key := text[s.KeyStart:s.KeyEnd]
		if !jsonjs.KeyIs(key[1:len(key)-1], rm[i].Key) || !bytes.Equal(text[s.ValueStart:s.ValueEnd], rm[i].Value) {
			t.Fatalf("%s: member %d: %s: %s, RawMembers %q: %s", name, i, key, text[s.ValueStart:s.ValueEnd], rm[i].Key, rm[i].Value)
		}
	}
}

// TestChecker runs the Checker over the corpus, whole and cut short, and
// over texts built from the tokens where the traps are.
func TestChecker(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	files, _ := filepath.Glob("testdata/corpus/*")
	valid := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := jsonjs.Decode(data)
		checkChecker(t, r, f, text)
		if jsonjs.Validate(text) == nil {
			valid++
		}
		for range 3 {
			cut := r.IntN(len(text) + 1)
			checkChecker(t, r, f+" cut", text[:cut])
		}
	}
	tokens := []string{`{`, `}`, `[`, `]`, `,`, `:`, ` `, "\n", `"a"`, `"id"`, `"\u0069d"`, `"\"\\\/\b\f\n\r\t"`, `"\u12"`, `"\x"`, "\"\x01\"", "\"\xff\xfe\"",
		`0`, `-0`, `01`, `-`, `1.`, `.5`, `1.5`, `1e`, `1e+`, `1E-7`, `-12.5e+3`, `true`, `tru`, `false`, `null`, `nul`, "\ufeff", "\u00a0", "\xff"}
	for i := range 6000 {
		var b []byte
		open := []string{`{"id":`, `[`, ``, ` {"result": {"x":`}[r.IntN(4)]
		b = append(b, open...)
		for range r.IntN(10) {
			b = append(b, tokens[r.IntN(len(tokens))]...)
		}
		switch open {
		case `[`:
			b = append(b, ']')
		case `{"id":`:
			b = append(b, '}')
		case ` {"result": {"x":`:
			b = append(b, "}}"...)
		}
		if jsonjs.Validate(b) == nil {
			valid++
		}
		checkChecker(t, r, "generated "+string(rune('0'+i%10)), b)
	}
	if valid < 300 {
		t.Errorf("only %d valid texts: the comparison proves little", valid)
	}
}

// FuzzChecker cuts any bytes into pieces at any sizes: the Checker must
// agree with Validate and find the members RawMembers finds.
func FuzzChecker(f *testing.F) {
	for _, s := range []string{`{"id":1,"result":{"a":[1,-2.5e+3,true,null,"x\u00e9\n"]}}`, `[0,01]`, `-`, `1.`, `1e+`, `"\u12"`, "\"\x01\"", `{"a" :  fals}`, ` 12 `, "\xef\xbb\xbf1"} {
		f.Add([]byte(s), uint64(7))
	}
	f.Fuzz(func(t *testing.T, text []byte, seed uint64) {
		checkChecker(t, rand.New(rand.NewPCG(seed, 1)), "fuzz", text)
	})
}
