// Package testhook holds the points where a test steps into the toolkit's
// packages while they run, to make a rare event happen at a known moment:
// a capture file truncated by another writer just after it was mapped.
//
//	testhook.Mapped = func(path string, data []byte) { os.Truncate(path, 4096) }
//
// Each hook is nil outside tests, and code that has one calls it only
// when it is set. A test sets a hook before the code under test runs and
// clears it after; hooks are not safe to change while that code runs.
package testhook

// Mapped, when set, is called by toollist when it has mapped a capture
// file into memory and before it reads any of it, with the file's path and
// the mapping.
var Mapped func(path string, data []byte)

// BatchTaken, when set, is called by toollist as one of its measuring
// workers takes a batch of tools, with the batch's place among the
// batches (0 for the first).
var BatchTaken func(seq int)
