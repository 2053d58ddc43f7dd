//go:build !unix

package toollist

import (
	"errors"
	"os"
)

// mapFile is not available here: Read reads the file into memory instead.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	return nil, nil, errors.ErrUnsupported
}
