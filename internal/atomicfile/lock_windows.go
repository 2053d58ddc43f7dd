package atomicfile

import (
	"os"

	"golang.org/x/sys/windows"
)

// errLocked is the error of lockFile while another holds the lock.
const errLocked = windows.ERROR_LOCK_VIOLATION

// lockFile takes an exclusive LockFileEx lock on the first byte of f
// without waiting.
func lockFile(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
}

// sameFile reports whether the open f is the file now at lp. (Files are
// opened without FILE_SHARE_DELETE, so a lock file open anywhere cannot
// be removed: this holds unless the file system misbehaves.)
func sameFile(f *os.File, lp string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(lp)
	return err == nil && os.SameFile(a, b)
}

// unlockFile closes f, which releases the lock, then removes the lock file
// lp: the removal fails, harmlessly, while another process has it open.
func unlockFile(f *os.File, lp string) {
	f.Close()
	os.Remove(lp)
}
