package toollist_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/toollist"
)

var commitRE = regexp.MustCompile(`@[0-9a-f]{40}\b`)

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
		// a client's row cites the commit it was read at; an API has no
		// MCP session to declare anything in
		if !commitRE.MatchString(c.Source) && !strings.Contains(c.Source, "no MCP session") {
			t.Errorf("%s: source %q names no commit", name, c.Source)
		}
	}
	if len(toollist.Declared) != len(toollist.Profiles) {
		t.Errorf("Declared has %d rows, Profiles %d", len(toollist.Declared), len(toollist.Profiles))
	}
	if !json.Valid([]byte(toollist.DefaultCapabilities)) {
		t.Errorf("DefaultCapabilities %q is not JSON", toollist.DefaultCapabilities)
	}
}
