// Package ledger counts what a walk read: parts, bytes and tokens.
//
//	l := ledger.New("start_tasks", ledger.FullWidthTimes())
//	l.Add("the primer", body)      // normalised, decoded as Node decodes, counted
//	fmt.Println(l.Bytes(), l.Tokens())
//	for _, p := range l.Parts() { ... p.Name, p.Bytes, p.Tokens ... }
//
// The stance is the service's own: every byte an answer carries is counted
// as UTF-8 text (decoded as Node decodes it, each invalid sequence becoming
// U+FFFD), after the walk's normalisers rewrote what would otherwise change
// from run to run (times the database writes without trailing zeros).
// Tokens are floor(bytes/3): of the walk's total, and, for display, of each
// part.
//
// The steps: New a Ledger with the walk's name and normalisers; Add each
// counted answer or document as a named part; read its Bytes, Tokens and
// Parts (package gate holds them to budgets). FromParts rebuilds a ledger
// from the parts an earlier run reported.
//
// A Ledger belongs to one walk and is not safe for concurrent use.
package ledger

import (
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/jsonjs"
)

// Part is one counted part of a walk: an answer or a document.
type Part struct {
	// Name is the part's name as the spec gives it ("take the next task").
	Name string `json:"name"`
	// Bytes is the part's UTF-8 bytes after normalisation.
	Bytes int64 `json:"bytes"`
	// Tokens is floor(Bytes/3), for display.
	Tokens int64 `json:"tokens"`
	// Shared is true for an answer that reads what every run writes (a
	// SPACE all runs post to): two runs may count it differently, and are
	// not told apart by it.
	Shared bool `json:"shared,omitempty"`
}

// Ledger is what one walk read, part by part, in the order read.
type Ledger struct {
	walk  string
	norm  Normalizer
	parts []Part
	bytes int64
}

// New returns an empty ledger for the walk named walk, whose answers are
// rewritten by the normalisers, in the order given, before they are counted.
func New(walk string, normalizers ...Normalizer) *Ledger {
	l := &Ledger{walk: walk}
	switch len(normalizers) {
	case 0:
	case 1:
		l.norm = normalizers[0]
	default:
		l.norm = Chain(normalizers...)
	}
	return l
}

// Normalize returns body as the ledger counts it: decoded as UTF-8 text the
// way Node decodes it, then rewritten by the ledger's normalisers. It
// returns body itself when nothing changes.
func (l *Ledger) Normalize(body []byte) []byte {
	text, _ := jsonjs.Decode(body)
	if l.norm != nil {
		text = l.norm.Normalize(text)
	}
	return text
}

// Add counts body as the part named part and returns the bytes counted.
// Two parts may share a name; each is kept in the order added.
func (l *Ledger) Add(part string, body []byte) int64 {
	n := int64(len(l.Normalize(body)))
	l.AddBytes(part, n)
	return n
}

// AddShared counts body as the part named part, marked Shared, and
// returns the bytes counted.
func (l *Ledger) AddShared(part string, body []byte) int64 {
	n := l.Add(part, body)
	l.parts[len(l.parts)-1].Shared = true
	return n
}

// AddBytes records a part whose byte count was computed elsewhere (what a
// model reads of a tool list, say), without normalising anything.
func (l *Ledger) AddBytes(part string, n int64) {
	l.parts = append(l.parts, Part{Name: part, Bytes: n, Tokens: units.Tokens(n)})
	l.bytes += n
}

// Parts returns a copy of the parts, in the order added.
func (l *Ledger) Parts() []Part { return append([]Part(nil), l.parts...) }

// Part returns the first part named name.
func (l *Ledger) Part(name string) (Part, bool) {
	for _, p := range l.parts {
		if p.Name == name {
			return p, true
		}
	}
	return Part{}, false
}

// Bytes returns the total bytes of every part.
func (l *Ledger) Bytes() int64 { return l.bytes }

// Tokens returns floor(Bytes/3), the walk's tokens.
func (l *Ledger) Tokens() int64 { return units.Tokens(l.bytes) }

// FromParts returns a ledger holding parts already counted (an earlier
// run's, read back from its report), with no normalisers.
func FromParts(walk string, parts []Part) *Ledger {
	l := New(walk)
	for _, p := range parts {
		l.AddBytes(p.Name, p.Bytes)
		l.parts[len(l.parts)-1].Shared = p.Shared
	}
	return l
}
