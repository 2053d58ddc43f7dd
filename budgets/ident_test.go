package budgets

import (
	"regexp"
	"testing"
)

// TestIsIdent holds isIdent to the regular expression it stands for.
func TestIsIdent(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)
	for _, s := range []string{"", "a", "A1", "1a", "_", "$", "$x_9", "FIRST_TASK_TOKENS", "a-b", "a.b", "é", "a b", "a\n", "9", "_9", "x\xff"} {
		if got, want := isIdent(s), re.MatchString(s); got != want {
			t.Errorf("isIdent(%q) = %v, want %v", s, got, want)
		}
	}
}
