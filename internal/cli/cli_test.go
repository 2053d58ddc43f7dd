package cli

import (
	"errors"
	"testing"
)

func TestCode(t *testing.T) {
	if Code(nil) != ExitOK || Code(errors.New("x")) != ExitUsage || Code(Finding(errors.New("x"))) != ExitFinding ||
		Code(WalkFailed(errors.New("x"))) != ExitWalk || Code(Silent) != ExitFinding {
		t.Fatal("exit codes do not map")
	}
}
