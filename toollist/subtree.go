package toollist

import (
	"hash/maphash"
	"math/bits"

	"github.com/readmeter/readmeter/jsonjs"
)

// subtree names a value by what JSON.stringify writes of it, without
// writing it: a hash of the text and its length. Values with the same text
// have the same subtree; two texts with the same subtree are told apart by
// comparing the texts where it matters (see hoistOnce).
type subtree struct {
	h uint64
	n int
}

var hashSeed = maphash.MakeSeed()

// The tags that start each kind's hash.
const (
	tagNull uint64 = iota + 0x51ed27
	tagFalse
	tagTrue
	tagNumber
	tagString
	tagArray
	tagObject
)

func mix(h, x uint64) uint64 {
	return (bits.RotateLeft64(h, 29) ^ x) * 0x9e3779b97f4a7c15
}

// leafSubtree is the subtree of a value that is not an array or object.
func leafSubtree(v jsonjs.Value) subtree {
	switch v.Kind() {
	case jsonjs.Bool:
		if v.Bool() {
			return subtree{tagTrue, 4}
		}
		return subtree{tagFalse, 5}
	case jsonjs.Number:
		var buf [32]byte
		b := jsonjs.AppendStringify(buf[:0], v) // null for what overflowed
		return subtree{mix(tagNumber, maphash.Bytes(hashSeed, b)), len(b)}
	case jsonjs.String:
		return subtree{mix(tagString, maphash.String(hashSeed, v.Str())), jsonjs.StringifyLen(v)}
	}
	return subtree{tagNull, 4}
}

// subtreeOf returns the subtree of v, all of it.
func subtreeOf(v jsonjs.Value) subtree {
	switch v.Kind() {
	case jsonjs.Array:
		a := startArray()
		for _, e := range v.Elems() {
			a.add(subtreeOf(e))
		}
		return a.end()
	case jsonjs.Object:
		o := startObject()
		for _, m := range v.Members() {
			o.member(m.Key, subtreeOf(m.Value))
		}
		return o.end()
	}
	return leafSubtree(v)
}

// building is an array's or object's subtree as its parts are added.
type building struct {
	h     uint64
	n     int
	count int
}

func startArray() building  { return building{h: tagArray, n: 2} }
func startObject() building { return building{h: tagObject, n: 2} }

func (b *building) add(s subtree) {
	if b.count > 0 {
		b.n++
	}
	b.count++
	b.h = mix(mix(b.h, s.h), uint64(s.n))
	b.n += s.n
}

func (b *building) member(key string, s subtree) {
	b.memberHashed(maphash.String(hashSeed, key), keyLen(key), s)
}

// memberHashed is member with the key's hash and quoted length taken
// before.
func (b *building) memberHashed(kh uint64, kn int, s subtree) {
	if b.count > 0 {
		b.n++
	}
	b.count++
	b.h = mix(mix(mix(b.h, kh), s.h), uint64(s.n))
	b.n += kn + 1 + s.n
}

func (b *building) end() subtree { return subtree{mix(b.h, uint64(b.count)), b.n} }
