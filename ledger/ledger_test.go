package ledger

import (
	"reflect"
	"testing"
)

func TestLedgerCounts(t *testing.T) {
	l := New("start_tasks", FullWidthTimes())
	if n := l.Add("the start", []byte("## Start: tasks\n")); n != 16 {
		t.Errorf("Add = %d, want 16", n)
	}
	// 27 bytes as received, 32 counted.
	if n := l.Add("who you are", []byte(`"2026-10-02T07:57:40.1+00:00"`)); n != 34 {
		t.Errorf("Add with a time = %d, want 34", n)
	}
	// Invalid UTF-8 counts as Node decodes it: one U+FFFD (3 bytes) for 0xff.
	if n := l.Add("odd", []byte{'a', 0xff}); n != 4 {
		t.Errorf("Add invalid UTF-8 = %d, want 4", n)
	}
	l.AddBytes("the tool list", 100)
	if l.Bytes() != 16+34+4+100 || l.Tokens() != (16+34+4+100)/3 {
		t.Errorf("Bytes, Tokens = %d, %d", l.Bytes(), l.Tokens())
	}
	l.AddShared("the index", []byte("seven b"))
	parts := l.Parts()
	want := []Part{{"the start", 16, 5, false}, {"who you are", 34, 11, false}, {"odd", 4, 1, false}, {"the tool list", 100, 33, false}, {"the index", 7, 2, true}}
	if len(parts) != len(want) {
		t.Fatalf("parts = %v", parts)
	}
	for i := range want {
		if parts[i] != want[i] {
			t.Errorf("part %d = %v, want %v", i, parts[i], want[i])
		}
	}
}

func TestLedgerNoNormalizer(t *testing.T) {
	l := New("raw")
	if n := l.Add("t", []byte("T07:57:40.1+00:00")); n != 17 {
		t.Errorf("Add = %d, want 17", n)
	}
}

func TestFromParts(t *testing.T) {
	l := FromParts("http", []Part{{Name: "the primer", Bytes: 13136, Tokens: 4378}, {Name: "the primer", Bytes: 1}})
	if l.Bytes() != 13137 || l.Tokens() != 4379 {
		t.Errorf("FromParts: %d bytes, %d tokens; want 13137, 4379", l.Bytes(), l.Tokens())
	}
	want := []Part{{Name: "the primer", Bytes: 13136, Tokens: 4378}, {Name: "the primer", Bytes: 1, Tokens: 0}}
	if got := l.Parts(); !reflect.DeepEqual(got, want) {
		t.Errorf("Parts = %+v, want %+v", got, want)
	}
	// Tokens are computed again from the bytes, not taken from the report.
	if p, _ := FromParts("x", []Part{{Name: "a", Bytes: 4, Tokens: 9}}).Part("a"); p.Tokens != 1 {
		t.Errorf("part tokens = %d, want 1", p.Tokens)
	}
}
