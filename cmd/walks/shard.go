package main

import (
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/walk"
)

// parseShard reads --shard K/N.
func parseShard(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, errK := strconv.Atoi(ks)
	n, errN := strconv.Atoi(ns)
	if !ok || errK != nil || errN != nil || n < 1 || k < 1 || k > n {
		return 0, 0, cli.Usage("run: --shard %q: want K/N with 1 <= K <= N, such as 2/4 (the second of four shares)", s)
	}
	return k, n, nil
}

// pickShard returns the walks of share k of n, in run order, and the
// shard's record for the report. The walks are dealt by name: sorted by
// name, the i-th (from 0) goes to share i mod n + 1. Names are unique, so
// every walk is in exactly one share, whatever order the files were named
// in and on whatever machine, and the shares differ by at most one walk.
func pickShard(specs []*walk.Spec, k, n int) ([]*walk.Spec, *walk.ShardReport) {
	all := make([]string, len(specs))
	for i, s := range specs {
		all[i] = s.Name
	}
	names := append([]string(nil), all...)
	sort.Strings(names)
	share := map[string]bool{}
	for i, name := range names {
		if i%n == k-1 {
			share[name] = true
		}
	}
	var out []*walk.Spec
	for _, s := range specs {
		if share[s.Name] {
			out = append(out, s)
		}
	}
	return out, &walk.ShardReport{Index: k, Count: n, Walks: all}
}
