//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// errLocked is the error of lockFile while another holds the lock.
const errLocked = syscall.EWOULDBLOCK

// lockFile takes an exclusive flock on f without waiting.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// sameFile reports whether the open f is the file now at lp.
func sameFile(f *os.File, lp string) bool {
	var a, b syscall.Stat_t
	return syscall.Fstat(int(f.Fd()), &a) == nil && syscall.Stat(lp, &b) == nil && a.Ino == b.Ino && a.Dev == b.Dev
}

// unlockFile removes the lock file lp, then closes f, which releases the
// lock: a waiter that takes the lock on the removed file sees it is no
// longer at lp and opens the new one.
func unlockFile(f *os.File, lp string) {
	os.Remove(lp)
	f.Close()
}
