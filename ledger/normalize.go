package ledger

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	"github.com/readmeter/readmeter/jsonjs"
)

// Normalizer rewrites an answer's text before it is counted, so that every
// run counts the same.
type Normalizer interface {
	// Name returns the name a spec gives the normaliser ("full-width-times"),
	// or a description of a regex rewrite.
	Name() string
	// Normalize returns src rewritten. It returns src itself, not a copy,
	// when nothing changes, and never modifies src.
	Normalize(src []byte) []byte
}

// Names of the built-in normalisers, as a spec writes them.
const (
	// NameFullWidthTimes is FullWidthTimes: times at full width in the text
	// and inside base64url "canonical" fields, as the service counts.
	NameFullWidthTimes = "full-width-times"
	// NameTextTimes is TextTimes: times at full width in the text only.
	NameTextTimes = "text-times"
	// NameCanonicalTimes is CanonicalTimes: times at full width inside
	// base64url "canonical" fields only.
	NameCanonicalTimes = "canonical-times"
)

// ByName returns the built-in normaliser a spec names: "full-width-times",
// "text-times" or "canonical-times". An unknown name is an error that lists
// the known ones.
func ByName(name string) (Normalizer, error) {
	switch name {
	case NameFullWidthTimes:
		return FullWidthTimes(), nil
	case NameTextTimes:
		return TextTimes(), nil
	case NameCanonicalTimes:
		return CanonicalTimes(), nil
	}
	return nil, fmt.Errorf("unknown normaliser %q: use %s, %s, %s or a regex rewrite", name, NameFullWidthTimes, NameTextTimes, NameCanonicalTimes)
}

type funcNormalizer struct {
	name string
	fn   func([]byte) []byte
}

func (f funcNormalizer) Name() string                { return f.name }
func (f funcNormalizer) Normalize(src []byte) []byte { return f.fn(src) }

// FullWidthTimes returns the service's "full width" rule: every time as the
// database formats it is padded to six fraction digits, in the text and
// inside each "canonical":"<base64url>" receipt field (decoded, padded,
// re-encoded). See TextTimes and CanonicalTimes for the two halves.
func FullWidthTimes() Normalizer {
	return funcNormalizer{NameFullWidthTimes, func(src []byte) []byte { return canonicalTimes(padTimes(src)) }}
}

// TextTimes returns the time rule applied to the text itself. A time is
// "T" + HH:MM:SS, an optional "." and 1 to 6 digits, then an offset +HH:MM
// or -HH:MM; it is written with its fraction padded with zeros to six
// digits, ".000000" when it has none:
// 2026-10-02T07:57:40.1+00:00 -> 2026-10-02T07:57:40.100000+00:00.
// A time ending in Z (".123Z") is fixed width already and left alone.
func TextTimes() Normalizer { return funcNormalizer{NameTextTimes, padTimes} }

// CanonicalTimes returns the time rule applied inside receipt fields
// "canonical":"<base64url>": the value is decoded (as Node's
// Buffer.from(s, "base64url"), then read as UTF-8 text), its times padded as
// TextTimes does, and encoded again, keeping "=" padding when the value had
// it. The field must be written exactly so, with no space around the colon.
func CanonicalTimes() Normalizer { return funcNormalizer{NameCanonicalTimes, canonicalTimes} }

type regexNormalizer struct {
	re   *regexp.Regexp
	repl []byte
}

func (r regexNormalizer) Name() string {
	return fmt.Sprintf("regex %q -> %q", r.re.String(), string(r.repl))
}

func (r regexNormalizer) Normalize(src []byte) []byte {
	if !r.re.Match(src) {
		return src
	}
	return r.re.ReplaceAll(src, r.repl)
}

