package twin

import (
	"net/http"
	"strconv"
	"strings"
)

// Documents: the current version of a work space's document.

// needDocument refuses a space that keeps no document.
func needDocument(sp *space) *apiError {
	if sp.Kind != "work" {
		return refuse("NOT_AN_ORACLE", sp.Name+" keeps no document",
			"Read a SPACE made with document true, or post another kind here.")
	}
	return nil
}

func (c *call) documentGet() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	if e := needDocument(sp); e != nil {
		return 0, nil, e
	}
	if sp.Current == 0 {
		return 0, nil, refuse("NOT_AN_ORACLE", quote(sp.Name)+" has no current document yet.",
			"An owner writes one with POST /v1/spaces/"+sp.Name+"/versions.")
	}
	pending := 0
	for _, v := range sp.Versions {
		if v.State == "pending" {
			pending++
		}
	}
	v := sp.version(sp.Current)
	if n, e := c.queryInt("version", 0, 0, 1<<31-1); e != nil {
		return 0, nil, e
	} else if n > 0 {
		// An earlier version, by its seq.
		v = nil
		for _, w := range sp.Versions {
			if p := c.a.posts[w.PostID]; p != nil && p.Seq == n {
				v = w
			}
		}
		if v == nil {
			return 0, nil, refuse("VERSION_NOT_FOUND", itoa(int(n)), "Read the versions with GET /v1/spaces/"+sp.Name+"/versions.")
		}
	}
	head := documentVersion{PostID: v.PostID, Seq: "0", State: v.State, Author: v.Author, PostedAt: jsTime(v.Created), Summary: optString(v.Title),
		Fingerprints: []fingerprint{}}
	if p := c.a.posts[v.PostID]; p != nil {
		head.Seq, head.Fingerprints = strconv.FormatInt(p.Seq, 10), sortedFingerprints(p.Fingerprints)
		if prev := c.a.posts[p.Supersedes]; prev != nil {
			s := strconv.FormatInt(prev.Seq, 10)
			head.Edits = &s
		}
	}
	if d := c.a.posts[v.Decision]; d != nil {
		head.DecidedBy = &decidedBy{PostID: d.ID, Seq: strconv.FormatInt(d.Seq, 10), Kind: d.Kind, Author: d.Author}
	}
	out := documentAnswer{Space: sp.Name, Title: optString(sp.Title), Version: head, Text: v.Body, Sections: sectionsOf(v.Body),
		References: []any{}, Pending: pending, Deciders: c.a.deciders(sp, c.p.PeerID), Notice: peerNotice}
	out.TokensEstimated = itemTokens(v.Body)
	return http.StatusOK, out, nil
}

// documentAnswer is a document as the service answers one: the SPACE, its
// title, the version read, its text, its sections, what it links to, how
// many versions wait, what the text costs, and who decides it.
type documentAnswer struct {
	Space           string          `json:"space"`
	Title           *string         `json:"title"`
	Version         documentVersion `json:"version"`
	Text            string          `json:"text"`
	Sections        []docSection    `json:"sections"`
	References      []any           `json:"references"`
	Pending         int             `json:"pending"`
	TokensEstimated int             `json:"tokens_estimated"`
	Deciders        deciders        `json:"deciders"`
	Notice          string          `json:"notice"`
}

// documentVersion is the version a document read answers.
type documentVersion struct {
	PostID       string        `json:"post_id"`
	Seq          string        `json:"seq"`
	State        string        `json:"state"`
	Author       string        `json:"author"`
	PostedAt     string        `json:"posted_at"`
	Summary      *string       `json:"summary"`
	Signed       bool          `json:"signed"`
	Fingerprints []fingerprint `json:"fingerprints"`
	Edits        *string       `json:"edits"`
	SameTextAs   *string       `json:"same_text_as"`
	DecidedBy    *decidedBy    `json:"decided_by"`
}

// decidedBy is the post that made a version current, or turned it down.
type decidedBy struct {
	PostID string `json:"post_id"`
	Seq    string `json:"seq"`
	Kind   string `json:"kind"`
	Author string `json:"author"`
}

// docSection is one section of a document: the lead (the text before the
// first heading, level 0) when it holds words, then one for each #, ## or
// ### heading, its id the heading's words in lowercase joined by hyphens.
type docSection struct {
	ID      string `json:"id"`
	Level   int    `json:"level"`
	Heading string `json:"heading"`
}

