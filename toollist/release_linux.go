package toollist

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// adviseMapping asks for pages, not huge pages, for a file mapping: a pass
// maps and gives back a window of the file a few hundred kilobytes wide,
// which a 2 MiB page would widen (and split when a part of it is given
// back).
//
// It also cuts the mapping into areas of mapArea bytes: a fault maps in
// the whole folio of the page cache the page falls in (up to 2 MiB on a
// file system with large folios) when the folio lies within one area, and
// only the pages around the fault (64 KiB) when it does not, so that the
// window a pass holds stays about a release step wide. Every other area
// is marked to be left out of a core dump (MADV_DONTDUMP), the one flag
// that sets it apart from its neighbours (areas alike merge into one) and
// changes nothing else.
func adviseMapping(b []byte) {
	syscall.Madvise(b, syscall.MADV_NOHUGEPAGE)
	step := max(mapArea, (len(b)/maxAreas+pageSize-1)&^(pageSize-1))
	for off := step; off < len(b); off += 2 * step {
		unix.Madvise(b[off:min(off+step, len(b))], unix.MADV_DONTDUMP)
	}
}

// mapArea is the size of the areas a mapping is cut into (see
// adviseMapping); a mapping is cut into at most maxAreas, well within the
// kernel's limit on a process's mappings (65,530 by default).
const (
	mapArea  = releaseStep
	maxAreas = 4096
)

// releasePages drops the pages of a read-only private file mapping from
// the process; reading them again faults them back in from the file.
func releasePages(b []byte) { syscall.Madvise(b, syscall.MADV_DONTNEED) }
