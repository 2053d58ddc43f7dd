package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/walk"
)

func specsNamed(shared []string, names ...string) []*walk.Spec {
	out := make([]*walk.Spec, len(names))
	for i, n := range names {
		out[i] = &walk.Spec{Name: n, Isolation: walk.IsolationOwn}
		if slices.Contains(shared, n) {
			out[i].Isolation = walk.IsolationShared
		}
	}
	return out
}

func names(specs []*walk.Spec) []string {
	out := []string{}
	for _, s := range specs {
		out = append(out, s.Name)
	}
	return out
}

// TestPickShardKeepsSharedWalksTogether deals walks by name, the shared
// ones as one in the place of the first of them, each share in run order.
func TestPickShardKeepsSharedWalksTogether(t *testing.T) {
	all := specsNamed([]string{"p2", "p1"}, "e", "d", "p2", "c", "b", "a", "p1")
	for _, tc := range []struct {
		n    int
		want [][]string
	}{
		{1, [][]string{{"e", "d", "p2", "c", "b", "a", "p1"}}},
		// Units by name: a b c d e p1(+p2).
		{2, [][]string{{"e", "c", "a"}, {"d", "p2", "b", "p1"}}},
		{3, [][]string{{"d", "a"}, {"e", "b"}, {"p2", "c", "p1"}}},
		{6, [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"p2", "p1"}}},
		{7, [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"p2", "p1"}, {}}},
	} {
		for k := 1; k <= tc.n; k++ {
			got, rec := pickShard(all, k, tc.n)
			if !slices.Equal(names(got), tc.want[k-1]) {
				t.Errorf("share %d/%d: %v, want %v", k, tc.n, names(got), tc.want[k-1])
			}
			if !slices.Equal(rec.Walks, names(all)) || !slices.Equal(rec.Shared, []string{"p2", "p1"}) {
				t.Errorf("share %d/%d records walks %v, shared %v", k, tc.n, rec.Walks, rec.Shared)
			}
		}
	}
}

// TestShuffleOrder: the same seed gives the same order, seeds give
// different orders, and a share runs its walks in the whole run's order.
func TestShuffleOrder(t *testing.T) {
	all := specsNamed(nil, "a", "b", "c", "d", "e", "f", "g", "h")
	order := func(specs []*walk.Spec, rank map[string]int) []string {
		var out []string
		for _, i := range runOrder(specs, rank) {
			out = append(out, specs[i].Name)
		}
		return out
	}
	if got := order(all, nil); !slices.Equal(got, names(all)) {
		t.Errorf("without --shuffle: %v, want the specs' order", got)
	}
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 20; seed++ {
		rank := shuffleRank(all, seed)
		got := order(all, rank)
		if again := order(all, shuffleRank(all, seed)); !slices.Equal(got, again) {
			t.Errorf("seed %d: %v, then %v", seed, got, again)
		}
		seen[strings.Join(got[:3], " ")] = true
		for k := 1; k <= 3; k++ {
			share, _ := pickShard(all, k, 3)
			var want []string
			for _, name := range got {
				if slices.Contains(names(share), name) {
					want = append(want, name)
				}
			}
			if ran := order(share, rank); !slices.Equal(ran, want) {
				t.Errorf("seed %d, share %d/3 runs %v, want the whole run's order %v", seed, k, ran, want)
			}
		}
	}
	if len(seen) < 10 {
		t.Errorf("20 seeds gave %d different starts: %v", len(seen), seen)
	}
	// The order is fixed by the algorithm, not by a Go release: seed 9
	// puts the last first.
	if got := order(specsNamed(nil, "alpha", "beta", "delta", "gamma"), shuffleRank(specsNamed(nil, "alpha", "beta", "delta", "gamma"), 9)); !slices.Equal(got, []string{"gamma", "delta", "beta", "alpha"}) {
		t.Errorf("seed 9: %v", got)
	}
}

// TestShardDiffers names what makes two shares of different runs.
func TestShardDiffers(t *testing.T) {
	base := walk.ShardReport{Index: 1, Count: 2, Walks: []string{"a", "b"}, Shared: []string{"b"},
		Specs: "0123456789abcdef", Server: "twin", Toolkit: "walks v1.2.0",
		Budgets: &walk.FileHash{Path: "b.json", SHA256: "fedcba9876543210"}}
	for _, tc := range []struct {
		name string
		edit func(*walk.ShardReport)
		want string
	}{
		{"another share of the run", func(s *walk.ShardReport) { s.Index = 2 }, ""},
		{"count", func(s *walk.ShardReport) { s.Count = 3 }, "its walks or its count differ"},
		{"walks", func(s *walk.ShardReport) { s.Walks = []string{"a"} }, "its walks or its count differ"},
		{"shared", func(s *walk.ShardReport) { s.Shared = nil }, "its walks or its count differ"},
		{"specs", func(s *walk.ShardReport) { s.Specs = "ffffffffffffffff" }, "its spec files differ (sha256 ffffffffffff, not 0123456789ab)"},
		{"server", func(s *walk.ShardReport) { s.Server = "https://staging.example.org" }, "its server differs (https://staging.example.org, not twin)"},
		{"no budgets", func(s *walk.ShardReport) { s.Budgets = nil }, "its budget file differs (none, not b.json sha256 fedcba987654)"},
		{"budgets path", func(s *walk.ShardReport) { s.Budgets = &walk.FileHash{Path: "c.json", SHA256: "fedcba9876543210"} }, "its budget file differs (c.json sha256 fedcba987654, not b.json sha256 fedcba987654)"},
		{"budgets bytes", func(s *walk.ShardReport) { s.Budgets = &walk.FileHash{Path: "b.json", SHA256: "0000000000000000"} }, "its budget file differs (b.json sha256 000000000000, not b.json sha256 fedcba987654)"},
		{"toolkit", func(s *walk.ShardReport) { s.Toolkit = "walks v1.3.0" }, "its toolkit differs (walks v1.3.0, not walks v1.2.0)"},
	} {
		other := base
		b := *base.Budgets
		other.Budgets = &b
		tc.edit(&other)
		if got := shardDiffers(&base, &other); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestServerName(t *testing.T) {
	for in, want := range map[string]string{
		"":                                    "twin",
		"https://api.example.org":             "https://api.example.org",
		"https://user:secret@api.example.org": "https://api.example.org",
		"http://127.0.0.1:8787/base/":         "http://127.0.0.1:8787/base/",
	} {
		if got := serverName(in); got != want {
			t.Errorf("serverName(%q) = %q, want %q", in, got, want)
		}
	}
}
