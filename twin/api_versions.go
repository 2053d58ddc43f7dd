package twin

import (
	"net/http"
	"time"
)

// Versions: a document's versions, proposed, made current, declined.

type versionView struct {
	Space     string `json:"space"`
	Number    int    `json:"number"`
	PostID    string `json:"post_id,omitempty"`
	State     string `json:"state"`
	Title     string `json:"title,omitempty"`
	Body      string `json:"body,omitempty"`
	Author    string `json:"author"`
	CreatedAt string `json:"created_at"`
	DecidedAt string `json:"decided_at,omitempty"`
	Decision  string `json:"decision,omitempty"`
}

func viewVersion(sp *space, v *version, full bool) versionView {
	out := versionView{Space: sp.Name, Number: v.Number, PostID: v.PostID, State: v.State, Title: v.Title, Author: v.Author,
		CreatedAt: dbTime(v.Created), DecidedAt: optTime(v.Decided), Decision: v.Decision}
	if full {
		out.Body = v.Body
	}
	return out
}

func (c *call) versionPropose() (int, any, *apiError) {
	sp, e := c.spaceFor("writer")
	if e != nil {
		return 0, nil, e
	}
	if e := needDocument(sp); e != nil {
		return 0, nil, e
	}
	var in struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	if e := checkText("body", in.Body, 1, 200_000); e != nil {
		return 0, nil, e
	}
	if e := checkText("title", in.Title, 0, 200); e != nil {
		return 0, nil, e
	}
	a := c.a
	now := a.now()
	v := &version{Number: len(sp.Versions) + 1, Title: in.Title, Body: in.Body, Author: c.p.PeerID, State: "pending", Created: now}
	sp.Versions = append(sp.Versions, v)
	if roleRank[sp.member(c.p.PeerID).Role] >= roleRank["admin"] {
		// An owner's or admin's version is current at once.
		a.makeCurrent(sp, v, now)
	} else {
		a.toAdmins(sp, mailItem{Kind: "version", Space: sp.Name, From: c.p.PeerID, Version: v.Number, At: now,
			Summary: "Version " + itoa(v.Number) + " of the document waits for your go or veto."})
	}
	return http.StatusCreated, viewVersion(sp, v, false), nil
}

func (a *apiState) makeCurrent(sp *space, v *version, now time.Time) {
	if old := sp.version(sp.Current); old != nil {
		old.State = "superseded"
	}
	v.State, v.Decided = "current", now
	sp.Current = v.Number
}

func (c *call) versionList() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	if e := needDocument(sp); e != nil {
		return 0, nil, e
	}
	state := c.r.URL.Query().Get("state")
	switch state {
	case "", "pending", "current", "superseded", "declined":
	default:
		return 0, nil, badRequest("state must be pending, current, superseded or declined, not "+quote(state)+".",
			"Leave state out for every version.")
	}
	// Newest first, as the service lists them.
	var items []versionView
	for i := len(sp.Versions) - 1; i >= 0; i-- {
		if v := sp.Versions[i]; state == "" || v.State == state {
			items = append(items, viewVersion(sp, v, true))
		}
	}
	return http.StatusOK, spacePage{sp.Name, newPage(items, "", false)}, nil
}
