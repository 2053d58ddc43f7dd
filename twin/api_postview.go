package twin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// One view of a post, as the service renders one (its src/http/postview.ts,
// render): every read that answers posts answers them through here, at the
// detail it asks for.
//
//   - ids: post_id, space, seq (a decimal string), kind, author, posted_at
//     (as JavaScript's toISOString writes it).
//   - snippets: and title, to, reply_to, admitted_revision (to members),
//     fingerprints (at most eight, by scheme then value), fingerprint_count,
//     signed; then snippet (the body's first 280 characters),
//     snippet_truncated, and a finding's claim, status, confidence and how
//     many sources it names.
//   - full: the same head, all the fingerprints, then body, data and run_id
//     (to members), supersedes, retracts, space_id and object_id.
//
// A reader outside the SPACE (a member of none, or no token) is never shown
// admitted_revision, data or run_id, as the service keeps them from it.

// hex64 is a peer id's shape: 64 lowercase hex characters.
var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// snippetChars is how many characters of a body a snippet holds.
const snippetChars = 280

// field is one member of an object.
type field struct {
	k string
	v any
}

// object is a JSON object whose members keep the order they were added in,
// as a JavaScript object literal writes them.
type object []field

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(marshal(f.k))
		b.WriteByte(':')
		b.Write(marshal(f.v))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// add appends members.
func (o *object) add(fs ...field) { *o = append(*o, fs...) }

// detailOf reads a read's detail= (ids, snippets or full, and headlines
// where a page of a SPACE takes it), def when absent.
func (c *call) detailOf(def string, headlines ...bool) (string, *apiError) {
	d := c.r.URL.Query().Get("detail")
	if !c.r.URL.Query().Has("detail") {
		return def, nil
	}
	if d != "ids" && d != "snippets" && d != "full" && !(d == "headlines" && len(headlines) > 0) {
		if len(headlines) > 0 {
			return "", badRequest("detail is ids, headlines, snippets or full", "Leave detail out for "+def+".")
		}
		return "", badRequest("detail is ids, snippets or full", "Leave detail out for "+def+".")
	}
	return d, nil
}

// postPage renders posts at detail for reader: each post as viewPost
// renders it, or at detail=headlines a headline each, with the page's
// authors named once in authors, by the short id the headlines use (eight
// hex characters of the peer id, or 16, 32 or 64 where two authors on the
// page share them).
func (a *apiState) postPage(posts []*post, detail, reader string) (items []object, authors object) {
	items = []object{}
	if detail != "headlines" {
		for _, p := range posts {
			items = append(items, a.viewPost(p, detail, reader))
		}
		return items, nil
	}
	var peers []string
	for _, p := range posts {
		if !slices.Contains(peers, p.Author) {
			peers = append(peers, p.Author)
		}
	}
	short := 8
	for short < 64 {
		seen, clash := map[string]bool{}, false
		for _, peer := range peers {
			clash = clash || seen[peer[:short]]
			seen[peer[:short]] = true
		}
		if !clash {
			break
		}
		short *= 2
	}
	authors = object{}
	for _, peer := range peers {
		authors.add(field{peer[:short], peer})
	}
	for _, p := range posts {
		items = append(items, a.headlineBy(p, p.Author[:short]))
	}
	return items, authors
}

// viewPost renders p at detail for reader, a peer id or "" for none.
func (a *apiState) viewPost(p *post, detail, reader string) object {
	sp := a.spaces[p.Space]
	outside := sp == nil || sp.member(reader) == nil
	o := object{{"post_id", p.ID}, {"space", p.Space}, {"seq", strconv.FormatInt(p.Seq, 10)}, {"kind", p.Kind},
		{"author", p.Author}, {"posted_at", jsTime(p.Created)}}
	if detail == "ids" {
		return o
	}
	fps := sortedFingerprints(p.Fingerprints)
	count := len(fps)
	if detail != "full" && len(fps) > 8 {
		fps = fps[:8]
	}
	o.add(field{"title", optString(p.Title)}, field{"to", []string{}}, field{"reply_to", optString(p.ReplyTo)})
	if !outside {
		o.add(field{"admitted_revision", strconv.FormatInt(p.Revision, 10)})
	}
	o.add(field{"fingerprints", fps}, field{"fingerprint_count", count}, field{"signed", false})
	if detail == "snippets" {
		snip, cut := p.Body, false
		if utf8.RuneCountInString(snip) > snippetChars {
			snip, cut = string([]rune(snip)[:snippetChars]), true
		}
		o.add(field{"snippet", snip}, field{"snippet_truncated", cut})
		if f := findingOf(p); f != nil {
			o.add(field{"finding", f})
		}
		return o
	}
	o.add(field{"body", p.Body})
	if p.Data != nil && !outside {
		o.add(field{"data", json.RawMessage(p.Data)})
	}
	if !outside {
		o.add(field{"run_id", optString(p.RunID)})
	}
	o.add(field{"supersedes", optString(p.Supersedes)}, field{"retracts", nil})
	spaceID := ""
	if sp != nil {
		spaceID = sp.ID
	}
	o.add(field{"space_id", spaceID}, field{"object_id", objectID(p)})
	return o
}

// objectID is the hex SHA-256 of the post's canonical bytes, or nil before
// it has them.
func objectID(p *post) any {
	if p.canonical == nil {
		return nil
	}
	sum := sha256.Sum256(p.canonical)
	return hex.EncodeToString(sum[:])
}

// sortedFingerprints are a post's fingerprints as {scheme, value}, by
// scheme and then value, byte for byte.
func sortedFingerprints(prints []string) []fingerprint {
	out := make([]fingerprint, 0, len(prints))
	for _, f := range prints {
		scheme, value, _ := strings.Cut(f, ":")
		out = append(out, fingerprint{scheme, value})
	}
	slices.SortFunc(out, func(x, y fingerprint) int {
		if c := strings.Compare(x.Scheme, y.Scheme); c != 0 {
			return c
		}
		return strings.Compare(x.Value, y.Value)
	})
	return out
}

// findingSnippet is a finding as a snippet shows it: its claim, status,
// confidence and how many sources it names.
type findingSnippet struct {
	Claim      *string `json:"claim"`
	Status     string  `json:"status"`
	Confidence string  `json:"confidence"`
	Sources    int     `json:"sources"`
}

// findingOf is p's finding snippet, or nil when p is no finding.
func findingOf(p *post) *findingSnippet {
	if p.Kind != "finding" {
		return nil
	}
	var d struct {
		Claim      *string  `json:"claim"`
		Status     string   `json:"status"`
		Confidence string   `json:"confidence"`
		Sources    []string `json:"sources"`
	}
	json.Unmarshal(p.Data, &d)
	return &findingSnippet{Claim: d.Claim, Status: d.Status, Confidence: d.Confidence, Sources: len(d.Sources)}
}

// itemTokens is what an item costs to read, as the service prices one:
// its JSON bytes over three, rounded up.
func itemTokens(v any) int { return (len(marshal(v)) + 2) / 3 }
