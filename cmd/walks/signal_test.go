//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestSignalDuringCleanUp runs a walk whose exec step leaves a setsid
// daemon that ignores SIGTERM; when the walk is done and its table
// printed, walks ends what outlived it, and a signal in that clean-up
// still ends the daemon, with 130 or 143 and its one line.
func TestSignalDuringCleanUp(t *testing.T) {
	bin := proctest.Build(t, ".")
	for _, sig := range proctest.Signals {
		t.Run(sig.Name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			daemon := `setsid sh -c 'trap "" TERM INT; echo $$ >> ` + pids + `; while :; do sleep 0.05; done' </dev/null >/dev/null 2>&1 & while ! [ -s ` + pids + ` ]; do sleep 0.01; done`
			os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("walk: a\nsteps:\n  - part: p\n    exec: [sh, -c, "+quote(daemon)+"]\n"), 0o644)
			cmd := exec.Command(bin, "run", "a.yaml")
			out := filepath.Join(dir, "stdout")
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdout = f
			stderr, started := proctest.Start(t, cmd, dir, pids, 1)
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				if b, _ := os.ReadFile(out); strings.Contains(string(b), "total") {
					break // the run returned: walks is ending the daemon
				}
				if time.Now().After(deadline) {
					t.Fatalf("no table; stderr: %s", stderr)
				}
			}
			proctest.Stop(t, cmd, stderr, "walks", sig)
			proctest.Gone(t, started)
		})
	}
}
