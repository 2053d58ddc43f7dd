package cli

import (
	"regexp"
	"testing"
)

func TestAsksVersion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--version"}, true},
		{[]string{"diff", "--version"}, true},
		{[]string{"capture", "--stdio", "--", "server", "--version"}, false},
		{[]string{"--versions"}, false},
	} {
		if got := AsksVersion(tc.args); got != tc.want {
			t.Errorf("AsksVersion(%q) = %v", tc.args, got)
		}
	}
}

func TestVersion(t *testing.T) {
	v := Version("measure")
	if !regexp.MustCompile(`^measure (v\S+|\(devel\) ([0-9a-f]{12}|unknown-revision)( \S+Z)?( dirty)?) \(go\S+ \w+/\w+\)$`).MatchString(v) {
		t.Errorf("Version = %q", v)
	}
}
