//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/proctest"
)

// leaver is an exec step's command that leaves processes outside its
// group: one that calls setsid and ignores SIGTERM, and one that forks
// twice and calls setsid (a daemon: orphaned at once). Each writes its pid
// to $PIDS, as does the command; with "hang" the command then waits,
// otherwise it prints its JSON and exits, leaving the others behind.
const leaver = `
setsid sh -c 'trap "" TERM; echo $$ >> "$PIDS"; while :; do sleep 0.05; done' &
(setsid sh -c 'echo $$ >> "$PIDS"; exec sleep 1000' &)
echo $$ >> "$PIDS"
while [ "$(wc -l < "$PIDS")" -lt 3 ]; do sleep 0.01; done
if [ "$1" = hang ]; then sleep 1000; fi
echo '{}'
`

// TestEveryDescendantEnds runs walks as a real process whose exec step
// leaves processes in sessions of their own (setsid): after walks is
// signalled, or after it ends on its own, none of them is left.
func TestEveryDescendantEnds(t *testing.T) {
	bin := proctest.Build(t, ".")
	for _, tc := range []struct {
		name string
		sig  *proctest.Signal
	}{
		{"SIGINT", &proctest.Signals[0]},
		{"SIGTERM", &proctest.Signals[1]},
		{"exit", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			pids := filepath.Join(dir, "pids")
			os.WriteFile(filepath.Join(dir, "leaver.sh"), []byte(leaver), 0o644)
			arg := "done"
			if tc.sig != nil {
				arg = "hang"
			}
			os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("walk: a\nsteps:\n  - exec: [sh, leaver.sh, "+arg+"]\n    env: { PIDS: "+pids+" }\n    count: false\n  - part: p\n    doc: { file: leaver.sh }\n"), 0o644)
			cmd := exec.Command(bin, "run", "a.yaml", "--url", "http://127.0.0.1:1", "--timeout", "60s", "--progress=false")
			stderr, started := proctest.Start(t, cmd, dir, pids, 3)
			if tc.sig != nil {
				proctest.Stop(t, cmd, stderr, "walks", *tc.sig)
			} else if err := cmd.Wait(); err != nil {
				t.Fatalf("walks: %v\n%s", err, stderr.String())
			} else if strings.Contains(stderr.String(), "error") {
				t.Errorf("stderr: %s", stderr.String())
			}
			proctest.Gone(t, started)
		})
	}
}
