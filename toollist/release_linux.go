package toollist

import "syscall"

// noHugePages asks for pages, not huge pages, for a file mapping: a pass
// maps and gives back a window of the file a few hundred kilobytes wide,
// which a 2 MiB page would widen (and split when a part of it is given
// back).
func noHugePages(b []byte) { syscall.Madvise(b, syscall.MADV_NOHUGEPAGE) }

// releasePages drops the pages of a read-only private file mapping from
// the process; reading them again faults them back in from the file.
func releasePages(b []byte) { syscall.Madvise(b, syscall.MADV_DONTNEED) }
