package toollist

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"
	"unsafe"
)

// pages is the mapped text of a large capture. A pass over it gives back
// the pages it has read (they stay in the page cache, and a later pass
// reads them again from there), so that the capture's share of the
// process's memory is a window of a few megabytes, not the whole file.
//
// The file may change while it is mapped: another writer may cut it (a
// page past its new end then faults when it is read, SIGBUS) or rewrite it
// in place (a pass then reads text that is no longer what was validated).
// Every pass over the mapping runs guarded (guard and caught): a fault on
// the mapping, or any panic once the file has changed, becomes the
// capture's one error, and a pass that ends without one still fails if
// the file changed meanwhile.
type pages struct {
	data []byte // the mapping; nil for a capture held in the heap
	path string
	f    *os.File // the file mapped, kept open to see whether it changes
	// the file's size and modification time when it was mapped
	size int64
	mod  time.Time
	// fault is the error of the first pass that found the file changed
	fault atomic.Pointer[Error]
}

// guard makes a fault on this goroutine panic rather than end the
// program, and returns the setting caught restores. Each goroutine that
// reads the mapping defers p.caught(p.guard(), ...) before it does.
func (p *pages) guard() bool {
	if p == nil || p.data == nil {
		return false
	}
	return debug.SetPanicOnFault(true)
}

// caught, deferred with guard's setting, recovers a panic that the file
// changing under the pass explains (a fault on the mapping; any panic
// once the file has changed) and keeps it as the capture's error; any
// other panic goes on. With err (the pass's result), it also sets *err to
// the error when the file changed, whichever goroutine found it, or when
// the file is not what was mapped any more.
func (p *pages) caught(old bool, err *error) {
	if p == nil || p.data == nil {
		return
	}
	debug.SetPanicOnFault(old)
	if v := recover(); v != nil {
		e := p.explain(v)
		if e == nil {
			panic(v)
		}
		p.fault.CompareAndSwap(nil, e)
	}
	if err == nil {
		return
	}
	e := p.fault.Load()
	if e == nil {
		e = p.changed()
	}
	if e != nil {
		*err = e
	}
}

// failed returns the error of a pass that found the file changed, or nil.
func (p *pages) failed() error {
	if p == nil {
		return nil
	}
	if e := p.fault.Load(); e != nil {
		return e
	}
	return nil
}

// explain returns the error a panic on a pass over the mapping stands
// for, or nil when the file's changing does not explain it.
func (p *pages) explain(v any) *Error {
	if e := p.fault.Load(); e != nil {
		return e
	}
	if f, ok := v.(interface{ Addr() uintptr }); ok {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(p.data)))
		if a := f.Addr(); a >= base && a < base+uintptr(len(p.data)) {
			if e := p.changed(); e != nil {
				return e
			}
			return p.changedErr(p.size) // the file is back as it was
		}
	}
	return p.changed()
}

// changed returns an error when the file is not as it was when mapped:
// another size or modification time, or gone.
func (p *pages) changed() *Error {
	st, err := p.f.Stat()
	if err != nil {
		return p.changedErr(-1)
	}
	if st.Size() != p.size || !st.ModTime().Equal(p.mod) {
		return p.changedErr(st.Size())
	}
	return nil
}

// changedErr is the error of a file that changed while it was read; now
// is its size now, or -1 when it cannot be told.
func (p *pages) changedErr(now int64) *Error {
	e := &Error{Path: p.path, Msg: "the file changed while it was read: try again once nothing is writing to it"}
	if now >= 0 && now != p.size {
		e.Msg = fmt.Sprintf("the file changed while it was read (%d bytes when opened, %d now): try again once nothing is writing to it", p.size, now)
	}
	return e
}

// guarded runs f, a pass over p's mapping, guarded (see pages).
func guarded(p *pages, f func() error) (err error) {
	defer p.caught(p.guard(), &err)
	return f()
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
