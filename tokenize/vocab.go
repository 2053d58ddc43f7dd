package tokenize

import (
	_ "embed"
	"errors"
	"fmt"
	"math/bits"
)

// The vocabularies, each a hash table from a token's bytes to its rank,
// built ahead (TestVocabularies writes them from the ranks of
// github.com/tiktoken-go/tokenizer with -update, and checks them against
// those ranks otherwise) and compiled into the binary as they are used:
// loading one costs nothing, and a run reads only the pages its lookups
// touch.
//
// A file is, little-endian:
//
//	"RMTOKV01"          magic
//	uint32 bits         the table has 1<<bits slots
//	uint32 tokens       how many tokens (ranks 0 to tokens-1)
//	uint32 blob         the length of the tokens' bytes
//	uint32 0            padding
//	[1<<bits]uint64     slots, linear probing from hash(token)>>(64-bits)
//	[blob]byte          every token's bytes, in rank order
//
// A slot is 0 when empty; otherwise bits 0-23 hold the token's offset in
// the bytes, 24-31 its length, 32-49 its rank and 50-63 a tag, the 14 bits
// of its hash below the slot index, compared before the bytes.
var (
	//go:embed o200k.vocab
	o200kVocab string
	//go:embed cl100k.vocab
	cl100kVocab string
)

const (
	vocabMagic  = "RMTOKV01"
	vocabHeader = len(vocabMagic) + 16
	tagBits     = 14
)

// vocab is a vocabulary file, read in place.
type vocab struct {
	bits   uint
	mask   uint64
	tokens int
	slots  string // 8 bytes a slot
	blob   string
}

// readVocab checks a vocabulary file's header and returns it to be read
// in place.
func readVocab(file string) (*vocab, error) {
	if len(file) < vocabHeader || file[:len(vocabMagic)] != vocabMagic {
		return nil, errors.New("not a vocabulary file")
	}
	bits := uint(le32(file, 8))
	tokens, blob := int(le32(file, 12)), int(le32(file, 16))
	if bits < 10 || bits > 24 || len(file) != vocabHeader+8<<bits+blob {
		return nil, fmt.Errorf("a vocabulary file of %d bytes says it holds %d slots and %d bytes", len(file), 1<<bits, blob)
	}
	return &vocab{
		bits:   bits,
		mask:   1<<bits - 1,
		tokens: tokens,
		slots:  file[vocabHeader : vocabHeader+8<<bits],
		blob:   file[vocabHeader+8<<bits:],
	}, nil
}

// rank returns the rank of the token whose bytes are p, and whether p is
// a token.
func (v *vocab) rank(p string) (int, bool) {
	h := hash(p)
	i := h >> (64 - v.bits)
	tag := h >> (64 - v.bits - tagBits) & (1<<tagBits - 1)
	for {
		s := le64(v.slots, int(i)*8)
		if s == 0 {
			return 0, false
		}
		if s>>50 == tag && int(s>>24&0xff) == len(p) && v.equal(int(s&0xffffff), p) {
			return int(s >> 32 & 0x3ffff), true
		}
		i = (i + 1) & v.mask
	}
}

// hash is the vocabularies' hash of a token's bytes: its first and last
// words (overlapping for a short token; sixteen bytes at a time before
// them for a long one) multiplied into 128 bits and folded, as wyhash
// does. The tables are built with it: changing it means writing them
// again.
func hash(p string) uint64 {
	n := len(p)
	var a, b uint64
	seed := uint64(n) * 0x9e3779b97f4a7c15
	switch {
	case n > 16:
		for i := 0; i+16 < n; i += 16 {
			seed = mix(le64(p, i)^0xa0761d6478bd642f, le64(p, i+8)^seed)
		}
		a, b = le64(p, n-16), le64(p, n-8)
	case n >= 8:
		a, b = le64(p, 0), le64(p, n-8)
	case n >= 4:
		a, b = uint64(le32(p, 0)), uint64(le32(p, n-4))
	case n > 0:
		a = uint64(p[0])<<16 | uint64(p[n>>1])<<8 | uint64(p[n-1])
	}
	return mix(a^0xe7037ed1a0b428db, b^seed^0x8ebc6af09c88c6e3)
}

// mix multiplies a and b into 128 bits and folds them.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// equal reports whether the token of length len(p) at off in the bytes
// is p: word by word for a short one.
func (v *vocab) equal(off int, p string) bool {
	n := len(p)
	switch {
	case n > 8:
		return v.blob[off:off+n] == p
	case n >= 4:
		return le32(v.blob, off) == le32(p, 0) && le32(v.blob, off+n-4) == le32(p, n-4)
	}
	for i := range n {
		if v.blob[off+i] != p[i] {
			return false
		}
	}
	return true
}

func le32(s string, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func le64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}
