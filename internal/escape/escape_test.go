package escape_test

import (
	"encoding/xml"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/readmeter/readmeter/internal/escape"
)

// hostile are the strings a server or a file may hand the toolkit to print.
var hostile = []string{
	"\x1b[2J\x1b[Hclear screen",
	"ok\rFAILED overwritten",
	"x\n::error file=x::forged",
	"::error::forged at the start",
	" \t::warning::forged after spaces",
	"\u00a0\u3000::notice::after wide spaces",
	"a ##[error]v1 command mid-line",
	"##[stop-commands]token",
	"</testcase><testcase name=\"x\">",
	"<img src=x onerror=alert(1)>",
	"| a | b |",
	"safe\u202egnp.exe",
	"\u2066isolate\u2069 \u200fmark",
	"bad\xff\xfeutf8\xc3",
	"nul\x00byte",
	"del\x7f c1\u0085\u009b[2J",
	"line\u2028sep\u2029para",
	"zero\u200bwidth\ufeffbom\u00adsoft",
	"tag\U000e0041\U000e0042 hidden",
	"non\ufffe\uffffchar\U0010ffff",
	"`code` ``fence`` [link](http://evil) ![img](x)",
	"&amp; &#60; &#x3c; AT&T &",
	"# heading",
	"> quote",
	"- item",
	"1. item",
	"\\x1b already escaped",
	"emoji 👩\u200d💻 zwnj می\u200cخواهم",
	"",
}

