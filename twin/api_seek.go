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

func (c *call) categories() (int, any, *apiError) {
	words := strings.Fields(strings.ToLower(c.r.URL.Query().Get("q")))
	limit, e := c.queryInt("limit", 50, 1, 100)
	if e != nil {
		return 0, nil, e
	}
	out := struct {
		Categories []category `json:"categories"`
	}{[]category{}}
	for _, cat := range loadCategories() {
		hay := strings.ToLower(cat.Name + " " + cat.Title + " " + cat.About)
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok && int64(len(out.Categories)) < limit {
			out.Categories = append(out.Categories, cat)
		}
	}
	return http.StatusOK, out, nil
}

// receiptKey answers the public key that signs full receipts.
