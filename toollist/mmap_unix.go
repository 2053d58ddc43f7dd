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
	adviseMapping(data)
	return data, func() error { return syscall.Munmap(data) }, nil
}
