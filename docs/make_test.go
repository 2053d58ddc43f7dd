package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// makeCopy copies the Makefile and the npm lock files into a new directory,
// with an npm on PATH that only logs its calls and writes what npm ci
// writes last (node_modules/.package-lock.json). It returns the directory,
// the environment to run make in and the log's path.
func makeCopy(t *testing.T) (dir string, env []string, log string) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	dir = t.TempDir()
	for _, f := range []string{"Makefile", "testdata/npm/package.json", "testdata/npm/package-lock.json",
		"testdata/npm/versions/package.json", "testdata/npm/versions/package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o777)
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	fake := filepath.Join(dir, "fakebin")
	os.Mkdir(fake, 0o777)
	log = filepath.Join(dir, "npm.log")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\nmkdir -p node_modules && : > node_modules/.package-lock.json\n"
	if err := os.WriteFile(filepath.Join(fake, "npm"), []byte(script), 0o777); err != nil {
		t.Fatal(err)
	}
	env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	return dir, env, log
}

// TestMakeHelp holds make help to the values of the variables its lines
// name: the fuzz target says for how long it fuzzes, not $(FUZZTIME).
func TestMakeHelp(t *testing.T) {
	dir, env, _ := makeCopy(t)
	for _, tc := range []struct{ args, want string }{
		{"help", "Fuzz each target for 30s "},
		{"help FUZZTIME=5m", "Fuzz each target for 5m "},
	} {
		cmd := exec.Command("make", strings.Fields(tc.args)...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make %s: %v\n%s", tc.args, err, out)
		}
		if !strings.Contains(string(out), tc.want) || strings.Contains(string(out), "$(") {
			t.Errorf("make %s printed:\n%s\nwant a line with %q and no $(", tc.args, out, tc.want)
		}
	}
}

// TestMakeNPMDeps holds make npm-deps (which make test runs first) to
// installing the npm packages of each folder once, and again only when
// its lock file changed.
func TestMakeNPMDeps(t *testing.T) {
	dir, env, log := makeCopy(t)
	calls := func() int {
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "\n")
	}
	npmDeps := func() {
		t.Helper()
		cmd := exec.Command("make", "--no-print-directory", "npm-deps")
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make npm-deps: %v\n%s", err, out)
		}
	}
	npmDeps()
	if n := calls(); n != 2 {
		t.Fatalf("a first make npm-deps ran npm %d times, want 2 (testdata/npm and its versions)", n)
	}
	npmDeps()
	if n := calls(); n != 2 {
		t.Errorf("make npm-deps with nothing changed ran npm again (%d calls)", n)
	}
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(filepath.Join(dir, "testdata/npm/package-lock.json"), later, later); err != nil {
		t.Fatal(err)
	}
	npmDeps()
	if n := calls(); n != 3 {
		t.Errorf("make npm-deps after the lock file changed ran npm %d times in all, want 3", n)
	}
	if data, _ := os.ReadFile(log); !strings.HasPrefix(string(data), "ci ") {
		t.Errorf("npm was run as %q, want npm ci", data)
	}
}
