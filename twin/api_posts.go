package twin

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

func itoa(n int) string { return strconv.Itoa(n) }

func secondsDur(n int64) time.Duration { return time.Duration(n) * time.Second }

// postKinds are the kinds a post may have: the service's twenty-one
// (KIND_GROUPS in its src/surface/vocabulary.ts).
var postKinds = map[string]bool{}

// untitledKinds are the kinds that post without a title: the coordination
// group. Every other kind needs one (TITLE_REQUIRED).
var untitledKinds = map[string]bool{"ack": true, "hold": true, "go": true, "veto": true, "stop": true}

func init() {
	for _, k := range strings.Fields(kindList) {
		postKinds[k] = true
	}
}

// kindList is every kind, in the service's order.
const kindList = "obs result fail warn question workaround progress decision finding offer beacon handoff dossier resetwatch ack hold go veto stop summary version"

// postView is a post as the service shows one: its ids and position
// first (post_id, space, seq as a decimal string, kind, author,
// posted_at), then its words and what it names. The twin keeps the task
// a post answered and the version it decided as well.
type postView struct {
	PostID           string          `json:"post_id"`
	Space            string          `json:"space"`
	Seq              string          `json:"seq"`
	Kind             string          `json:"kind"`
	Author           string          `json:"author"`
	PostedAt         string          `json:"posted_at"`
	Title            *string         `json:"title"`
	To               *[]string       `json:"to"`
	ReplyTo          *string         `json:"reply_to"`
	Fingerprints     []fingerprint   `json:"fingerprints"`
	FingerprintCount int             `json:"fingerprint_count"`
	Signed           bool            `json:"signed"`
	Body             *string         `json:"body,omitempty"`
	Data             json.RawMessage `json:"data,omitempty"`
	RunID            *string         `json:"run_id,omitempty"`
	Supersedes       *string         `json:"supersedes,omitempty"`
	Task             int             `json:"task,omitempty"`
	Version          int             `json:"version,omitempty"`
	RestsOn          []string        `json:"rests_on,omitempty"`
}

// fingerprint is a post's fingerprint as the service shows it.
type fingerprint struct {
	Scheme string `json:"scheme"`
	Value  string `json:"value"`
}

func viewPost(p *post, full bool) postView {
	v := postView{PostID: p.ID, Space: p.Space, Seq: strconv.FormatInt(p.Seq, 10), Kind: p.Kind, Author: p.Author,
		PostedAt: dbTime(p.Created), Title: optString(p.Title), ReplyTo: optString(p.ReplyTo), Fingerprints: []fingerprint{},
		Task: p.Task, Version: p.Version, RestsOn: p.RestsOn}
	for _, f := range p.Fingerprints {
		scheme, value, _ := strings.Cut(f, ":")
		v.Fingerprints = append(v.Fingerprints, fingerprint{scheme, value})
	}
	v.FingerprintCount = len(v.Fingerprints)
	if full {
		body := p.Body
		v.Body, v.Data, v.RunID, v.Supersedes = &body, p.Data, optString(p.RunID), optString(p.Supersedes)
	}
	return v
}

// canSee reports whether peer may read posts of sp.
func (sp *space) canSee(peer string) bool {
	return sp.Visibility == "public" || sp.member(peer) != nil
}

// visiblePost returns the post with id if the caller may read it.
func (c *call) visiblePost(id string) *post {
	p := c.a.posts[id]
	if p == nil || !c.a.spaces[p.Space].canSee(c.p.PeerID) {
		return nil
	}
	return p
}

// Posts.

func checkText(field, v string, min, max int) *apiError {
	n := utf8.RuneCountInString(v)
	if !utf8.ValidString(v) {
		return badRequest(field+" is not valid UTF-8.", "Send text in UTF-8.")
	}
	if n < min || n > max {
		if min > 0 && n == 0 {
			return badRequest(field+" is required.", "Send "+field+" and try again.")
		}
		return badRequest(field+" must be at most "+itoa(max)+" characters; it has "+itoa(n)+".", "Shorten "+field+".")
	}
	return nil
}

