package scripttest

import "testing"

// TestRaw shows noraw can fail: each text holds what a reader acts on.
func TestRaw(t *testing.T) {
	for _, tc := range []struct {
		text string
		md   bool
		raw  bool
	}{
		{"tool  1,234\n\\x1b[2J \\u202e\n", false, false},
		{"::error file=a.json,line=2,title=t%3A x::message%0A::more\n", false, false},
		{"::warning::x\n", false, false},
		{"\x1b[2J\n", false, true},
		{"ok\rFAILED\n", false, true},
		{"safe\u202egnp\n", false, true},
		{"bad \xff\n", false, true},
		{"nul \x00\n", false, true},
		{"tool\n::stop-commands::token\n", false, true},
		{"  ::set-output name=x::y\n", false, true},
		{"a ##[error]b\n", false, true},
		{"| a | b |\n|:--|:--|\n| x \\| y | z |\n", true, false},
		{"| a | b |\n|:--|:--|\n| x | y | z |\n", true, true},
		{"- <img src=x onerror=alert(1)>\n", true, true},
		{"````\n<b>in a code block</b>\n````\n", true, false},
	} {
		err := raw(tc.text, tc.md)
		if (err != nil) != tc.raw {
			t.Errorf("raw(%q, md %v) = %v, want raw %v", tc.text, tc.md, err, tc.raw)
		}
	}
}
