package main

import (
	"regexp"
	"testing"
)

// TestFileSafe holds fileSafe to the regular expression it stands for,
// [^A-Za-z0-9._-]+ replaced by "_".
func TestFileSafe(t *testing.T) {
	re := regexp.MustCompile(`[^A-Za-z0-9._-]+`)
	for _, name := range []string{"", ".", "..", "...", "git hub", "a//b", "é", "日本語 server", "x\xffy", "ok-name_1.2", "  ", "a\x00b", "-", "_é_"} {
		want := re.ReplaceAllString(name, "_")
		if want == "" || want == "." || want == ".." {
			want = "server"
		}
		if got := fileSafe(name); got != want {
			t.Errorf("fileSafe(%q) = %q, want %q", name, got, want)
		}
	}
}
