package cli

import (
	"errors"
	"strings"
	"testing"
)

func TestCode(t *testing.T) {
	if Code(nil) != ExitOK || Code(errors.New("x")) != ExitUsage || Code(Finding(errors.New("x"))) != ExitFinding ||
		Code(WalkFailed(errors.New("x"))) != ExitWalk || Code(Silent) != ExitFinding {
		t.Fatal("exit codes do not map")
	}
}

// TestReportEscapes holds an error that quotes a server's text to lines
// a terminal shows as they are and a CI runner reads no command from.
func TestReportEscapes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errors.New("plain"), "measure: plain\n"},
		{errors.New("answered text/html: \x1b[2J\rok"), "measure: answered text/html: \\x1b[2J\\rok\n"},
		{errors.New("first\n::error file=x::forged\n  ##[error]v1"), "measure: first\n\\x3a:error file=x::forged\n  ##\\x5berror]v1\n"},
		{WalkFailed(errors.New("safe\u202egnp \xff")), "measure: safe\\u202egnp \\xff\n"},
		{Silent, ""},
	} {
		var b strings.Builder
		Report(&b, "measure", tc.err)
		if b.String() != tc.want {
			t.Errorf("Report(%q) = %q, want %q", tc.err, b.String(), tc.want)
		}
	}
}
