//go:build !linux

package toollist

// noHugePages does nothing where huge pages are not Linux's to refuse.
func noHugePages([]byte) {}

// releasePages keeps the pages where madvise is not used.
func releasePages([]byte) {}
