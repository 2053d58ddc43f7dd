package twin

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// Versions: a document's versions, proposed, made current, declined.

// versionView is a version as the service's versions list shows one: its
// post, author and time, its summary (the version's title), a snippet of
// its text, its state, the version it was made against, and the go or
// veto that decided it.
type versionView struct {
	PostID           string        `json:"post_id"`
	Seq              string        `json:"seq"`
	Author           string        `json:"author"`
	PostedAt         string        `json:"posted_at"`
	Summary          *string       `json:"summary"`
	Snippet          string        `json:"snippet"`
	SnippetTruncated bool          `json:"snippet_truncated"`
	Signed           bool          `json:"signed"`
	State            string        `json:"state"`
	Edits            *string       `json:"edits"`
	SameTextAs       *string       `json:"same_text_as"`
	Decision         *decisionView `json:"decision"`
	WaitsFor         *waitsFor     `json:"waits_for,omitempty"`
}

// decisionView is the go or veto that decided a version.
type decisionView struct {
	PostID string  `json:"post_id"`
	Seq    string  `json:"seq"`
	Kind   string  `json:"kind"`
	Author *string `json:"author"`
	Reason *string `json:"reason"`
	At     *string `json:"at"`
}

// waitsFor is what decides a waiting version: a decider's go or veto,
// and, where the SPACE asks writers to confirm its document's versions,
// the confirmations given and required (jsonb's key order: decision
// first).
type waitsFor struct {
	Decision      []string       `json:"decision"`
	Confirmations *confirmations `json:"confirmations,omitempty"`
}

// confirmations is how many writers' go a waiting version has and needs.
type confirmations struct {
	Given    []string `json:"given"`
	Required int      `json:"required"`
}

// waitsForOf is what version post p, still waiting in sp, waits for: the
// deciders always; the confirmations only where sp asks for some and the
// version sets no stage (a stage waits for a decider). The twin records no
// writer's confirmation, so none is given.
func (a *apiState) waitsForOf(sp *space, p *post) *waitsFor {
	w := &waitsFor{Decision: deciderRoles}
	if sp.DocumentConfirmations > 0 && !setsStage(p) {
		w.Confirmations = &confirmations{Given: []string{}, Required: sp.DocumentConfirmations}
	}
	return w
}

// setsStage reports whether post p's data names a stage (data.stage.word).
func setsStage(p *post) bool {
	if p == nil {
		return false
	}
	var d struct {
		Stage *struct {
			Word string `json:"word"`
		} `json:"stage"`
	}
	return json.Unmarshal(p.Data, &d) == nil && d.Stage != nil && d.Stage.Word != ""
}

// deciderRoles are the roles whose go or veto decides a work space's
// document, in the service's order.
var deciderRoles = []string{"owner", "admin", "coordinator"}

// deciders is who decides a SPACE's document, and whether peer does.
type deciders struct {
	Roles []string `json:"roles"`
	You   bool     `json:"you"`
}

func (a *apiState) deciders(sp *space, peer string) deciders {
	m := sp.member(peer)
	return deciders{Roles: deciderRoles, You: m != nil && roleRank[m.Role] >= roleRank["coordinator"]}
}

func (a *apiState) viewVersion(sp *space, v *version) versionView {
	out := versionView{PostID: v.PostID, Seq: "0", Author: v.Author, PostedAt: jsTime(v.Created), Summary: optString(v.Title), State: v.State}
	if p := a.posts[v.PostID]; p != nil {
		out.Seq = strconv.FormatInt(p.Seq, 10)
		if prev := a.posts[p.Supersedes]; prev != nil {
			s := strconv.FormatInt(prev.Seq, 10)
			out.Edits = &s
		}
	}
	out.Snippet, out.SnippetTruncated = v.Body, false
	if r := []rune(v.Body); len(r) > snippetChars {
		out.Snippet, out.SnippetTruncated = string(r[:snippetChars]), true
	}
	if d := a.posts[v.Decision]; d != nil {
		reason, at := optString(d.Body), jsTime(d.Created)
		out.Decision = &decisionView{PostID: d.ID, Seq: strconv.FormatInt(d.Seq, 10), Kind: d.Kind, Author: &d.Author, Reason: reason, At: &at}
	}
	if v.State == "pending" {
		out.WaitsFor = a.waitsForOf(sp, a.posts[v.PostID])
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
	// A version is a post of kind version, as the service keeps it: an
	// owner's or admin's is current at once, a writer's waits.
	c.writePost(sp, &postInput{Kind: "version", Title: in.Title, Body: in.Body}, postPlan{}, false)
	return http.StatusCreated, c.a.viewVersion(sp, sp.Versions[len(sp.Versions)-1]), nil
}

func (a *apiState) makeCurrent(sp *space, v *version, now time.Time) {
	if old := sp.version(sp.Current); old != nil {
		old.State = "replaced"
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
	case "", "pending", "current", "replaced", "declined":
	default:
		return 0, nil, badRequest("state must be pending, current, replaced or declined, not "+quote(state)+".",
			"Leave state out for every version.")
	}
	// Newest first, as the service lists them.
	var items []versionView
	for i := len(sp.Versions) - 1; i >= 0; i-- {
		if v := sp.Versions[i]; state == "" || v.State == state {
			items = append(items, c.a.viewVersion(sp, v))
		}
	}
	out := struct {
		Space    string   `json:"space"`
		Deciders deciders `json:"deciders"`
		page
	}{sp.Name, c.a.deciders(sp, c.p.PeerID), newPage(items, "", false)}
	return http.StatusOK, out, nil
}
