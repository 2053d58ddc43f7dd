//go:build !race

package tokenize_test

const raceEnabled = false
