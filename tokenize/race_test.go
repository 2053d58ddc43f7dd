//go:build race

package tokenize_test

// raceEnabled thins the every-character test under the race detector,
// which slows the splitter some twentyfold.
const raceEnabled = true
