package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/infile"
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
// name, the i-th (from 0) goes to share i mod n + 1, except that the walks
// that read lists other walks write (isolation: shared) are dealt as one,
// in the place of the first of them by name, so that one share runs them
// all, in the run's order. Names are unique, so every walk is in exactly
// one share, whatever order the files were named in and on whatever
// machine, and the shares differ by at most one walk (or the shared
// walks).
func pickShard(specs []*walk.Spec, k, n int) ([]*walk.Spec, *walk.ShardReport) {
	all := make([]string, len(specs))
	var shared []string
	for i, s := range specs {
		all[i] = s.Name
		if s.Isolation == walk.IsolationShared {
			shared = append(shared, s.Name)
		}
	}
	unit := func(name string) string { return name }
	if len(shared) > 0 {
		first := slices.Min(shared)
		unit = func(name string) string {
			if slices.Contains(shared, name) {
				return first
			}
			return name
		}
	}
	var units []string
	for _, name := range all {
		if u := unit(name); !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	sort.Strings(units)
	share := map[string]bool{}
	for i, u := range units {
		if i%n == k-1 {
			share[u] = true
		}
	}
	var out []*walk.Spec
	for _, s := range specs {
		if share[unit(s.Name)] {
			out = append(out, s)
		}
	}
	return out, &walk.ShardReport{Index: k, Count: n, Walks: all, Shared: shared}
}

// runOrder returns the order the walks run in, as indices into specs: the
// specs' own order, or with --shuffle a permutation drawn from the seed.
// rank holds each walk's place in the whole run (before --shard picked a
// share), so a share runs its walks in the order the whole run would.
func runOrder(specs []*walk.Spec, rank map[string]int) []int {
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	if rank != nil {
		sort.SliceStable(order, func(a, b int) bool { return rank[specs[order[a]].Name] < rank[specs[order[b]].Name] })
	}
	return order
}

// shuffleRank deals the walks in an order drawn from seed: a
// Fisher-Yates shuffle on PCG's numbers (an algorithm fixed by its paper,
// not by a Go release), so the same seed gives the same order on every
// machine and with every Go.
func shuffleRank(specs []*walk.Spec, seed uint64) map[string]int {
	src := rand.NewPCG(seed, 0)
	order := make([]string, len(specs))
	for i, s := range specs {
		order[i] = s.Name
	}
	for i := len(order) - 1; i > 0; i-- {
		j := int(src.Uint64() % uint64(i+1))
		order[i], order[j] = order[j], order[i]
	}
	rank := make(map[string]int, len(specs))
	for i, name := range order {
		rank[name] = i
	}
	return rank
}

// serverName is what a report records of the server: "twin" for the
// embedded twin, else the URL without its user and password.
func serverName(base string) string {
	if base == "" {
		return "twin"
	}
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.User = nil
	return u.String()
}

// toolkitVersion is the walks command's version, without the Go release
// and platform it was built with.
func toolkitVersion() string {
	v := cli.Version("walks")
	if i := strings.LastIndex(v, " ("); i > 0 {
		v = v[:i]
	}
	return v
}

// hashFile returns path and the SHA-256 of its bytes.
func hashFile(path string) (*walk.FileHash, error) {
	data, err := infile.Read(path, "budget file", infile.MaxText)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	return &walk.FileHash{Path: path, SHA256: hex.EncodeToString(sum[:])}, nil
}

// shardDiffers says how share b's run differs from share a's: its walks,
// its spec files, its server, its budget file or its toolkit; "" when
// they are shares of one run.
func shardDiffers(a, b *walk.ShardReport) string {
	short := func(h string) string {
		if len(h) > 12 {
			return h[:12]
		}
		if h == "" {
			return "none"
		}
		return h
	}
	budgets := func(f *walk.FileHash) string {
		if f == nil {
			return "none"
		}
		return f.Path + " sha256 " + short(f.SHA256)
	}
	switch {
	case a.Count != b.Count || !slices.Equal(a.Walks, b.Walks) || !slices.Equal(a.Shared, b.Shared):
		return "its walks or its count differ"
	case a.Specs != b.Specs:
		return fmt.Sprintf("its spec files differ (sha256 %s, not %s)", short(b.Specs), short(a.Specs))
	case a.Server != b.Server:
		return fmt.Sprintf("its server differs (%s, not %s)", b.Server, a.Server)
	case budgets(a.Budgets) != budgets(b.Budgets) || (a.Budgets != nil && b.Budgets != nil && a.Budgets.SHA256 != b.Budgets.SHA256):
		return fmt.Sprintf("its budget file differs (%s, not %s)", budgets(b.Budgets), budgets(a.Budgets))
	case a.Toolkit != b.Toolkit:
		return fmt.Sprintf("its toolkit differs (%s, not %s)", b.Toolkit, a.Toolkit)
	}
	return ""
}
