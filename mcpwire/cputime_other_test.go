//go:build !unix

package mcpwire_test

import "time"

// cpuTime is not read here: the benchmarks report wall time only.
func cpuTime() time.Duration { return 0 }
