package mcpconfig

import (
	"regexp"
	"testing"
)

// TestExpandAgainstRegexp holds expand's finding of variables to the
// regular expression \$\{([^}]*)\} it stands for: each variable's value
// is its name in brackets here.
func TestExpandAgainstRegexp(t *testing.T) {
	re := regexp.MustCompile(`\$\{([^}]*)\}`)
	v := Vars{Home: "[userHome]", Env: func(name string) (string, bool) { return "[env:" + name + "]", true }}
	for _, s := range []string{"", "plain", "${userHome}", "a${env:X}b${env:Y}c", "${", "${x", "}${env:A}}", "${env:a${env:b}", "$${env:Z}", "${}", "${env:\n}", "x${env:é}y${"} {
		x := &expander{v: v}
		got := x.expand(s, "f")
		want := re.ReplaceAllStringFunc(s, func(m string) string {
			val, err := (&expander{v: v}).value(m[2 : len(m)-1])
			if err != nil {
				return ""
			}
			return val
		})
		if got != want {
			t.Errorf("expand(%q) = %q, want %q", s, got, want)
		}
	}
}
