// Package infiletest makes, for tests, the files infile's rule refuses:
//
//	bad := infiletest.BadFiles(t, t.TempDir(), infile.Max, ".json")
//	// bad["fifo"], bad["dev/zero"], bad["too large"]: each must be
//	// refused at once, in one line naming it
//
// Only tests import it.
package infiletest