type postAnswer struct {
	PostID    string         `json:"post_id"`
	Space     string         `json:"space"`
	Seq       int64          `json:"seq"`
	Kind      string         `json:"kind"`
	CreatedAt string         `json:"created_at"`
	Task      *taskStateView `json:"task,omitempty"`
	Version   *versionState  `json:"version,omitempty"`
	Oracle    *oracleState   `json:"oracle,omitempty"`
	Receipt   any            `json:"receipt"`
}

// oracleState is where a version post stands: current, or pending until
// an admin's go or no.
type oracleState struct {
	State string `json:"state"`
}

type taskStateView struct {
	Number int    `json:"number"`
	State  string `json:"state"`
	DoneAt string `json:"done_at,omitempty"`
}

type versionState struct {
	Number int    `json:"number"`
	State  string `json:"state"`
}

// postInput is a post as sent, read and checked field by field.
type postInput struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Body  string `json:"body"`
	Task  *struct {
		Number int `json:"number"`
	} `json:"task"`
	Version        int             `json:"version"`
	RestsOn        []string        `json:"rests_on"`
	Fingerprints   json.RawMessage `json:"fingerprints"`
	RunID          string          `json:"run_id"`
	Data           json.RawMessage `json:"data"`
	IdempotencyKey string          `json:"idempotency_key"`
	ReplyTo        string          `json:"reply_to"`
	Supersedes     string          `json:"supersedes"`

	fingerprints []string // read from Fingerprints
	data         []byte   // Data, compacted
}

// decision reports whether the post decides a pending version.
func (in *postInput) decision() bool { return in.Kind == "go" || in.Kind == "veto" }

// postPlan is what a post will change besides itself: the task it marks,
// the version it decides, what it rests on.
type postPlan struct {
	task    *task
	decides *version
	rests   []string
}

// postCreate posts in a space: the input is read and checked, what it
// names is found, then the post is written, its task and version moved, its
// receipt made and its mail sent.
func (c *call) postCreate() (int, any, *apiError) {
	sp, e := c.spaceFor("writer")
	if e != nil {
		return 0, nil, e
	}
	receipt := c.r.URL.Query().Get("receipt")
	if receipt != "" && receipt != "slim" && receipt != "full" {
		return 0, nil, badRequest("receipt must be slim or full, not "+quote(receipt)+".", "Leave receipt out for a slim receipt.")
	}
	var in postInput
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	if e := readPostInput(&in); e != nil {
		return 0, nil, e
	}
	idem := ""
	if in.IdempotencyKey != "" {
		idem = c.p.PeerID + "\x00" + in.IdempotencyKey
		if prev, ok := sp.Idem[idem]; ok {
			return http.StatusCreated, prev, nil // a repeat answers the same post
		}
	}
	plan, e := c.planPost(sp, &in)
	if e != nil {
		return 0, nil, e
	}
	out := c.writePost(sp, &in, plan, receipt == "full")
	if idem != "" {
		if sp.Idem == nil {
			sp.Idem = map[string]postAnswer{}
		}
		sp.Idem[idem] = out
	}
	return http.StatusCreated, out, nil
}

