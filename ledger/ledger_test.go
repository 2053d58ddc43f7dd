package ledger

import (
	"encoding/json"
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
	parts := l.Parts()
	want := []Part{{"the start", 16, 5}, {"who you are", 34, 11}, {"odd", 4, 1}, {"the tool list", 100, 33}}
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

func TestJSON(t *testing.T) {
	l := New("http")
	l.AddBytes("the primer", 13136)
	l.AddBytes("the primer", 1)
	data, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"walk":"http","bytes":13137,"tokens":4379,"parts":[{"name":"the primer","bytes":13136,"tokens":4378},{"name":"the primer","bytes":1,"tokens":0}]}`
	if string(data) != want {
		t.Errorf("JSON = %s\nwant   %s", data, want)
	}
	var back Ledger
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Walk() != "http" || back.Bytes() != 13137 || len(back.Parts()) != 2 {
		t.Errorf("round trip = %+v", back)
	}
	if err := json.Unmarshal([]byte(`{"walk":"x","bytes":5,"tokens":1,"parts":[{"name":"a","bytes":4,"tokens":1}]}`), &back); err == nil {
		t.Error("a report whose totals disagree was read")
	}
	empty, _ := json.Marshal(New("none"))
	if string(empty) != `{"walk":"none","bytes":0,"tokens":0,"parts":[]}` {
		t.Errorf("empty = %s", empty)
	}
}
