package toollist_test

import (
	"encoding/json"
	"testing"

	"github.com/readmeter/readmeter/toollist"
)

func TestDeclaredCoversProfiles(t *testing.T) {
	for _, name := range toollist.ProfileNames() {
		c, ok := toollist.CapabilitiesFor(name)
		if !ok {
			t.Errorf("%s: no row in Declared", name)
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(c.JSON), &m); err != nil {
			t.Errorf("%s: JSON %q: %v", name, c.JSON, err)
		}
		if c.Source == "" || len(c.Checked) != len("2006-01-02") {
			t.Errorf("%s: source %q, checked %q", name, c.Source, c.Checked)
		}
	}
	if len(toollist.Declared) != len(toollist.Profiles) {
		t.Errorf("Declared has %d rows, Profiles %d", len(toollist.Declared), len(toollist.Profiles))
	}
	if !json.Valid([]byte(toollist.DefaultCapabilities)) {
		t.Errorf("DefaultCapabilities %q is not JSON", toollist.DefaultCapabilities)
	}
}
