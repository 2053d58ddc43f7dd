//go:build !linux

package toollist

// adviseMapping does nothing where the mapping is not Linux's to advise on.
func adviseMapping([]byte) {}

// releasePages keeps the pages where madvise is not used.
func releasePages([]byte) {}
