package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(&out, &errb, []string{"--runs", "3", "--warmup", "1", "--", "true", ":::", "sh", "-c", "exit 0"}); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one a command:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if f := strings.Fields(l); len(f) != 8 || f[5] != "3" {
			t.Errorf("line %q: want 8 fields, 3 runs", l)
		}
	}
	if err := run(&out, &errb, []string{"--runs", "1", "--", "true", ":::", "false"}); err == nil || !strings.Contains(err.Error(), "false: exit status 1") {
		t.Errorf("a failing command: %v", err)
	}
	if err := run(&out, &errb, []string{"--", "true", ":::"}); err == nil {
		t.Error("an empty command: no error")
	}
}

func TestStats(t *testing.T) {
	for _, tc := range []struct {
		in        []time.Duration
		med, mean float64
	}{
		{[]time.Duration{3, 1, 2}, 2, 2},
		{[]time.Duration{4, 1, 2, 3}, 2.5, 2.5},
		{[]time.Duration{5}, 5, 5},
	} {
		med, mean, _ := stats(tc.in)
		if med != tc.med || mean != tc.mean {
			t.Errorf("stats(%v) = %v, %v; want %v, %v", tc.in, med, mean, tc.med, tc.mean)
		}
	}
}
