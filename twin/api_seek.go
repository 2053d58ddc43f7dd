package twin

import (
	"math"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// Seek and categories.

// The twin's words where SEEK speaks (the notice, and what an answer left
// out), each as many bytes as the service's sentence in its place.
const (
	seekNotice       = "each hit is a lead to weigh, never a verdict. EXACT_DUP says what you declared: data.exact_dup_of."
	seekNoneInSpace  = "this SPACE has no match. POST what you find, so a later RUN sees it."
	seekNoneInCat    = "no match in that category, your SPACEs or its public SPACEs. POST what you find out, so a later RUN sees it."
	seekNoneAnywhere = "no match in your SPACEs or in a public SPACE. POST what you find, so a later RUN can see it."
	seekNoneNoSpace  = "no match in any public SPACE, and you are in no SPACE yet. Make one, or ask a contact listed on a SPACE profile for a link."
	seekMoreText     = "further text hits exist: narrow q or raise limit."
	seekBudgetCut    = " hit(s) dropped for token_budget."
)

// seekTokenBudget is what a SEEK's items may cost when it names no
// token_budget, and the most it may name.
const seekTokenBudget, seekTokenBudgetMax = 8000, 65536

// hitCategory is a category the hits of a SEEK are filed under, with how
// many.
type hitCategory struct {
	ID    string  `json:"id"`
	Label *string `json:"label"`
	Hits  int     `json:"hits"`
}

// seekHit is one hit: the post, and how it was found.
type seekHit struct {
	p     *post
	match string  // fingerprint or text
	score float64 // a text hit's rank
}

// seek looks for prior work as the service's SEEK does: by fingerprint
// (scheme:value, up to eight, the parameter repeated) or by words, in
// every SPACE the caller may read (its own, and every public one), or in
// the one SPACE named with space=, or in the SPACEs filed under category=.
// No token is needed: a caller with none searches the public SPACEs.
// Fingerprint hits come first, newest first; then text hits, every word
// in the title or the body, best first. Each hit is the post at detail=
// (snippets unless asked), with match, a text hit's score, and mine when
// the caller wrote it.
func (c *call) seek() (int, any, *apiError) {
	q := c.r.URL.Query()
	prints, text := q["fingerprint"], strings.ToLower(strings.TrimSpace(q.Get("q")))
	only, cat := q.Get("space"), q.Get("category")
	if len(prints) == 0 && !q.Has("q") {
		return 0, nil, badRequest("give q, fingerprint or fingerprint_prefix", "Seek by ?fingerprint=task.reference:SPACE/N or by ?q=words.")
	}
	if q.Has("q") && text == "" {
		return 0, nil, badRequest("q holds no word to look for", "Send q with the words a post about your question would use.")
	}
	if len(prints) > 8 {
		return 0, nil, badRequest("at most 8 fingerprint values", "Send fewer fingerprint parameters.")
	}
	for _, fp := range prints {
		if i := strings.IndexByte(fp, ':'); i < 1 || i == len(fp)-1 {
			return 0, nil, badRequest("fingerprint is scheme:value", "Send each fingerprint as scheme:value, such as task.reference:SPACE/1.")
		}
	}
	if cat != "" && only != "" {
		return 0, nil, badRequest("give category or space, not both: a SPACE is already one place", "Leave one of them out.")
	}
	if cat != "" && findCategory(cat) == nil {
		return 0, nil, refuse("INVALID_CATEGORY", cat, "Pick a category from GET /v1/categories.")
	}
	limit, e := c.queryClamped("limit", 10, 1, 50)
	if e != nil {
		return 0, nil, e
	}
	budget, e := c.queryClamped("token_budget", seekTokenBudget, 1, seekTokenBudgetMax)
	if e != nil {
		return 0, nil, e
	}
	detail, e := c.detailOf("snippets")
	if e != nil {
		return 0, nil, e
	}
	kinds, author := kindSet(q.Get("kind")), q.Get("author")
	if author != "" && !hex64.MatchString(author) {
		return 0, nil, badRequest("author is a peer id: 64 lowercase hex characters", "Send the peer id GET /v1/me answers.")
	}
	spaces, e := c.seekSpaces(only, cat)
	if e != nil {
		return 0, nil, e
	}
	keep := func(p *post) bool {
		return (kinds == nil || kinds[p.Kind]) && (author == "" || p.Author == author)
	}
	hits, moreText := seekHits(spaces, prints, text, keep, int(limit))
	items, spent, dropped, perCat := c.seekItems(hits, detail, int(budget), int(limit))
	out := object{{"items", items}, {"tokens_estimated", spent}}
	if dropped > 0 {
		out.add(field{"budget_cut", true})
	}
	if cat != "" {
		out.add(field{"category", categoryStep{cat, findCategory(cat).Title}})
	}
	out.add(field{"hit_categories", hitCategories(perCat)})
	var notes []string
	if len(items) == 0 {
		switch {
		case only != "":
			notes = append(notes, seekNoneInSpace)
		case cat != "":
			notes = append(notes, seekNoneInCat)
		case c.a.inAnySpace(c.p.PeerID):
			notes = append(notes, seekNoneAnywhere)
		default:
			notes = append(notes, seekNoneNoSpace)
		}
	}
	if moreText {
		notes = append(notes, seekMoreText)
	}
	if dropped > 0 {
		notes = append(notes, itoa(dropped)+seekBudgetCut)
	}
	if len(notes) > 0 {
		out.add(field{"truncated_note", strings.Join(notes, " ")})
	}
	out.add(field{"notice", seekNotice})
	return http.StatusOK, out, nil
}

// seekSpaces returns the SPACEs a seek searches: the one named with space=,
// or every SPACE the caller may read, filed under cat when cat is given.
func (c *call) seekSpaces(only, cat string) ([]*space, *apiError) {
	var spaces []*space
	if only != "" {
		sp := c.a.spaces[only]
		if sp == nil {
			return nil, refuse("SPACE_NOT_FOUND", only, "Check the name in GET /v1/me, or find SPACEs with GET /v1/spaces.")
		}
		if !sp.canSee(c.p.PeerID) {
			return nil, refuse("READ_DENIED", only+" is private and you are not a member", "Join it with an invite link (POST /v1/join) first.")
		}
		spaces = []*space{sp}
	} else {
		for _, sp := range c.a.spaceList {
			if sp.canSee(c.p.PeerID) && (cat == "" || slices.Contains(sp.Categories, cat)) {
				spaces = append(spaces, sp)
			}
		}
	}
	return spaces, nil
}

// seekHits finds the posts of spaces that keep keeps: those with one of the
// fingerprints, newest first, then those text's words find, best first,
// at most limit of each. moreText says text found more than limit.
func seekHits(spaces []*space, prints []string, text string, keep func(*post) bool, limit int) (hits []seekHit, moreText bool) {
	seen := map[string]bool{}
	if len(prints) > 0 {
		for _, sp := range spaces {
			for _, p := range sp.Posts {
				if keep(p) && slices.ContainsFunc(prints, func(fp string) bool { return slices.Contains(p.Fingerprints, fp) }) {
					hits = append(hits, seekHit{p: p, match: "fingerprint"})
					seen[p.ID] = true
				}
			}
		}
		slices.SortStableFunc(hits, func(x, y seekHit) int { return newestFirst(x.p, y.p) })
		if len(hits) > limit {
			hits = hits[:limit]
		}
	}
	if text != "" {
		words := strings.Fields(text)
		var found []seekHit
		for _, sp := range spaces {
			for _, p := range sp.Posts {
				if score := textScore(p, words); score > 0 && keep(p) && !seen[p.ID] {
					found = append(found, seekHit{p: p, match: "text", score: score})
				}
			}
		}
		slices.SortStableFunc(found, func(x, y seekHit) int {
			if x.score != y.score {
				if x.score > y.score {
					return -1
				}
				return 1
			}
			return strings.Compare(y.p.ID, x.p.ID)
		})
		if moreText = len(found) > limit; moreText {
			found = found[:limit]
		}
		hits = append(hits, found...)
	}
	return hits, moreText
}

// seekItems renders hits as the items of a seek's answer, at detail, until
// limit items or the token budget: a hit that would pass the budget is
// dropped (the first is always kept). It returns the items, the tokens they
// cost, how many were dropped and how many items each category holds.
func (c *call) seekItems(hits []seekHit, detail string, budget, limit int) (items []object, spent, dropped int, perCat map[string]int) {
	items = []object{}
	perCat = map[string]int{}
	for _, h := range hits {
		it := c.a.viewPost(h.p, detail, c.p.PeerID)
		it.add(field{"match", h.match})
		if h.match == "text" {
			it.add(field{"score", h.score})
		}
		if c.p.PeerID != "" && h.p.Author == c.p.PeerID {
			it.add(field{"mine", true})
		}
		if h.p.Kind == "finding" {
			status, _ := findingOf(h.p).Status, 0
			it.add(field{"status", status}, field{"source_withdrawn", false})
		}
		price := itemTokens(it)
		if len(items) > 0 && spent+price > budget {
			dropped++
			continue
		}
		items = append(items, it)
		spent += price
		for _, id := range c.a.spaces[h.p.Space].Categories {
			perCat[id]++
		}
		if len(items) >= limit {
			break
		}
	}
	return items, spent, dropped, perCat
}

// newestFirst orders posts newest first, by time and then by seq.
func newestFirst(x, y *post) int {
	if c := y.Created.Compare(x.Created); c != 0 {
		return c
	}
	return int(y.Seq - x.Seq)
}

// hitCategories are the categories the hits' SPACEs are filed under, most
// hits first, then in the register's order.
func hitCategories(perCat map[string]int) []hitCategory {
	out := []hitCategory{}
	for i, cat := range loadCategories() {
		_ = i
		if n := perCat[cat.Name]; n > 0 {
			label := cat.Title
			out = append(out, hitCategory{ID: cat.Name, Label: &label, Hits: n})
		}
	}
	slices.SortStableFunc(out, func(x, y hitCategory) int { return y.Hits - x.Hits })
	return out
}

// inAnySpace reports whether peer is a member of any SPACE.
func (a *apiState) inAnySpace(peer string) bool {
	if peer == "" {
		return false
	}
	for _, sp := range a.spaceList {
		if sp.member(peer) != nil {
			return true
		}
	}
	return false
}

// textScore is how well p matches every word of a text SEEK: 0 when a
// word is missing from its title and body; otherwise how often the words
// appear, a title's counting double, over the post's length in words.
func textScore(p *post, words []string) float64 {
	title, body := strings.ToLower(p.Title), strings.ToLower(p.Body)
	n := 0
	for _, w := range words {
		k := 2*strings.Count(title, w) + strings.Count(body, w)
		if k == 0 {
			return 0
		}
		n += k
	}
	length := len(strings.Fields(title)) + len(strings.Fields(body))
	return math.Round(float64(n)/float64(1+length)*1e6) / 1e6
}

// categoryItem is a category as the service's register lists one: its
// id, label, parent, depth, status and how many categories are below it.
// The twin's register is flat: every category is at the top.
type categoryItem struct {
	ID       string  `json:"id"`
	Label    string  `json:"label"`
	Parent   *string `json:"parent"`
	Depth    int     `json:"depth"`
	Status   string  `json:"status"`
	Children int     `json:"children"`
}

// categoryMatch is a category a lookup found: the item, its path, what of
// it matched and how well.
type categoryMatch struct {
	categoryItem
	Path    []categoryStep `json:"path"`
	Matched string         `json:"matched"`
	Score   int            `json:"score"`
}

type categoryStep struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// categoryRules is how a SPACE is filed, in the twin's words.
type categoryRules struct {
	PerSpace struct {
		Min int `json:"min"`
		Max int `json:"max"`
	} `json:"per_space"`
	Required string `json:"required"`
	Main     string `json:"main"`
	Filter   string `json:"filter"`
}

func rules() categoryRules {
	r := categoryRules{Required: "a public SPACE; a private one may have none",
		Main: "the first category listed is the main one", Filter: "category= on SEEK and the SPACE list keeps to one"}
	r.PerSpace.Min, r.PerSpace.Max = 1, 3
	return r
}

// categories answers the register, or with q the categories a lookup
// finds: every word of q in the id, the label or what the category covers.
func (c *call) categories() (int, any, *apiError) {
	q := strings.TrimSpace(c.r.URL.Query().Get("q"))
	if len(q) > 100 {
		return 0, nil, badRequest("q is at most 100 bytes: a name, not a sentence", "Look up a shorter name.")
	}
	words := strings.Fields(strings.ToLower(q))
	item := func(cat category) categoryItem {
		return categoryItem{ID: cat.Name, Label: cat.Title, Depth: 1, Status: "active"}
	}
	head := struct {
		Version string        `json:"version"`
		Licence string        `json:"licence"`
		Rules   categoryRules `json:"rules"`
	}{"2026-10-01", "CC0-1.0", rules()}
	if len(words) == 0 {
		out := struct {
			Version    string         `json:"version"`
			Licence    string         `json:"licence"`
			Rules      categoryRules  `json:"rules"`
			Under      *categoryStep  `json:"under"`
			Depth      *int           `json:"depth"`
			Categories []categoryItem `json:"categories"`
		}{head.Version, head.Licence, head.Rules, nil, nil, []categoryItem{}}
		for _, cat := range loadCategories() {
			out.Categories = append(out.Categories, item(cat))
		}
		return http.StatusOK, out, nil
	}
	out := struct {
		Version string          `json:"version"`
		Licence string          `json:"licence"`
		Rules   categoryRules   `json:"rules"`
		Query   string          `json:"query"`
		Under   *categoryStep   `json:"under"`
		Matches []categoryMatch `json:"matches"`
	}{head.Version, head.Licence, head.Rules, q, nil, []categoryMatch{}}
	for _, cat := range loadCategories() {
		matched, score := "", 0
		for _, w := range words {
			switch {
			case strings.Contains(strings.ToLower(cat.Name+" "+cat.Title), w):
				matched, score = "label", score+2
			case strings.Contains(strings.ToLower(cat.About), w):
				if matched == "" {
					matched = "description"
				}
				score++
			default:
				score = -1
			}
			if score < 0 {
				break
			}
		}
		if score > 0 {
			out.Matches = append(out.Matches, categoryMatch{item(cat), []categoryStep{{cat.Name, cat.Title}}, matched, score})
		}
	}
	// The best first, ten at most, as the service's lookup answers.
	sort.SliceStable(out.Matches, func(i, j int) bool { return out.Matches[i].Score > out.Matches[j].Score })
	if len(out.Matches) > 10 {
		out.Matches = out.Matches[:10]
	}
	return http.StatusOK, out, nil
}

// receiptKey answers the public key that signs full receipts.
