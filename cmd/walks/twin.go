package main

import "github.com/readmeter/readmeter/walk"

// localTarget is what a report records of the server when no walk sends
// anything to a base URL: each walk reads only files, commands, the stdio
// servers it starts and absolute URLs, and no twin is started.
const localTarget = "local"

// needsTwin reports whether a run without --url needs the embedded twin:
// whether any walk sends something to the base URL.
func needsTwin(specs []*walk.Spec) bool {
	for _, s := range specs {
		if s.NeedsBase() {
			return true
		}
	}
	return false
}
