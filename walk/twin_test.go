package walk_test

import (
	"context"
	"testing"

	"github.com/readmeter/readmeter/twin"
	"github.com/readmeter/readmeter/walk"
)

// TestTwinEndToEnd replays walks on the twin: every assert holds, and two
// runs at once count the same (the twin's times are normalised to full
// width).
func TestTwinEndToEnd(t *testing.T) {
	for _, tc := range []struct {
		name   string
		json   bool
		specs  []string
		repeat int
	}{
		{"event-stream", false, []string{"start_tasks", "toolset_tasks", "connector"}, 2},
		{"json", true, []string{"toolset_tasks"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, stop, err := twin.Start(twin.Options{JSONAnswers: tc.json})
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			var specs []*walk.Spec
			for _, name := range tc.specs {
				specs = append(specs, load(t, "testdata/twin/"+name+".yaml"))
			}
			out := walk.RunAll(context.Background(), specs, walk.Options{BaseURL: base}, 4, tc.repeat)
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
				for _, st := range oc.Spec.Steps {
					if m, ok := st.Action.(*walk.MCPRequest); ok && m.Op == "list" && oc.Result.ToolLists[st.Part] == 0 {
						t.Errorf("%s: no model-read count of %q", oc.Spec.Name, st.Part)
					}
				}
			}
			if out[0].Spec.Name == "start_tasks" {
				if got := len(out[0].Result.Ledger.Parts()); got != 9 {
					t.Errorf("start_tasks: %d parts, want 9", got)
				}
			}
		})
	}
}
