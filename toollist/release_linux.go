package toollist

import "syscall"

// releasePages drops the pages of a read-only private file mapping from
// the process; reading them again faults them back in from the file.
func releasePages(b []byte) { syscall.Madvise(b, syscall.MADV_DONTNEED) }
