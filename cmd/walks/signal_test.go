//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/proctest"
)

// TestSignalStopsEverything runs walks as a real process, with an exec
// step whose command and child hang (the child ignoring SIGTERM) and a
// stdio MCP server that never answers and has a child of its own; a
// signal then stops every one of them, removes nothing but temporary
// files, and ends with 130 or 143.
func TestSignalStopsEverything(t *testing.T) {
	bin := proctest.Build(t, ".")
	for _, sig := range proctest.Signals {
		t.Run(sig.Name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			execScript := `sh -c 'trap "" TERM; echo $$ >> ` + pids + `; while :; do sleep 0.05; done' & echo $$ >> ` + pids + `; sleep 1000`
			serverScript := `sleep 1000 & echo $! >> ` + pids + `; echo $$ >> ` + pids + `; while read l; do :; done; sleep 1000`
			os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("walk: a\nsteps:\n  - part: p\n    exec: [sh, -c, "+quote(execScript)+"]\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("walk: b\nservers:\n  s: {command: [sh, -c, "+quote(serverScript)+"]}\nsteps:\n  - part: init\n    mcp: initialize\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "budgets.json"), []byte(`{"FIRST_TASK_TOKENS": {"a": 1, "b": 1}}`+"\n"), 0o644)
			cmd := exec.Command(bin, "run", "a.yaml", "b.yaml", "--url", "http://127.0.0.1:1", "--jobs", "2",
				"--budgets", "budgets.json", "--update", "--report", "report.json", "--timeout", "60s")
			stderr, started := proctest.Start(t, cmd, dir, pids, 4)
			proctest.Stop(t, cmd, stderr, "walks", sig)
			proctest.Gone(t, started)
			ents, _ := os.ReadDir(dir)
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			if strings.Join(names, " ") != "a.yaml b.yaml budgets.json pids" {
				t.Errorf("left in the directory: %v", names)
			}
		})
	}
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