// readPostInput checks the fields that need nothing but the input.
func readPostInput(in *postInput) *apiError {
	if !postKinds[in.Kind] {
		return refuse("INVALID_KIND", in.Kind, "Send one of the kinds GET /reference?section=kinds lists; obs fits when nothing else does.")
	}
	if !untitledKinds[in.Kind] && strings.TrimSpace(in.Title) == "" {
		return refuse("TITLE_REQUIRED", in.Kind, "Send title: one line with the result or the state, not the topic. Nothing was posted.")
	}
	if e := checkText("idempotency_key", in.IdempotencyKey, 0, 200); e != nil {
		return e
	}
	minBody := 1
	if untitledKinds[in.Kind] {
		minBody = 0
	}
	if e := checkText("body", in.Body, minBody, 64_000); e != nil {
		return e
	}
	if e := checkText("title", in.Title, 0, 200); e != nil {
		return e
	}
	if e := checkText("run_id", in.RunID, 0, 100); e != nil {
		return e
	}
	fingerprints, e := readFingerprints(in.Fingerprints)
	if e != nil {
		return e
	}
	if len(fingerprints) > 20 || len(in.RestsOn) > 50 {
		return badRequest("At most 20 fingerprints and 50 rests_on ids are kept.", "Send fewer.")
	}
	in.fingerprints = fingerprints
	if d := bytes.TrimSpace(in.Data); len(d) > 0 && string(d) != "null" {
		if d[0] != '{' {
			return badRequest("data must be an object.", "Send data as a JSON object, such as {\"sources\": [post ids]}, or leave it out.")
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, d); err != nil || buf.Len() > 64_000 {
			return badRequest("data must be an object of at most 64,000 bytes.", "Send less data.")
		}
		in.data = buf.Bytes()
		// A finding's data.sources are what it rests on.
		var src struct {
			Sources []string `json:"sources"`
		}
		if in.Kind == "finding" && len(in.RestsOn) == 0 && json.Unmarshal(in.data, &src) == nil {
			in.RestsOn = src.Sources
		}
	}
	return nil
}

// planPost finds what the post names in its space, and refuses what the
// space's state does not allow.
func (c *call) planPost(sp *space, in *postInput) (postPlan, *apiError) {
	var plan postPlan
	var e *apiError
	if plan.task, e = c.postTask(sp, in); e != nil {
		return plan, e
	}
	if plan.decides, e = c.postVersion(sp, in); e != nil {
		return plan, e
	}
	if in.Kind != "version" && in.Supersedes != "" {
		return plan, badRequest("supersedes is for a version post only.", "Leave supersedes out, or send kind version.")
	}
	if !in.decision() && in.ReplyTo != "" && c.visiblePost(in.ReplyTo) == nil {
		return plan, refuse("POST_NOT_FOUND", "reply_to names "+quote(in.ReplyTo)+", which is no post you can read.", "Name posts by their post_id.")
	}
	for _, id := range in.RestsOn {
		if c.visiblePost(id) == nil {
			return plan, refuse("POST_NOT_FOUND", "rests_on names "+quote(id)+", which is no post you can read.", "Name posts by their id.")
		}
		plan.rests = append(plan.rests, id)
	}
	return plan, nil
}

// postTask is the task a post names, if it may name it.
func (c *call) postTask(sp *space, in *postInput) (*task, *apiError) {
	if in.Task == nil {
		return nil, nil
	}
	tk := sp.task(in.Task.Number)
	if tk == nil {
		return nil, refuse("TASK_NOT_FOUND", quote(sp.Name)+" has no task "+itoa(in.Task.Number)+".",
			"Read the numbers with GET /v1/spaces/"+sp.Name+"/tasks.")
	}
	if in.Kind == "result" {
		if tk.State == "done" {
			return nil, refuse("TASK_NOT_OPEN", "done", "Take another with POST /v1/spaces/"+sp.Name+"/tasks/next.")
		}
		if tk.State == "claimed" && tk.Assignee != c.p.PeerID {
			return nil, refuse("TASK_NOT_OPEN", "claimed", "Take another with POST /v1/spaces/"+sp.Name+"/tasks/next.")
		}
	}
	return tk, nil
}

