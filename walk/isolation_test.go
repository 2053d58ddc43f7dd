package walk_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/readmeter/readmeter/internal/walktest"
	"github.com/readmeter/readmeter/walk"
)

// writeFiles writes files (path -> text) under a new directory and
// returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestIsolation reads a walk's isolation: own unless it says shared or a
// step of it is shared: true; own beside a shared step, or another word,
// is a mistake at its line.
func TestIsolation(t *testing.T) {
	const step = "steps:\n  - part: p\n    http: GET /y\n"
	const sharedStep = "steps:\n  - part: p\n    http: GET /y\n    shared: true\n"
	for _, tc := range []struct {
		name, yaml string
		want       walk.Isolation
		err        string
	}{
		{"unsaid", "walk: w\n" + step, walk.IsolationOwn, ""},
		{"own", "walk: w\nisolation: own\n" + step, walk.IsolationOwn, ""},
		{"shared", "walk: w\nisolation: shared\n" + step, walk.IsolationShared, ""},
		{"a shared step", "walk: w\n" + sharedStep, walk.IsolationShared, ""},
		{"a shared step, said", "walk: w\nisolation: shared\n" + sharedStep, walk.IsolationShared, ""},
		{"own with a shared step", "walk: w\nisolation: own\n" + sharedStep, "",
			"w.yaml:2: isolation: own, but the step at " + "W/w.yaml:4 is shared: true (it reads what other walks write); declare isolation: shared"},
		{"another word", "walk: w\nisolation: alone\n" + step, "",
			`w.yaml:2: isolation: want own (the walk reads only what it made) or shared (it reads lists other walks write), got "alone"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"w.yaml": tc.yaml})
			s, err := walk.Load(filepath.Join(dir, "w.yaml"))
			if tc.err != "" {
				want := strings.ReplaceAll(tc.err, "W/", dir+string(filepath.Separator))
				if err == nil || !strings.HasSuffix(err.Error(), want) {
					t.Fatalf("err = %v, want one ending %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Isolation != tc.want {
				t.Errorf("isolation %q, want %q", s.Isolation, tc.want)
			}
		})
	}
}

// TestHashSpecs holds the hash of a set of walks to their bytes: the
// includes' too, not where the files are.
func TestHashSpecs(t *testing.T) {
	files := map[string]string{
		"a.yaml":          "walk: a\nsteps:\n  - use: shared/inc.yaml\n  - use: shared/inc.yaml\n",
		"b.yaml":          "walk: b\nsteps:\n  - part: p\n    http: GET /b\n",
		"shared/inc.yaml": "steps:\n  - part: p\n    http: GET /a\n",
	}
	hash := func(dir string) string {
		t.Helper()
		var specs []*walk.Spec
		for _, name := range []string{"a.yaml", "b.yaml"} {
			s, err := walk.Load(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			specs = append(specs, s)
		}
		h, err := walk.HashSpecs(specs)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	dir := writeFiles(t, files)
	s, err := walk.Load(filepath.Join(dir, "a.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "shared", "inc.yaml")}; len(s.Includes) != 1 || s.Includes[0] != want[0] {
		t.Errorf("includes %q, want %q (once)", s.Includes, want)
	}
	base := hash(dir)
	if len(base) != 64 {
		t.Errorf("hash %q: want 64 hex digits", base)
	}
	if h := hash(writeFiles(t, files)); h != base {
		t.Errorf("the same bytes elsewhere hash to %s, want %s", h, base)
	}
	files["shared/inc.yaml"] += "# a comment\n"
	if h := hash(writeFiles(t, files)); h == base {
		t.Error("an include with one more line hashes the same")
	}
}

// TestStartServer runs each run of a walk on a server of its own: started
// before the walk's first step, stopped after its last, BaseURL unused.
func TestStartServer(t *testing.T) {
	s := load(t, "testdata/features.yaml")
	s.Steps = s.Steps[:1]
	var mu sync.Mutex
	var started, stopped int
	var servers []*walktest.Server
	o := walk.Options{BaseURL: "http://127.0.0.1:1", StartServer: func() (string, func(), error) {
		srv := walktest.Start()
		mu.Lock()
		defer mu.Unlock()
		started++
		servers = append(servers, srv)
		return srv.URL, func() {
			mu.Lock()
			stopped++
			mu.Unlock()
			srv.Close()
		}, nil
	}}
	outcomes := walk.RunAll(context.Background(), []*walk.Spec{s, s}, o, 2, 2)
	for _, oc := range outcomes {
		if oc.Err != nil {
			t.Fatal(oc.Err)
		}
	}
	if started != 4 || stopped != 4 {
		t.Errorf("%d servers started, %d stopped; want one each for the 4 runs", started, stopped)
	}
	for i, srv := range servers {
		if n := len(srv.Log()); n != walktest.Pages {
			t.Errorf("server %d answered %d requests, want the %d pages of one run", i, n, walktest.Pages)
		}
	}
}
