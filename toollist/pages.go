package toollist

import (
	"os"
	"unsafe"
)

// pages is the mapped text of a large capture. A pass over it gives back
// the pages it has read (they stay in the page cache, and a later pass
// reads them again from there), so that the capture's share of the
// process's memory is a window of a few megabytes, not the whole file.
type pages struct {
	data []byte // the mapping; nil for a capture held in the heap
}

// releaseStep is how far a pass reads before giving back what it has read.
const releaseStep = 256 << 10

// release gives back the whole pages of data[lo:hi].
func (p *pages) release(lo, hi int) {
	if p == nil || p.data == nil {
		return
	}
	lo = (lo + pageSize - 1) &^ (pageSize - 1)
	hi = min(hi, len(p.data)) &^ (pageSize - 1)
	if hi > lo {
		releasePages(p.data[lo:hi])
	}
}

// offset returns where sub starts in the mapping, and whether it lies in
// it at all (an event's data joined from several lines does not).
func (p *pages) offset(sub []byte) (int, bool) {
	if p == nil || p.data == nil || len(sub) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(p.data)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(sub)))
	if at < base || at >= base+uintptr(len(p.data)) {
		return 0, false
	}
	return int(at - base), true
}

// behind gives back the pages a forward pass has left behind.
type behind struct {
	p    *pages
	from int // what lies before is given back
	lag  int // what the pass may still read behind where it is
}

// at tells where the pass is: the start of sub.
func (b *behind) at(sub []byte) {
	off, ok := b.p.offset(sub)
	if !ok || off-b.lag-b.from < releaseStep {
		return
	}
	b.p.release(b.from, off-b.lag)
	b.from = off - b.lag
}

var pageSize = os.Getpagesize()

// behindFrom returns what gives back the pages of a pass over the tools
// from the start-th.
func (c *Capture) behindFrom(start int) behind {
	b := behind{p: c.pg}
	if start < len(c.Tools) {
		b.from, _ = c.pg.offset(c.Tools[start])
	}
	return b
}
