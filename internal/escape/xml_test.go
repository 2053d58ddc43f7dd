package escape

import (
	"encoding/xml"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestXMLTextAgainstEncodingXML holds XMLText to encoding/xml's
// EscapeText on texts of every kind of character it treats apart.
func TestXMLTextAgainstEncodingXML(t *testing.T) {
	pieces := []string{"", "a", "é", "日本", "😀", "<", ">", "&", "'", "\"", "\t", "\n", "\r", "\x00", "\x1b", "\x7f", "\x85",
		"\ufffd", "\ufffe", "\uffff", "\xff", "\xed\xa0\x80", "\U0010ffff", "&amp;", "]]>"}
	r := rand.New(rand.NewPCG(7, 8))
	texts := append([]string{}, pieces...)
	for range 20000 {
		var b strings.Builder
		for range r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		var want strings.Builder
		if err := xml.EscapeText(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got := XMLText(s); got != want.String() {
			t.Errorf("XMLText(%q) = %q, EscapeText writes %q", s, got, want.String())
		}
	}
}
