package walk_test

import (
	"context"
	"testing"

	"readmeter/twin"
	"readmeter/walk"
)

// TestTwinEndToEnd replays walks on the twin: every assert holds, and two
// runs count the same (the twin's times are normalised to full width).
func TestTwinEndToEnd(t *testing.T) {
	for _, answers := range []struct {
		name string
		json bool
	}{{"event-stream", false}, {"json", true}} {
		t.Run(answers.name, func(t *testing.T) {
			base, stop, err := twin.Start(twin.Options{JSONAnswers: answers.json})
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			specs := []*walk.Spec{load(t, "testdata/twin/start_tasks.yaml"), load(t, "testdata/twin/toolset_tasks.yaml")}
			out := walk.RunAll(context.Background(), specs, walk.Options{BaseURL: base}, 4, 3)
			for _, oc := range out {
				if oc.Err != nil {
					t.Fatalf("%s: %v", oc.Spec.Name, oc.Err)
				}
				if oc.Differ != "" {
					t.Errorf("%s: %s", oc.Spec.Name, oc.Differ)
				}
				if oc.Result.Ledger.Tokens() == 0 {
					t.Errorf("%s read nothing", oc.Spec.Name)
				}
			}
			if n := out[1].Result.ToolLists["the tool list"]; n == 0 {
				t.Errorf("toolset_tasks: no model-read count of the tool list")
			}
			if got := len(out[0].Result.Ledger.Parts()); got != 9 {
				t.Errorf("start_tasks: %d parts, want 9", got)
			}
		})
	}
}
