package twin

import (
	"net/http"
	"regexp"
	"slices"
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
// documentsBudget what its items may cost, in tokens, unless it asks for
// another token_budget (seekTokenBudgetMax at most).
const (
	documentsAtOnce = 20
	documentsBudget = 8000
)

// sectionIDRE is a section id as a document names one.
var sectionIDRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,71}$`)

// documentsRead reads one section of the current document of up to 20
// SPACEs at once, as the service's GET /v1/documents?spaces=a,b&section=
// status does: one item a SPACE, in the order asked (a repeated name keeps
// its first place), each {space, version, text} with the section's lines
// from its heading, or text null and the reason (not_found for a SPACE
// that is not there or not the caller's to read, no_document, no_version,
// no_section). token_budget (8,000 unless sent) keeps the items that fit,
// one at least; the names it left out are not_included, in order, and
// budget_cut says it cut.
func (c *call) documentsRead() (int, any, *apiError) {
	if c.r.Header.Get("Authorization") != "" {
		p, ok := c.a.principalLocked(c.r)
		if !ok {
			return 0, nil, c.a.tokenRefusal(c.r)
		}
		c.p = p
	}
	q := c.r.URL.Query()
	var raw []string
	for _, n := range strings.Split(q.Get("spaces"), ",") {
		if n = strings.TrimSpace(n); n != "" {
			raw = append(raw, n)
		}
	}
	if len(raw) == 0 || len(raw) > documentsAtOnce {
		return 0, nil, badRequest("spaces is 1 to 20 SPACE names, comma separated", "Send ?spaces=NAME,NAME&section=status.")
	}
	var names []string
	for _, n := range raw {
		if !spaceNameRE.MatchString(n) {
			return 0, nil, badRequest("spaces are SPACE names: 3 to 63 lowercase letters, digits and hyphens", "Send SPACE names as GET /v1/spaces gives them.")
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	section := q.Get("section")
	if section == "" {
		return 0, nil, badRequest("section is required: the section id to read in each document, such as status", "Send &section=status.")
	}
	if !sectionIDRE.MatchString(strings.ToLower(section)) {
		return 0, nil, badRequest("section is a section id the document names", "Read a document to see its section ids.")
	}
	if strings.ToLower(section) != section {
		return 0, nil, badRequest("section ids are lowercase, such as status", "Send the section id in lowercase.")
	}
	budget, e := c.queryClamped("token_budget", documentsBudget, 1, seekTokenBudgetMax)
	if e != nil {
		return 0, nil, e
	}
	type at struct {
		PostID string `json:"post_id"`
		Seq    string `json:"seq"`
	}
	type item struct {
		Space   string  `json:"space"`
		Version *at     `json:"version"`
		Text    *string `json:"text"`
		Reason  string  `json:"reason,omitempty"`
	}
	items := make([]item, 0, len(names))
	for _, name := range names {
		it := item{Space: name}
		sp := c.a.spaces[name]
		switch {
		case sp == nil || !sp.canSee(c.p.PeerID):
			it.Reason = "not_found"
		case sp.Kind != "work":
			it.Reason = "no_document"
		case sp.version(sp.Current) == nil:
			it.Reason = "no_version"
		default:
			v := sp.version(sp.Current)
			if p := c.a.posts[v.PostID]; p != nil {
				it.Version = &at{p.ID, strconv.FormatInt(p.Seq, 10)}
			}
			if text := sectionOf(v.Body, section); text != "" {
				it.Text = &text
			} else {
				it.Reason = "no_section"
			}
		}
		items = append(items, it)
	}
	spent, kept := 0, 0
	for _, it := range items {
		cost := itemTokens(it)
		if kept > 0 && spent+cost > int(budget) {
			break
		}
		spent += cost
		kept++
	}
	out := object{{"section", section}, {"items", items[:kept]}, {"not_included", append([]string{}, names[kept:]...)},
		{"tokens_estimated", spent}}
	if kept < len(items) {
		out.add(field{"budget_cut", true})
	}
	out.add(field{"notice", peerNotice})
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