// postVersion is the pending version a go or no decides; for a version
// post, it checks the version it supersedes.
func (c *call) postVersion(sp *space, in *postInput) (*version, *apiError) {
	role := sp.member(c.p.PeerID).Role
	switch {
	case in.decision():
		if roleRank[role] < roleRank["coordinator"] {
			return nil, refuse("CONTROL_DENIED", "a "+in.Kind+" on a version needs a coordinator, an admin or the owner; you hold "+role,
				"Ask one of them to decide.")
		}
		var ver *version
		if in.ReplyTo != "" {
			if ver = sp.versionByPost(in.ReplyTo); ver == nil {
				return nil, refuse("REPLY_TARGET_NOT_FOUND", "reply_to names "+quote(in.ReplyTo)+", which is no version posted in "+quote(sp.Name)+".",
					"Send reply_to: a post_id from GET /v1/spaces/"+sp.Name+"/versions?state=pending.")
			}
		} else if ver = sp.version(in.Version); ver == nil {
			return nil, refuse("REPLY_TARGET_NOT_FOUND", quote(sp.Name)+" has no version "+itoa(in.Version)+".",
				"Send reply_to: the proposal's post_id from GET /v1/spaces/"+sp.Name+"/versions?state=pending.")
		}
		if ver.State != "pending" {
			return nil, refuse("PROPOSAL_DECIDED", "Version "+itoa(ver.Number)+" is "+ver.State+", not pending.", "Only a pending version takes a go or veto.")
		}
		return ver, nil
	case in.Version != 0:
		return nil, badRequest("version is for a go or veto post only", "Leave version out, or send kind go or veto.")
	case in.Kind == "version":
		if e := needDocument(sp); e != nil {
			return nil, e
		}
		if in.Supersedes != "" {
			old := sp.versionByPost(in.Supersedes)
			if old == nil {
				return nil, refuse("VERSION_CHANGED", "supersedes names "+quote(in.Supersedes)+", which is no version posted in "+quote(sp.Name)+".",
					"Send supersedes: the post_id of the current version, from GET /v1/spaces/"+sp.Name+"/document.")
			}
			if old.State != "current" {
				return nil, refuse("VERSION_CHANGED", "Version "+itoa(old.Number)+" is "+old.State+", not current.",
					"Read the current version with GET /v1/spaces/"+sp.Name+"/document and supersede that one.")
			}
		}
	}
	return nil, nil
}

// writePost writes a checked post and answers it.
func (c *call) writePost(sp *space, in *postInput, plan postPlan, fullReceipt bool) postAnswer {
	a := c.a
	now := a.now()
	sp.Seq++
	p := &post{ID: newPostID(), Space: sp.Name, Seq: sp.Seq, Kind: in.Kind, Title: in.Title, Body: in.Body,
		Author: c.p.PeerID, Created: now, Version: in.Version, RestsOn: plan.rests, Fingerprints: in.fingerprints, RunID: in.RunID,
		Data: in.data, ReplyTo: in.ReplyTo, Supersedes: in.Supersedes}
	out := postAnswer{PostID: p.ID, Space: sp.Name, Seq: p.Seq, Kind: p.Kind, CreatedAt: dbTime(now)}
	if tk := plan.task; tk != nil {
		p.Task = tk.Number
		if fp := taskFingerprint(sp.Name, tk.Number); !slices.Contains(p.Fingerprints, fp) {
			p.Fingerprints = append([]string{fp}, p.Fingerprints...)
		}
		if in.Kind == "result" {
			tk.State, tk.Done, tk.Result = "done", now, p.ID
			if tk.Assignee == "" {
				tk.Assignee, tk.Accepted = c.p.PeerID, now
			}
		}
		out.Task = &taskStateView{Number: tk.Number, State: tk.State, DoneAt: optTime(tk.Done)}
	}
	pending := false
	if in.Kind == "version" {
		v := a.postedVersion(sp, p, c.p.PeerID, now)
		pending = v.State == "pending"
		out.Oracle = &oracleState{State: v.State}
	}
	if ver := plan.decides; ver != nil {
		if in.Kind == "go" {
			a.makeCurrent(sp, ver, now)
		} else {
			ver.State, ver.Decided = "declined", now
		}
		ver.Decision = p.ID
		p.Version = ver.Number
		out.Version = &versionState{Number: ver.Number, State: ver.State}
	}
	out.Receipt = a.sign(p, fullReceipt)
	sp.Posts = append(sp.Posts, p)
	a.posts[p.ID] = p
	if p.Kind != "dossier" && !pending {
		a.mailPost(sp, p, in.decision(), now)
	}
	return out
}

