package tokenize_test

import (
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/tokenize"
)

// texts trip a careless tokenizer: the split pattern's contractions and
// case classes, digit runs, whitespace runs before a word and at the end,
// CR LF, non-Latin scripts, emoji with joiners, combining marks, and a
// special token's spelling (counted as text).
var texts = []string{
	"",
	"hello world",
	`{"name":"echo","description":"Echoes the text back.","input_schema":{"type":"object"}}`,
	"I'm sure they've said it's HE'LL DO and we'd   go",
	"1234567890 3.14159 -42 1e21 9007199254740991",
	"   leading spaces\n\n\n   \t trailing   ",
	"line one\r\nline two\rline three\n",
	"Ça va? Überprüfung — naïve café, ß, ǅ titlecase",
	"日本語のテキストと中文文本，한국어 텍스트",
	"👩‍👩‍👧‍👦 family, 🇫🇷 flag, e\u0301 combining",
	"<|endoftext|> and <|endofprompt|> are text here",
	"Use `schellingaf_task` with action=next; see https://example.org/a/b?c=d#e",
	strings.Repeat("a", 5000),
	strings.Repeat("ab ", 700) + strings.Repeat("\u2028", 5),
	"CamelCaseWordsAndALLCAPSWordsThenlowercase",
	"a\x7fb", "\x7f", " \x7f\x7f/\n", "x\x7fY's \x7f1\x7f\x7f\x7f  \x7f", "\\u001f\x7f\",\"input",
}

// everyCharacter returns texts that hold every code point of the Basic
// Multilingual Plane and of the next, surrogates left out, in blocks:
// each alone, after a letter, before a digit and between spaces. Under
// the race detector, every seventh code point of them and all of ASCII.
func everyCharacter() []string {
	var out []string
	var b strings.Builder
	for r := rune(0); r < 0x20000; r++ {
		if r >= 0xd800 && r < 0xe000 || raceEnabled && r >= 0x80 && r%7 != 0 {
			continue
		}
		b.WriteRune(r)
		b.WriteString("a")
		b.WriteRune(r)
		b.WriteString("1 ")
		b.WriteRune(r)
		b.WriteString(" \n")
		if r%2048 == 2047 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	return append(out, b.String())
}

// TestCountAgainstNode holds each tokenizer's counts to js-tiktoken's.
func TestCountAgainstNode(t *testing.T) {
	for _, name := range tokenize.Names {
		tk, err := tokenize.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		all := append(append([]string{}, texts...), everyCharacter()...)
		want := nodeoracle.CountTokens(t, name, all)
		for i, s := range all {
			if got := tk.Count(s); got != want[i] {
				t.Errorf("%s: %.40q: %d tokens, js-tiktoken counts %d", name, s, got, want[i])
			}
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		err  string
	}{
		{"o200k", "o200k", ""},
		{"o200k,cl100k", "o200k,cl100k", ""},
		{"cl100k_base, O200K", "cl100k,o200k", ""},
		{"o200k,o200k_base", "o200k", ""},
		{"p50k", "", `no tokenizer "p50k": use o200k or cl100k`},
		{"o200k,", "", `"o200k,": an empty name in the list: use o200k,cl100k, comma-separated`},
	} {
		ts, err := tokenize.Parse(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Parse(%q): error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		var names []string
		for _, tk := range ts {
			names = append(names, tk.Name())
		}
		if got := strings.Join(names, ","); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
