//go:build unix

package toollist

import (
	"os"
	"syscall"
)

// mapFile maps the open file f of size bytes read-only, so that a large
// capture is held by the page cache rather than by the Go heap (whose
// collector would otherwise let the heap grow to twice the file's size).
func mapFile(f *os.File, size int64) (data []byte, unmap func() error, err error) {
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	// Pages, not huge pages: a pass maps and gives back a window of the
	// file a few hundred kilobytes wide, which a 2 MiB page would widen
	// (and split when a part of it is given back).
	syscall.Madvise(data, syscall.MADV_NOHUGEPAGE)
	return data, func() error { return syscall.Munmap(data) }, nil
}