// postedVersion makes a version post a version of the document: current at
// once for an admin or owner, pending (with mail to them) for a writer.
func (a *apiState) postedVersion(sp *space, p *post, author string, now time.Time) *version {
	v := &version{Number: len(sp.Versions) + 1, Title: p.Title, Body: p.Body, Author: author, State: "pending", Created: now, PostID: p.ID}
	sp.Versions = append(sp.Versions, v)
	p.Version = v.Number
	if roleRank[sp.member(author).Role] >= roleRank["admin"] {
		a.makeCurrent(sp, v, now)
	} else {
		a.toAdmins(sp, mailItem{Kind: "version", Space: sp.Name, Post: p.ID, From: author, Version: v.Number, At: now,
			Summary: "Version " + itoa(v.Number) + " of the document waits for your go or veto."})
	}
	return v
}

// mailPost tells the space's other members of a post.
func (a *apiState) mailPost(sp *space, p *post, decision bool, now time.Time) {
	summary := "New " + p.Kind + " in " + sp.Name
	if p.Title != "" {
		summary += ": " + p.Title
	}
	kind := "post"
	if decision {
		kind = "decision"
	}
	for _, peer := range sp.MemberOrder {
		if peer != p.Author && sp.member(peer) != nil {
			a.deliver(peer, mailItem{Kind: kind, Space: sp.Name, Post: p.ID, From: p.Author, Task: p.Task,
				Version: p.Version, Summary: summary + ".", At: now})
		}
	}
}

// readFingerprints reads a post's fingerprints: objects {scheme, value},
// as the service takes them, or "scheme:value" strings. Each is kept as
// "scheme:value", the form seek matches.
func readFingerprints(raw json.RawMessage) ([]string, *apiError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, badRequest("fingerprints must be an array of {scheme, value} objects.",
			"Send fingerprints: [{\"scheme\": \"task.reference\", \"value\": \"SPACE/N\"}].")
	}
	var out []string
	for i, it := range items {
		field := "fingerprints[" + itoa(i) + "]"
		var s string
		if json.Unmarshal(it, &s) != nil {
			var o struct {
				Scheme *string `json:"scheme"`
				Value  *string `json:"value"`
			}
			if json.Unmarshal(it, &o) != nil || o.Scheme == nil || o.Value == nil {
				return nil, badRequest(field+" must be an object {scheme, value} of two strings.",
					"Send {\"scheme\": \"task.reference\", \"value\": \"SPACE/N\"}.")
			}
			if *o.Scheme == "" || strings.Contains(*o.Scheme, ":") {
				return nil, badRequest(field+".scheme must be a name without a colon, such as task.reference.", "Correct the scheme.")
			}
			s = *o.Scheme + ":" + *o.Value
		}
		if e := checkText(field, s, 1, 300); e != nil {
			return nil, e
		}
		out = append(out, s)
	}
	return out, nil
}
func (c *call) postList() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	after, e := c.queryInt("after", 0, 0, 1<<53-1)
	if e != nil {
		return 0, nil, e
	}
	limit, e := c.queryInt("limit", 20, 1, 100)
	if e != nil {
		return 0, nil, e
	}
	kind := c.r.URL.Query().Get("kind")
	var items []postView
	more, last := false, after
	for _, p := range sp.Posts {
		if p.Seq <= after || kind != "" && p.Kind != kind {
			continue
		}
		if int64(len(items)) == limit {
			more = true
			break
		}
		items = append(items, viewPost(p, true))
		last = p.Seq
	}
	next := strconv.FormatInt(last, 10)
	out := struct {
		Space     string `json:"space"`
		NextAfter string `json:"next_after"`
		page
	}{sp.Name, next, newPage(items, "", more)}
	return http.StatusOK, out, nil
}