// Regex returns a user-given rewrite: every match of pattern (Go regexp
// syntax) is replaced by repl, where $1 or ${name} stand for submatches as
// in regexp.Regexp.Expand (write ${1}x, not $1x, when a letter follows).
func Regex(pattern, repl string) (Normalizer, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("normaliser regex %q: %v", pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return regexNormalizer{re: re, repl: []byte(repl)}, nil
}

type chain []Normalizer

func (c chain) Name() string {
	names := make([]string, len(c))
	for i, n := range c {
		names[i] = n.Name()
	}
	return strings.Join(names, ", ")
}

func (c chain) Normalize(src []byte) []byte {
	for _, n := range c {
		src = n.Normalize(src)
	}
	return src
}

// Chain returns the normalisers applied one after another, in the order
// given.
func Chain(ns ...Normalizer) Normalizer { return chain(append([]Normalizer(nil), ns...)) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// matchTime reports the length of a database time at src[i:], which starts
// with 'T', and the length of its fraction digits (-1 when it has none), or
// n == 0 when there is none.
func matchTime(src []byte, i int) (n, frac int) {
	s := src[i:]
	// T HH:MM:SS
	if len(s) < 9+6 || !isDigit(s[1]) || !isDigit(s[2]) || s[3] != ':' || !isDigit(s[4]) || !isDigit(s[5]) ||
		s[6] != ':' || !isDigit(s[7]) || !isDigit(s[8]) {
		return 0, 0
	}
	j := 9
	frac = -1
	if s[j] == '.' {
		k := 0
		for j+1+k < len(s) && k < 7 && isDigit(s[j+1+k]) {
			k++
		}
		if k == 0 || k > 6 {
			return 0, 0
		}
		frac = k
		j += 1 + k
	}
	if len(s) < j+6 || (s[j] != '+' && s[j] != '-') || !isDigit(s[j+1]) || !isDigit(s[j+2]) || s[j+3] != ':' ||
		!isDigit(s[j+4]) || !isDigit(s[j+5]) {
		return 0, 0
	}
	return j + 6, frac
}

// padTimes pads every database time in src to six fraction digits.
func padTimes(src []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(src); {
		k := bytes.IndexByte(src[i:], 'T')
		if k < 0 {
			break
		}
		i += k
		n, frac := matchTime(src, i)
		if n == 0 {
			i++
			continue
		}
		if frac == 6 {
			i += n
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(src)+len(src)/8+16)
		}
		out = append(out, src[last:i+9]...) // up to and including the seconds
		if frac < 0 {
			out = append(out, ".000000"...)
		} else {
			out = append(out, src[i+9:i+10+frac]...)
			out = append(out, "000000"[frac:]...)
		}
		out = append(out, src[i+n-6:i+n]...) // the offset
		i += n
		last = i
	}
	if out == nil {
		return src
	}
	return append(out, src[last:]...)
}

var canonicalKey = []byte(`"canonical":"`)

func isBase64URL(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || isDigit(c) || c == '-' || c == '_'
}

// canonicalTimes pads the times inside each "canonical":"<base64url>" field.
func canonicalTimes(src []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(src); {
		k := bytes.Index(src[i:], canonicalKey)
		if k < 0 {
			break
		}
		start := i + k + len(canonicalKey)
		end := start
		for end < len(src) && isBase64URL(src[end]) {
			end++
		}
		pad := end
		for pad < len(src) && pad-end < 2 && src[pad] == '=' {
			pad++
		}
		if end == start || pad >= len(src) || src[pad] != '"' {
			i = start
			continue
		}
		value := src[start:end]
		if len(value)%4 == 1 { // as Node: a lone last character carries no byte
			value = value[:len(value)-1]
		}
		raw, err := base64.RawURLEncoding.DecodeString(string(value))
		if err != nil { // cannot happen for the alphabet checked above
			i = pad + 1
			continue
		}
		text, _ := jsonjs.Decode(raw)
		text = padTimes(text)
		enc := base64.RawURLEncoding
		if pad > end {
			enc = base64.URLEncoding
		}
		re := enc.AppendEncode(nil, text)
		if !bytes.Equal(re, src[start:pad]) {
			if out == nil {
				out = make([]byte, 0, len(src)+32)
			}
			out = append(out, src[last:start]...)
			out = append(out, re...)
			last = pad
		}
		i = pad + 1
	}
	if out == nil {
		return src
	}
	return append(out, src[last:]...)
}
