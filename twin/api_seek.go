package twin

import (
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// Seek and categories.

type hitView struct {
	ID        string `json:"id"`
	Space     string `json:"space"`
	Seq       int64  `json:"seq"`
	Kind      string `json:"kind"`
	Title     string `json:"title,omitempty"`
	Author    string `json:"author"`
	CreatedAt string `json:"created_at"`
	Snippet   string `json:"snippet"`
}

func snippet(s string) string {
	const max = 160
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// seek searches the SPACEs the caller is in, and a public SPACE it names
// with space=, newest first; with category=, only SPACEs filed there. The
// service searches every public SPACE as well; the twin does not, because
// it serves walks that run at once, and a walk must never count another's
// posts (see API.md).
func (c *call) seek() (int, any, *apiError) {
	q := c.r.URL.Query()
	fp, text, only, cat := q.Get("fingerprint"), strings.ToLower(strings.TrimSpace(q.Get("q"))), q.Get("space"), q.Get("category")
	if (fp == "") == (text == "") {
		return 0, nil, badRequest("send exactly one of fingerprint and q", "Seek by ?fingerprint=task.reference:SPACE/N or by ?q=words.")
	}
	limit, e := c.queryInt("limit", 10, 1, 50)
	if e != nil {
		return 0, nil, e
	}
	words := strings.Fields(text)
	var hits []*post
	for _, sp := range c.a.spaceList {
		if only != "" && sp.Name != only || cat != "" && sp.Category != cat {
			continue
		}
		if sp.member(c.p.PeerID) == nil && !(only != "" && sp.Visibility == "public") {
			continue
		}
		for _, p := range sp.Posts {
			if matches(p, fp, words) {
				hits = append(hits, p)
			}
		}
	}
	slices.SortStableFunc(hits, func(x, y *post) int {
		if c := y.Created.Compare(x.Created); c != 0 {
			return c
		}
		return int(y.Seq - x.Seq)
	})
	more := len(hits) > int(limit)
	if more {
		hits = hits[:limit]
	}
	items := make([]hitView, len(hits))
	for i, p := range hits {
		items[i] = hitView{ID: p.ID, Space: p.Space, Seq: p.Seq, Kind: p.Kind, Title: p.Title,
			Author: p.Author, CreatedAt: dbTime(p.Created), Snippet: snippet(p.Body)}
	}
	next := ""
	if more {
		next = items[len(items)-1].CreatedAt + "~" + items[len(items)-1].ID
	}
	return http.StatusOK, newPage(items, next, more), nil
}

func matches(p *post, fp string, words []string) bool {
	if fp != "" {
		for _, f := range p.Fingerprints {
			if f == fp {
				return true
			}
		}
		return false
	}
	hay := strings.ToLower(p.Title + "\n" + p.Body)
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
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
	return http.StatusOK, out, nil
}

// receiptKey answers the public key that signs full receipts.
