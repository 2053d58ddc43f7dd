package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestHelpNamesEveryFlag keeps the hand-written --help in step with the
// flags the command defines.
func TestHelpNamesEveryFlag(t *testing.T) {
	var o options
	n := 0
	newFlagSet(&o).VisitAll(func(f *pflag.Flag) {
		n++
		if !strings.Contains(usageHead, "\n  --"+f.Name+" ") {
			t.Errorf("--help does not document --%s", f.Name)
		}
	})
	if n < 12 {
		t.Fatalf("only %d flags defined", n)
	}
}
