//go:build unix

package main

import "syscall"

// fence makes the mapped bytes b unreadable: reading one faults.
func fence(b []byte) {
	if err := syscall.Mprotect(b, syscall.PROT_NONE); err != nil {
		panic(err)
	}
}
