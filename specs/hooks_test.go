package specs_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/readmeter/readmeter/walk"
)

// TestServiceHookWords runs the plugin walk with its hooks set, as
// docs/ci.md says, to hooks/service-words.mjs over a checkout of the
// service (here one whose plugin/hooks/words.mjs is our own stand-in): the
// hook parts are the words' lines joined by a newline, none after the
// last, with the walk's KEY in the first.
func TestServiceHookWords(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("needs node")
	}
	checkout := t.TempDir()
	hooks := filepath.Join(checkout, "plugin", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	words := "export const WORDS = { key: (p) => `This session is a KEY of ${p.length} hex digits.`, mailboxFirst: (h) => `Mailbox head ${h}.`, noSpaces: \"No SPACES.\", noDossier: \"No dossier.\", routine: \"The routine, é.\", stop: (n) => `${n} post(s), no dossier.` };\n"
	if err := os.WriteFile(filepath.Join(hooks, "words.mjs"), []byte(words), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := walk.Load(filepath.Join(specDir, "plugin.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"session_start_hook": "node hooks/service-words.mjs session-start '" + checkout + "'",
		"stop_hook":          "node hooks/service-words.mjs stop '" + checkout + "'",
	}
	res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: startTwin(t), Vars: vars})
	if err != nil {
		t.Fatal(err)
	}
	start, _ := res.Ledger.Part("the session-start hook")
	stop, _ := res.Ledger.Part("the stop hook")
	// The KEY's peer id reached the hook: 32 or 64 hex digits, two digits either way.
	wantStart := len("This session is a KEY of 64 hex digits.\nMailbox head 0.\nNo SPACES.\nNo dossier.\nThe routine, é.")
	if start.Bytes != int64(wantStart) {
		t.Errorf("the session-start hook: %d bytes, want %d", start.Bytes, wantStart)
	}
	if want := len("1 post(s), no dossier."); stop.Bytes != int64(want) {
		t.Errorf("the stop hook: %d bytes, want %d", stop.Bytes, want)
	}
}
