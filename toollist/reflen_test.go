package toollist_test

import (
	"testing"

	"github.com/readmeter/readmeter/toollist"
)

// TestRefLen holds the length of a hoisted definition's $ref, added up
// from its names, to the $ref written, whatever the names escape to.
func TestRefLen(t *testing.T) {
	for _, container := range []string{"$defs", "definitions"} {
		for _, name := range []string{"a", "schema_2", "é", `a"b`, `a\b`, "\x01\x1f", "\u2028<>&", "\xed\xa0\x80", "😀", ""} {
			if added, written := toollist.RefLenBothWays(container, name); added != written {
				t.Errorf("%s %q: added up %d bytes, written %d", container, name, added, written)
			}
		}
	}
}