func (c *call) standing() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	q := c.r.URL.Query()
	kind, author, detail := q.Get("kind"), q.Get("author"), q.Get("detail")
	if kind != "" && !postKinds[kind] {
		return 0, nil, refuse("INVALID_KIND", kind, "Leave kind out for every kind.")
	}
	if detail != "" && detail != "full" && detail != "slim" {
		return 0, nil, badRequest("detail is slim or full", "Leave detail out for slim.")
	}
	limit, e := c.queryInt("limit", 10, 1, 50)
	if e != nil {
		return 0, nil, e
	}
	var items []postView
	more := false
	for i := len(sp.Posts) - 1; i >= 0; i-- {
		p := sp.Posts[i]
		if kind != "" && p.Kind != kind || author != "" && p.Author != author {
			continue
		}
		if int64(len(items)) == limit {
			more = true
			break
		}
		items = append(items, viewPost(p, detail == "full"))
	}
	next := ""
	if more {
		next = items[len(items)-1].Seq
	}
	return http.StatusOK, spacePage{sp.Name, newPage(items, next, more)}, nil
}

// spacePage is a page of one SPACE's items, the SPACE named first.
type spacePage struct {
	Space string `json:"space"`
	page
}

type findingView struct {
	ID        string `json:"id"`
	Seq       int64  `json:"seq"`
	Title     string `json:"title,omitempty"`
	Author    string `json:"author"`
	CreatedAt string `json:"created_at"`
	RestsOn   int    `json:"rests_on"`
}

func (c *call) findings() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	var items []findingView
	for i := len(sp.Posts) - 1; i >= 0; i-- {
		if p := sp.Posts[i]; p.Kind == "finding" {
			items = append(items, findingView{ID: p.ID, Seq: p.Seq, Title: p.Title, Author: p.Author,
				CreatedAt: dbTime(p.Created), RestsOn: len(p.RestsOn)})
		}
	}
	return http.StatusOK, spacePage{sp.Name, newPage(items, "", false)}, nil
}

func postNotFound(id string) *apiError {
	return refuse("POST_NOT_FOUND", "No post "+quote(id)+" is visible to you.", "Check the id; posts of private spaces are read by their members only.")
}

func (c *call) postGet() (int, any, *apiError) {
	id := c.r.PathValue("id")
	p := c.visiblePost(id)
	if p == nil {
		return 0, nil, postNotFound(id)
	}
	return http.StatusOK, viewPost(p, true), nil
}

func (c *call) finding() (int, any, *apiError) {
	id := c.r.PathValue("id")
	p := c.visiblePost(id)
	if p == nil {
		return 0, nil, postNotFound(id)
	}
	if p.Kind != "finding" {
		return 0, nil, refuse("POST_NOT_FOUND", "Post "+quote(id)+" is a "+p.Kind+", not a finding.", "Ask GET /v1/spaces/"+p.Space+"/findings for the findings.")
	}
	out := struct {
		Finding postView   `json:"finding"`
		RestsOn []postView `json:"rests_on"`
	}{viewPost(p, true), []postView{}}
	for _, rid := range p.RestsOn {
		if r := c.visiblePost(rid); r != nil {
			out.RestsOn = append(out.RestsOn, viewPost(r, false))
		}
	}
	return http.StatusOK, out, nil
}

func (c *call) postsByID() (int, any, *apiError) {
	raw := c.r.URL.Query().Get("ids")
	if raw == "" {
		return 0, nil, badRequest("ids is required: post ids separated by commas", "Send ?ids=ID,ID.")
	}
	ids := strings.Split(raw, ",")
	if len(ids) > 50 {
		return 0, nil, badRequest("at most 50 ids are read at once", "Split the ids over several requests.")
	}
	var items []postView
	var missing []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if p := c.visiblePost(id); p != nil {
			items = append(items, viewPost(p, true))
		} else {
			missing = append(missing, id)
		}
	}
	out := struct {
		page
		Missing []string `json:"missing,omitempty"`
	}{newPage(items, "", false), missing}
	return http.StatusOK, out, nil
}
