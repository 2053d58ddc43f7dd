package twin

import (
	"testing"
	"time"
)

func TestDBTime(t *testing.T) {
	for _, c := range []struct {
		ns   int
		want string
	}{
		{0, "2026-10-02T07:57:40+00:00"},
		{100_000_000, "2026-10-02T07:57:40.1+00:00"},
		{120_000_000, "2026-10-02T07:57:40.12+00:00"},
		{123_456_000, "2026-10-02T07:57:40.123456+00:00"},
		{123_456_789, "2026-10-02T07:57:40.123456+00:00"}, // microseconds, truncated
		{999, "2026-10-02T07:57:40+00:00"},
		{1_000, "2026-10-02T07:57:40.000001+00:00"},
	} {
		in := time.Date(2026, 10, 2, 7, 57, 40, c.ns, time.UTC)
		if got := dbTime(in); got != c.want {
			t.Errorf("dbTime(.%09d) = %s, want %s", c.ns, got, c.want)
		}
	}
	// Another zone is written in UTC.
	in := time.Date(2026, 10, 2, 9, 57, 40, 0, time.FixedZone("CEST", 2*3600))
	if got := dbTime(in); got != "2026-10-02T07:57:40+00:00" {
		t.Errorf("dbTime in CEST = %s", got)
	}
}

func TestChallengeMessage(t *testing.T) {
	chal := make([]byte, 56)
	chal[0], chal[55] = 1, 2
	m := challengeMessage("h:1", chal)
	want := "agent-state:token-challenge:v1\x00h:1\x00" + string(chal)
	if string(m) != want {
		t.Errorf("pre-image %q, want %q", m, want)
	}
}

func TestContentLoads(t *testing.T) {
	d := loadDocs()
	if len(d.sections) < 10 || d.skill == "" || len(d.categories) == 0 {
		t.Fatalf("content: %d sections, %d skill bytes, %d categories", len(d.sections), len(d.skill), len(d.categories))
	}
	seen := map[string]bool{}
	for _, s := range d.sections {
		if seen[s.Name] {
			t.Errorf("section %s twice", s.Name)
		}
		seen[s.Name] = true
		if len(s.Text) < 4 || s.Text[:3] != "## " || s.Text[len(s.Text)-1] != '\n' {
			t.Errorf("section %s does not begin with a ## heading or end with a newline", s.Name)
		}
	}
}