func sectionsOf(text string) []docSection {
	out := []docSection{}
	lead := true
	for _, line := range strings.Split(text, "\n") {
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if level >= 1 && level <= 3 && strings.HasPrefix(line[level:], " ") {
			heading := strings.TrimSpace(line[level:])
			out = append(out, docSection{ID: strings.Join(strings.Fields(strings.ToLower(heading)), "-"), Level: level, Heading: heading})
			lead = false
			continue
		}
		if lead && strings.TrimSpace(line) != "" && (len(out) == 0 || out[0].ID != "lead") {
			out = append(out, docSection{ID: "lead", Level: 0, Heading: ""})
		}
	}
	return out
}

// documentsAtOnce is how many SPACEs one read of documents names, and
// documentsBytes how much text one answer carries before it leaves the
// rest out (not_included, to ask for again).
const (
	documentsAtOnce = 20
	documentsBytes  = 32 * 1024
)

// documentsRead reads one section of the current document of several
// SPACEs at once: GET /v1/documents?spaces=a,b&section=status. Each item
// is the section's text from its heading to the next heading of its level
// or above; a SPACE whose document has no such section answers text null.
func (c *call) documentsRead() (int, any, *apiError) {
	if c.r.Header.Get("Authorization") != "" {
		p, ok := c.a.principalLocked(c.r)
		if !ok {
			return 0, nil, c.a.tokenRefusal(c.r)
		}
		c.p = p
	}
	q := c.r.URL.Query()
	raw, section := q.Get("spaces"), strings.ToLower(strings.TrimSpace(q.Get("section")))
	if raw == "" {
		return 0, nil, badRequest("spaces is required: SPACE names separated by commas", "Send ?spaces=NAME,NAME&section=status.")
	}
	names := strings.Split(raw, ",")
	if len(names) > documentsAtOnce {
		return 0, nil, badRequest("spaces names at most 20 SPACEs", "Ask for the rest in another call.")
	}
	type item struct {
		Space   string  `json:"space"`
		Version *int    `json:"version"`
		Section string  `json:"section,omitempty"`
		Text    *string `json:"text"`
	}
	out := struct {
		Items       []item   `json:"items"`
		NotIncluded []string `json:"not_included"`
		Notice      string   `json:"notice"`
	}{Items: []item{}, NotIncluded: []string{}, Notice: peerNotice}
	size := 0
	for _, name := range names {
		name = strings.TrimSpace(name)
		sp := c.a.spaces[name]
		if sp == nil || !sp.canSee(c.p.PeerID) {
			return 0, nil, refuse("SPACE_NOT_FOUND", name, "Name SPACEs you may read; GET /v1/spaces lists them.")
		}
		it := item{Space: name, Section: section}
		if v := sp.version(sp.Current); v != nil {
			n := v.Number
			it.Version = &n
			text := v.Body
			if section != "" {
				text = sectionOf(v.Body, section)
			}
			if text != "" {
				it.Text = &text
			}
		}
		if size += len(marshal(it)); size > documentsBytes && len(out.Items) > 0 {
			out.NotIncluded = append(out.NotIncluded, name)
			continue
		}
		out.Items = append(out.Items, it)
	}
	return http.StatusOK, out, nil
}

// sectionOf is the section of a markdown document whose heading, as a
// slug (lowercase, words joined by hyphens), is name: from its heading up
// to the next heading of its level or above; "" when there is none.
func sectionOf(doc, name string) string {
	lines := strings.SplitAfter(doc, "\n")
	start, level := -1, 0
	for i, l := range lines {
		hashes := len(l) - len(strings.TrimLeft(l, "#"))
		if hashes == 0 || hashes > 6 || !strings.HasPrefix(l[hashes:], " ") {
			continue
		}
		if start >= 0 {
			if hashes <= level {
				return strings.TrimRight(strings.Join(lines[start:i], ""), "\n")
			}
			continue
		}
		if headingSlug(l[hashes:]) == name {
			start, level = i, hashes
		}
	}
	if start < 0 {
		return ""
	}
	return strings.TrimRight(strings.Join(lines[start:], ""), "\n")
}

func headingSlug(h string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.TrimSpace(h))), "-")
}
