package tokenize

import (
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

var updateVocab = flag.Bool("update", false, "write o200k.vocab and cl100k.vocab from github.com/tiktoken-go/tokenizer's ranks")

// vocabFiles are the vocabulary files, their encodings in the library
// and their tables' sizes: about four slots for every three tokens.
var vocabFiles = []struct {
	file     string
	embedded *string
	enc      tokenizer.Encoding
	bits     uint
}{
	{"o200k.vocab", &o200kVocab, tokenizer.O200kBase, 18},
	{"cl100k.vocab", &cl100kVocab, tokenizer.Cl100kBase, 17},
}

// libraryTokens returns the library's tokens of e, by rank.
func libraryTokens(t testing.TB, e tokenizer.Encoding) []string {
	t.Helper()
	c, err := tokenizer.Get(e)
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	ids := make([]uint, 1)
	for id := 0; ; id++ {
		ids[0] = uint(id)
		s, err := c.Decode(ids)
		if err != nil || s == "" {
			break
		}
		tokens = append(tokens, s)
	}
	// The ranks past the last are special tokens or none.
	for id := len(tokens); id < len(tokens)+1000; id++ {
		ids[0] = uint(id)
		if s, err := c.Decode(ids); err == nil && s != "" {
			t.Fatalf("%s: rank %d is a token after the gap at %d", e, id, len(tokens))
		}
	}
	return tokens
}

// buildVocab writes a vocabulary file of tokens (by rank) with 1<<bits
// slots.
func buildVocab(t testing.TB, tokens []string, bits uint) []byte {
	t.Helper()
	var blob bytes.Buffer
	slots := make([]uint64, 1<<bits)
	seen := map[string]bool{}
	for r, tok := range tokens {
		if seen[tok] || len(tok) > 0xff || blob.Len()+len(tok) > 1<<24 || r >= 1<<18 {
			t.Fatalf("rank %d, %q: a token twice, or past what a slot holds", r, tok)
		}
		seen[tok] = true
		h := hash(tok)
		i := h >> (64 - bits)
		tag := h >> (64 - bits - tagBits) & (1<<tagBits - 1)
		for slots[i] != 0 {
			i = (i + 1) & (1<<bits - 1)
		}
		slots[i] = uint64(blob.Len()) | uint64(len(tok))<<24 | uint64(r)<<32 | tag<<50
		blob.WriteString(tok)
	}
	var out bytes.Buffer
	out.WriteString(vocabMagic)
	for _, v := range []uint32{uint32(bits), uint32(len(tokens)), uint32(blob.Len()), 0} {
		binary.Write(&out, binary.LittleEndian, v)
	}
	binary.Write(&out, binary.LittleEndian, slots)
	out.Write(blob.Bytes())
	return out.Bytes()
}

// TestVocabularies holds the vocabulary files to the library's ranks:
// the file is the one written from them, and every token has its rank,
// and one byte more, or one less, is another token or none.
func TestVocabularies(t *testing.T) {
	for _, vf := range vocabFiles {
		tokens := libraryTokens(t, vf.enc)
		want := buildVocab(t, tokens, vf.bits)
		if *updateVocab {
			if err := os.WriteFile(vf.file, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal([]byte(*vf.embedded), want) {
			t.Errorf("%s differs from what %s's ranks write (%d bytes, want %d): go test ./tokenize -run TestVocabularies -update", vf.file, vf.enc, len(*vf.embedded), len(want))
			continue
		}
		v, err := readVocab(*vf.embedded)
		if err != nil {
			t.Fatal(err)
		}
		if v.tokens != len(tokens) {
			t.Errorf("%s: %d tokens, want %d", vf.file, v.tokens, len(tokens))
		}
		ranks := make(map[string]int, len(tokens))
		for r, tok := range tokens {
			ranks[tok] = r
		}
		for r, tok := range tokens {
			if got, ok := v.rank(tok); !ok || got != r {
				t.Fatalf("%s: %q: rank %d %v, want %d", vf.file, tok, got, ok, r)
			}
			for _, other := range []string{tok + "\x00", tok[:len(tok)-1], "x" + tok} {
				got, ok := v.rank(other)
				want, wok := ranks[other]
				if ok != wok || got != want {
					t.Fatalf("%s: %q: rank %d %v, want %d %v", vf.file, other, got, ok, want, wok)
				}
			}
		}
	}
}

func TestReadVocabRefuses(t *testing.T) {
	for _, file := range []string{"", "RMTOKV01", o200kVocab[:len(o200kVocab)-1], "XX" + o200kVocab[2:]} {
		if _, err := readVocab(file); err == nil {
			t.Errorf("readVocab of %d bytes: no error", len(file))
		}
	}
}

// TestEveryByteIsAToken: Count takes a piece of one byte for one token
// without looking it up; both vocabularies must hold every byte.
func TestEveryByteIsAToken(t *testing.T) {
	for _, name := range Names {
		load, _ := encodingOf(name)
		e, err := load()
		if err != nil {
			t.Fatal(err)
		}
		for b := range 256 {
			if _, ok := e.vocab.rank(string([]byte{byte(b)})); !ok {
				t.Errorf("%s: the byte %#02x is no token", name, b)
			}
		}
	}
}
