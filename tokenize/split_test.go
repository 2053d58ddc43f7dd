package tokenize

import (
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
)

// splitters are the encodings' splitters, by name.
var splitters = map[string]func(string, int) int{"o200k": nextO200k, "cl100k": nextCl100k}

func split(next func(string, int) int, s string) []string {
	var out []string
	for i := 0; i < len(s); {
		e := next(s, i)
		if e <= i || e > len(s) {
			panic("the splitter did not move on")
		}
		out = append(out, s[i:e])
		i = e
	}
	return out
}

// splitTexts trip a splitter: every alternative of the patterns, the
// places where their quantifiers give back, and characters of each class
// next to each other, then random strings of such characters.
func splitTexts() []string {
	texts := []string{
		"", "a", " ", "\n", "'s", "'S", "'re", "'Re", "'rE", "'LL", "'l", "'r", "'", "x'", "x'v", "x'VE",
		"they're HE'LL we'D it's", "CamelCaseWORDSThenlower", "ǅungla ǅ", "A\u02b0b", "ABC\u0301def",
		"\u0301\u0301x", "1\u0301", " \u0301", "\u3000漢字", "ー日本", "123456789", "١٢٣٤", "½¼",
		"  x", "  \n\n  \n x", "\t\tx", "\t!", " !", "  !", "!!\n/\r//x", " /\n", "x \u00a0y", "x\u00a0\u00a0y",
		"a\u2028b", "\u2028\u2028", "a\ufeffb", "\ufeff\ufeffa", "a\u0085b", " \u0085 ", "\r\n\r\n", "\r \n \t",
		"end   ", "end \t", "a\u200bb", "👍🏽!", "e\u0301\u0302 x", "\ufffd\ufffdx",
	}
	pool := []string{
		"a", "Z", "é", "É", "ǅ", "ß", "ʰ", "ー", "漢", "한", "\u0301", "\u0903", "0", "٣", "Ⅻ", "½",
		" ", "  ", "\t", "\n", "\r", "\r\n", "\v", "\f", "\u00a0", "\u2028", "\u3000", "\ufeff", "\u0085", "\u200b",
		"'", "s", "t", "re", "RE", "ve", "m", "ll", "LL", "d", "D", "/", "!", "-", "_", ".", "{", "\"", "😀", "\ufffd",
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pool[r.IntN(len(pool))])
		}
		texts = append(texts, b.String())
	}
	return texts
}

// TestSplitAgainstNode holds the splitters' pieces to those of
// js-tiktoken's regular expressions in Node: on the texts that trip
// them, and on every character of the first two planes in context.
func TestSplitAgainstNode(t *testing.T) {
	texts := append(splitTexts(), everyCharacterText()...)
	for _, name := range Names {
		want := nodeoracle.SplitTokens(t, name, texts)
		bad := 0
		for i, s := range texts {
			if got := split(splitters[name], s); !slices.Equal(got, want[i]) && bad < 10 {
				bad++
				t.Errorf("%s: %.60q: pieces %q, Node's %q", name, s, first(got, want[i]), first(want[i], got))
			}
		}
	}
}

// first returns a's pieces from the first that differs from b's.
func first(a, b []string) []string {
	for i := range a {
		if i >= len(b) || a[i] != b[i] {
			return a[i:min(len(a), i+4)]
		}
	}
	return nil
}

// everyCharacterText: every code point of the first two planes,
// surrogates left out, alone, after a letter, before a digit, between
// spaces, after an apostrophe and before a line break, in blocks.
func everyCharacterText() []string {
	var out []string
	var b strings.Builder
	for r := rune(0); r < 0x20000; r++ {
		if r >= 0xd800 && r < 0xe000 {
			continue
		}
		b.WriteRune(r)
		b.WriteString("a")
		b.WriteRune(r)
		b.WriteString("1 ")
		b.WriteRune(r)
		b.WriteString(" '")
		b.WriteRune(r)
		b.WriteString("\n")
		if r%2048 == 2047 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	return append(out, b.String())
}

var updateClasses = flag.Bool("update-classes", false, "write classes.bin from Node's regular expressions")

// TestClassTable holds classes.bin, and the ASCII classes, to the classes
// of Node's regular expressions for every code point; with
// -update-classes, it writes the file from them.
func TestClassTable(t *testing.T) {
	// the bits in the order of the c* constants
	node := nodeoracle.CharClasses(t, []string{`\p{L}`, `\p{N}`, `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`, `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`, `\s`, `[\r\n]`})
	var index []byte
	var blocks []byte
	seen := map[string]int{}
	for b := 0; b < len(node); b += 128 {
		block := string(node[b : b+128])
		n, ok := seen[block]
		if !ok {
			n = len(seen)
			seen[block] = n
			blocks = append(blocks, block...)
		}
		index = append(index, byte(n), byte(n>>8))
	}
	want := string(append(index, blocks...))
	if *updateClasses {
		if err := os.WriteFile("classes.bin", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if classTable != want {
		t.Fatalf("classes.bin is not Node's classes (Unicode %s): go test ./tokenize -run TestClassTable -update-classes", nodeoracle.UnicodeVersion(t))
	}
	for r := rune(0); r < 0x110000; r++ {
		got := runeClasses(r)
		if r < 0x80 {
			got = asciiClasses[r]
		}
		if got != node[r] {
			t.Fatalf("U+%04X: classes %06b, Node's %06b", r, got, node[r])
		}
	}
}
