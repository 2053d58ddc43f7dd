package specs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/walk"
)

// coordinateWalks are the walks in which a second KEY proposes a version
// that waits (shared/propose-as-another.yaml).
var coordinateWalks = []string{"start_coordinate.yaml", "toolset_coordinate.yaml"}

// copySpecs copies the coordinate walks and the shared includes into a new
// folder, with edit applied to shared/propose-as-another.yaml.
func copySpecs(t *testing.T, edit func(string) string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	shared, err := filepath.Glob(filepath.Join(specDir, "shared", "*"))
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{}, shared...)
	for _, w := range coordinateWalks {
		files = append(files, filepath.Join(specDir, w))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(specDir, f)
		text := string(data)
		if rel == filepath.Join("shared", "propose-as-another.yaml") {
			text = edit(text)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCoordinateWalksOnPendingWithWaitsFor runs the two coordinate walks
// against the twin, whose answer to a waiting version carries waits_for
// beside its state, as the service's has since its document decisions: the
// walks check the oracle's state alone, as the service's test does, and
// pass. The same walks with the oracle held equal to {state: pending}
// fail at that step, naming the include's file and line and showing the
// answer, so the check is what makes the difference.
func TestCoordinateWalksOnPendingWithWaitsFor(t *testing.T) {
	const loose = "json: { oracle.state: pending }"
	base := startTwin(t)
	run := func(dir string) []walk.Outcome {
		var specs []*walk.Spec
		for _, w := range coordinateWalks {
			s, err := walk.Load(filepath.Join(dir, w))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Check(nil, os.LookupEnv); err != nil {
				t.Fatal(err)
			}
			specs = append(specs, s)
		}
		return walk.RunAll(context.Background(), specs, walk.Options{BaseURL: base}, 2, 1)
	}

	same := copySpecs(t, func(s string) string {
		if !strings.Contains(s, loose) {
			t.Fatalf("shared/propose-as-another.yaml no longer holds %q", loose)
		}
		return s
	})
	for _, oc := range run(same) {
		if oc.Err != nil {
			t.Errorf("walk %s failed on the twin:\n%v", oc.Spec.Name, oc.Err)
		}
	}

	whole := copySpecs(t, func(s string) string {
		return strings.Replace(s, loose, "json: { oracle: { equals: { state: pending } } }", 1)
	})
	for _, oc := range run(whole) {
		var f *walk.Failure
		if !errors.As(oc.Err, &f) {
			t.Errorf("walk %s with the oracle held whole: err = %v, want a failure at the proposal", oc.Spec.Name, oc.Err)
			continue
		}
		if !strings.HasSuffix(f.File, filepath.Join("shared", "propose-as-another.yaml")) || f.Line == 0 ||
			!strings.Contains(f.Answer, `"waits_for":{"decision":["owner","admin","coordinator"]}`) {
			t.Errorf("walk %s with the oracle held whole failed elsewhere:\n%v", oc.Spec.Name, oc.Err)
		}
	}
}
