package budgets

import (
	"fmt"
	"time"
)

// Version is one version of a budget file, as a commit wrote it.
type Version struct {
	// Commit is the commit's hash, and Short its abbreviated form.
	Commit, Short string
	// Date is when it was committed.
	Date time.Time
	// Subject is the first line of the commit message.
	Subject string
	// Path is the file's path in that commit (it may have been renamed since).
	Path string
	// Data is the file's bytes in that commit.
	Data []byte
}

// Change is a budget's value at a version that moved it.
type Change struct {
	// Version is the version (its Data left out).
	Version Version
	// Value is the budget's value there; 0 when Removed.
	Value int64
	// Old is the value before; nil where the budget first appears.
	Old *int64
	// Removed is true where the version no longer declares the budget.
	Removed bool
}

// Series is one budget's changes, oldest first.
type Series struct {
	// Name is the budget's dotted name.
	Name string
	// Changes are the versions that moved it, oldest first: the first
	// declares it.
	Changes []Change
}

// Block returns the first element of the series' name.
func (s Series) Block() string { return Budget{Name: s.Name}.Block() }

// History reads each version of a budget file, oldest first, and returns
// per budget the versions that set, moved or removed it, in the order the
// newest version declares them (removed budgets last, in the order they
// first appeared). A version that cannot be parsed is skipped; skipped
// says which and why, one line each.
func History(versions []Version) (series []Series, skipped []string) {
	index := map[string]int{}
	var order []string
	last := map[string]int64{}
	var prev map[string]int64
	var newest []Budget
	for _, v := range versions {
		f, err := Parse(v.Path, v.Data)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("commit %s: %v: skipped", v.Short, err))
			continue
		}
		meta := v
		meta.Data = nil
		now := map[string]int64{}
		bs := f.Budgets()
		newest = bs
		for _, b := range bs {
			now[b.Name] = b.Value
			old, had := prev[b.Name]
			if had && old == b.Value {
				continue
			}
			i, seen := index[b.Name]
			if !seen {
				i = len(series)
				index[b.Name] = i
				order = append(order, b.Name)
				series = append(series, Series{Name: b.Name})
			}
			c := Change{Version: meta, Value: b.Value}
			if l, ok := last[b.Name]; ok {
				c.Old = &l
			}
			series[i].Changes = append(series[i].Changes, c)
			last[b.Name] = b.Value
		}
		for name := range prev {
			if _, still := now[name]; !still {
				l := last[name]
				delete(last, name)
				series[index[name]].Changes = append(series[index[name]].Changes, Change{Version: meta, Old: &l, Removed: true})
			}
		}
		prev = now
	}
	// The newest version's order, then the removed ones.
	out := make([]Series, 0, len(series))
	placed := map[string]bool{}
	for _, b := range newest {
		if i, ok := index[b.Name]; ok && !placed[b.Name] {
			out = append(out, series[i])
			placed[b.Name] = true
		}
	}
	for _, name := range order {
		if !placed[name] {
			out = append(out, series[index[name]])
		}
	}
	return out, skipped
}
