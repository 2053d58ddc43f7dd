package nodeoracle

import (
	"bytes"
	_ "embed"
	"os/exec"
	"strings"
	"testing"
)

//go:embed profile.js
var profileJS string

// Profile runs profile.js on tools, a JSON array of tools/list tools, and
// returns what it prints: for each tool, where the bytes a model reads go
// (components), its wire-only members, and the tool after the
// drop_unused_defs and hoist_repeated what-ifs with their bytes (see
// profile.js). It fails the test when Node cannot run or refuses.
func Profile(t testing.TB, tools []byte) []byte {
	t.Helper()
	node, err := NodePath()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", profileJS)
	cmd.Stdin = bytes.NewReader(tools)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("nodeoracle: profile.js: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes()
}
