package walk_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/walk"
)

// laughs returns a "billion laughs" spec: a scalar of size bytes, then
// levels of lists each naming the one before ten times, all in a request
// body; with its aliases expanded it holds size * 10^levels bytes.
func laughs(size, levels int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "walk: w\nvars:\n  lol: &l0 %q\nsteps:\n  - part: a\n    http: POST /\n    json:\n", strings.Repeat("lol", size/3))
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "      l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 10), ","))
	}
	return b.String()
}

// TestAliasBombRefused: a spec of a megabyte whose aliases expand to ten
// gigabytes in a request body is refused as it loads, at the line of the
// alias that takes it past the cap; so is a file larger than a spec file
// may be.
// Aliases are counted by the bytes they expand to: a spec with few
// aliases of a large value is refused, many aliases of small values that
// stay under the cap are not.
func TestAliasBombRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, spec, want string
	}{
		{"ten gigabytes", laughs(1<<20-1000, 4), "w.yaml:9: the alias *l1 takes the spec past 16 MiB with its aliases expanded, the most a spec may hold (an alias bomb?); write the values out, or use fewer aliases"},
		{"twenty aliases of a big value", laughs(1<<20-1000, 2), "w.yaml:9: the alias *l1 takes the spec past 16 MiB"},
		{"too large a file", "walk: w\nabout: " + strings.Repeat("x", walk.MaxSpecFile) + "\n", "w.yaml: larger than 1 MiB, the most a spec file may be; a large fixture goes in a file a step reads (exec, doc)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := walk.Load(write(t, dir, "w.yaml", tc.spec))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %.300s\nwant one line with %s", err, tc.want)
			}
		})
	}
	// Under the cap: a hundred thousand values by aliases, 1.2 MB.
	if _, err := walk.Load(write(t, dir, "w.yaml", laughs(9, 5))); err != nil {
		t.Errorf("a spec under the cap: %v", err)
	}
}

// TestIncludesCountTowardTheCap: what a walk's includes hold counts with
// the walk, however many files it is spread over, and a walk reads
// includes at most MaxIncludes times, so a chain of includes that each use
// the next many times cannot multiply past the cap.
func TestIncludesCountTowardTheCap(t *testing.T) {
	dir := t.TempDir()
	big := fmt.Sprintf("steps:\n  - part: a\n    http: POST /\n    json:\n      big: &b0 %q\n      l1: [%s]\n", strings.Repeat("x", 1<<20-1000), strings.TrimSuffix(strings.Repeat("*b0,", 8), ","))
	write(t, dir, "big.yaml", big)
	write(t, dir, "small.yaml", "steps:\n  - key: k\n")
	write(t, dir, "ten.yaml", "steps:\n"+strings.Repeat("  - use: small.yaml\n", 10))
	for _, tc := range []struct{ name, spec, want string }{
		{"bytes", "walk: w\nsteps:\n  - use: big.yaml\n  - use: big.yaml\n  - use: big.yaml\n", "w.yaml:4: steps[1].use: big.yaml takes the walk past 16 MiB with its includes and aliases expanded, the most a walk may hold; use fewer includes"},
		{"reads", "walk: w\nsteps:\n" + strings.Repeat("  - use: ten.yaml\n", 100), "ten.yaml:11: steps[9].use: the walk reads includes more than 1000 times, the most it may; use fewer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := walk.Load(write(t, dir, "w.yaml", tc.spec))
			if err == nil || !strings.HasSuffix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %.300s\nwant one line ending %s", err, tc.want)
			}
		})
	}
	if _, err := walk.Load(write(t, dir, "w.yaml", "walk: w\nsteps:\n"+strings.Repeat("  - use: ten.yaml\n", 90))); err != nil {
		t.Errorf("90 uses of ten uses: %v", err)
	}
}