func TestTerm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, unchanged: é ✓ 漢字 tab-free", "plain text, unchanged: é ✓ 漢字 tab-free"},
		{"\x1b[2Jwiped", `\x1b[2Jwiped`},
		{"ok\rFAILED", `ok\rFAILED`},
		{"a\tb", `a\tb`},
		{"x\n::error file=x::forged", `x\n::error file=x::forged`},
		{"::error::forged", `\x3a:error::forged`},
		{"  ::warning::x", `  \x3a:warning::x`},
		{"\u3000::x::", "\u3000\\x3a:x::"},
		{"\t::x::", `\t::x::`}, // the tab is shown: the line no longer starts with spaces then ::
		{"a::b", "a::b"},
		{":single", ":single"},
		{"a ##[error]x", `a ##\x5berror]x`},
		{"##[group]", `##\x5bgroup]`},
		{"# [x]", "# [x]"},
		{"safe\u202egnp.exe", `safe\u202egnp.exe`},
		{"\u2066i\u2069\u200e\u200f\u061c", `\u2066i\u2069\u200e\u200f\u061c`},
		{"bad\xff\xfe!\xc3", `bad\xff\xfe!\xc3`},
		{"nul\x00", `nul\x00`},
		{"\x7f\u0085\u009b", `\x7f\u0085\u009b`},
		{"\u2028\u2029", `\u2028\u2029`},
		{"z\u200bw\ufeff\u00ad", `z\u200bw\ufeff\u00ad`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"\ufffe\uffff\ufdd0\U0001fffe", `\ufffe\uffff\ufdd0\U0001fffe`},
		{"👩\u200d💻 می\u200cخواهم", "👩\u200d💻 می\u200cخواهم"},
		{"</testcase> <img onerror=x> | a | b |", "</testcase> <img onerror=x> | a | b |"},
		{`C:\path\x1b`, `C:\path\x1b`},
		{"", ""},
	} {
		if got := escape.Term(tc.in); got != tc.want {
			t.Errorf("Term(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"walk a failed\n  answer body: \x1b[31mred\r", "walk a failed\n  answer body: \\x1b[31mred\\r"},
		{"first\n::error::forged\n  ::warning::too", "first\n\\x3a:error::forged\n  \\x3a:warning::too"},
		{"::at the start", `\x3a:at the start`},
		{"a\r\nb", "a\\r\nb"},
		{"two\n\nlines", "two\n\nlines"},
	} {
		if got := escape.Lines(tc.in); got != tc.want {
			t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTermLeavesNothing holds every escaped hostile string, and every
// rune of the planes most used, to what Term promises: one line, valid
// UTF-8, no control, no invisible format character but the joiners, no
// noncharacter, no workflow command.
func TestTermLeavesNothing(t *testing.T) {
	in := append([]string{}, hostile...)
	for r := rune(0); r < 0x30000; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		in = append(in, string(r), "::"+string(r), " "+string(r)+"::x::")
	}
	for r := rune(0xe0000); r <= 0x10ffff; r += 0x11 {
		in = append(in, string(r))
	}
	for _, s := range in {
		got := escape.Term(s)
		if bad := leftover(got, false); bad != "" {
			t.Errorf("Term(%q) = %q: %s", s, got, bad)
		}
		got = escape.Lines(s + "\n" + s)
		if bad := leftover(got, true); bad != "" {
			t.Errorf("Lines(%q) = %q: %s", s, got, bad)
		}
	}
}

// leftover says what a terminal would act on in s, or "".
func leftover(s string, lines bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\n' && lines:
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return "a control character"
		case r == 0x2028 || r == 0x2029:
			return "a line separator"
		case unicode.Is(unicode.Cf, r) && r != 0x200c && r != 0x200d:
			return "an invisible format character"
		case r&0xfffe == 0xfffe || (r >= 0xfdd0 && r <= 0xfdef):
			return "a noncharacter"
		}
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			return "a line that starts a workflow command"
		}
		if strings.Contains(line, "##[") {
			return "a ##[ workflow command"
		}
	}
	return ""
}

func TestMarkdownCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"demo_task", "demo_task"},
		{"-", "-"},
		{"+12", "+12"},
		{"# not a heading in a cell", "# not a heading in a cell"},
		{"| a | b |", `\| a \| b \|`},
		{"x\n::error file=x::forged", `x\\n::error file=x::forged`},
		{"\x1b[2J", `\\x1b\[2J`},
		{"`code` and ``two``", "\\`code\\` and \\`\\`two\\`\\`"},
		{"<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)>"},
		{"</td></tr><script>", "&lt;/td>&lt;/tr>&lt;script>"},
		{"[click](http://evil) ![i](x)", `\[click\](http://evil) !\[i\](x)`},
		{"&amp; &#60; &#x3C; &copy; AT&T & ;", "&amp;amp; &amp;#60; &amp;#x3C; &amp;copy; AT&T & ;"},
		{`a\|b`, `a\\\|b`},
		{"safe\u202egnp", `safe\\u202egnp`},
		{"::error::x", `\\x3a:error::x`},
		{"bad\xff", `bad\\xff`},
		{"*bold* _em_", "*bold* _em_"},
		{"ask @octocat or @org/team", "ask @&#8203;octocat or @&#8203;org/team"},
		{"fixes #123, see a#b", "fixes #&#8203;123, see a#&#8203;b"},
		{"a @ b # c", "a @ b # c"},
	} {
		if got := escape.MarkdownCell(tc.in); got != tc.want {
			t.Errorf("MarkdownCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"captures/demo.json", "captures/demo.json"},
		{"# heading", `\# heading`},
		{"  > quote", `  \> quote`},
		{"- item", `\- item`},
		{"+ item", `\+ item`},
		{"* item", `\* item`},
		{"=== setext", `\=== setext`},
		{"~~~ fence", `\~~~ fence`},
		{"```fence", "\\`\\`\\`fence"},
		{"12. ordered", `12\. ordered`},
		{"3) ordered", `3\) ordered`},
		{"2026 is a year", "2026 is a year"},
		{"a - b # c", "a - b # c"},
		{"x\n# heading", `x\\n# heading`},
		{"| a | b |", `\| a \| b \|`},
		{"#12 closes it", `\#&#8203;12 closes it`},
		{"@team read this", "@&#8203;team read this"},
	} {
		if got := escape.Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plugin", "`plugin`"},
		{"a`b", "``a`b``"},
		{"a``b`", "``` a``b` ```"},
		{"`x", "`` `x ``"},
		{" x ", "`  x  `"},
		{"  ", "`  `"},
		{"", "` `"},
		{"<b>|</b>", "`<b>|</b>`"},
		{"\x1b[2J\n", "`\\x1b[2J\\n`"},
	} {
		if got := escape.Code(tc.in); got != tc.want {
			t.Errorf("Code(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFence(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"walk a read 12 tokens", "```"},
		{"part ``` closes", "````"},
		{"`````", "``````"},
	} {
		if got := escape.Fence(tc.in); got != tc.want {
			t.Errorf("Fence(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestXML(t *testing.T) {
	for _, s := range hostile {
		got := escape.XML(s)
		doc := "<t a=\"" + got + "\">" + got + "</t>"
		var v struct {
			A    string `xml:"a,attr"`
			Text string `xml:",chardata"`
		}
		if err := xml.Unmarshal([]byte(doc), &v); err != nil {
			t.Errorf("XML(%q) = %q: not well-formed: %v", s, got, err)
			continue
		}
		if want := escape.Term(s); v.A != want || v.Text != want {
			t.Errorf("XML(%q) reads back as %q and %q, want %q", s, v.A, v.Text, want)
		}
	}
	if got, want := escape.XML("</testcase>\x00\ufffe"), `&lt;/testcase&gt;\x00\ufffe`; got != want {
		t.Errorf("XML = %q, want %q", got, want)
	}
}

// TestUnchangedIsSame shows plain text costs nothing: the string itself
// comes back.
func TestUnchangedIsSame(t *testing.T) {
	s := strings.Repeat("demo_task 1,234 é ✓ ", 10)
	if got := escape.Term(s); got != s || strings.Clone(s) == "" {
		t.Errorf("Term changed plain text: %q", got)
	}
	allocs := testing.AllocsPerRun(100, func() { _ = escape.Term(s) })
	if allocs != 0 {
		t.Errorf("Term of plain text allocates %v times", allocs)
	}
}
