package twin

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
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

// fingerprint is a post's fingerprint as the service shows it.
type fingerprint struct {
	Scheme string `json:"scheme"`
	Value  string `json:"value"`
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

// postAnswer is what a post answers, as the service's posts route does: the
// receipt its database writes (a jsonb object, so its keys come shortest
// first, then in byte order), the service's signed receipt after it, then
// the SPACE's name, what the post costs its readers, and the task it marked.
// Replayed is set on an answer handed back again for the same
// idempotency_key.
type postAnswer struct {
	head    object // the database's receipt, in jsonb order
	receipt any
	space   string
	cost    readCost
	task    *taskShort
}

// MarshalJSON writes the answer in the service's order.
func (pa postAnswer) MarshalJSON() ([]byte, error) {
	o := append(object{}, pa.head...)
	o.add(field{"receipt", pa.receipt}, field{"space", pa.space}, field{"read_cost", pa.cost})
	if pa.task != nil {
		o.add(field{"task", pa.task})
	}
	return o.MarshalJSON()
}

// replayed is the answer as a repeat of the same post gets it.
func (pa postAnswer) replayed() postAnswer {
	head := append(object{}, pa.head...)
	for i := range head {
		if head[i].k == "replayed" {
			head[i].v = true
		}
	}
	pa.head = head
	return pa
}

// readCost is what a member pays to read a post, in tokens, at each level.
type readCost struct {
	Headline int `json:"headline"`
	Snippet  int `json:"snippet"`
	Full     int `json:"full"`
}

// oracleState is what a post did to its SPACE's document: a version is
// current or pending, and a pending one says what it waits for; a go or a
// veto decided a version.
type oracleState struct {
	State    string    `json:"state,omitempty"`
	WaitsFor *waitsFor `json:"waits_for,omitempty"`
	Decided  string    `json:"decided,omitempty"`
	Version  string    `json:"version,omitempty"`
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
			return http.StatusOK, prev.replayed(), nil // a repeat answers the same post
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
		if e := checkFinding(in.Kind, in.data); e != nil {
			return e
		}
		// A finding's data.sources are what it rests on.
		var src struct {
			Sources []string `json:"sources"`
		}
		if in.Kind == "finding" && len(in.RestsOn) == 0 && json.Unmarshal(in.data, &src) == nil {
			in.RestsOn = src.Sources
		}
	}
	if in.Kind == "finding" && in.data == nil {
		return checkFinding(in.Kind, []byte("{}"))
	}
	return nil
}

// findingStatuses and findingConfidences are the words a finding's data
// takes, the service's (FINDING_STATUSES and FINDING_CONFIDENCES in its
// vocabulary, less withdrawn, which only a retraction sets).
var (
	findingStatuses    = []string{"proposed", "supported", "disputed"}
	findingConfidences = []string{"low", "medium", "high"}
)

// checkFinding holds a finding's data to the service's rule: a claim, a
// status and a confidence, each of its words.
func checkFinding(kind string, data []byte) *apiError {
	if kind != "finding" {
		return nil
	}
	var d struct {
		Claim      *string `json:"claim"`
		Status     string  `json:"status"`
		Confidence string  `json:"confidence"`
	}
	json.Unmarshal(data, &d)
	if d.Claim == nil || strings.TrimSpace(*d.Claim) == "" || !slices.Contains(findingStatuses, d.Status) || !slices.Contains(findingConfidences, d.Confidence) {
		return badRequest("a finding carries data.claim, data.status (proposed, supported or disputed) and data.confidence (low, medium or high)",
			"Send data: {claim: one line you establish, status: proposed, confidence: medium, sources: [post ids]}.")
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
	p := &post{ID: newPostID(), Space: sp.Name, Seq: sp.Seq, Revision: sp.revision(), Kind: in.Kind, Title: in.Title, Body: in.Body,
		Author: c.p.PeerID, Created: now, Version: in.Version, RestsOn: plan.rests, Fingerprints: in.fingerprints, RunID: in.RunID,
		Data: in.data, ReplyTo: in.ReplyTo, Supersedes: in.Supersedes}
	out := postAnswer{space: sp.Name}
	var oracle *oracleState
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
		out.task = &taskShort{Number: tk.Number, TaskID: tk.ID, State: tk.State}
	}
	pending := false
	if in.Kind == "version" {
		v := a.postedVersion(sp, p, c.p.PeerID, now)
		pending = v.State == "pending"
		oracle = &oracleState{State: v.State}
		if pending {
			oracle.WaitsFor = a.waitsForOf(sp, p)
		}
	}
	if ver := plan.decides; ver != nil {
		decided := "approved"
		if in.Kind == "go" {
			a.makeCurrent(sp, ver, now)
		} else {
			ver.State, ver.Decided, decided = "declined", now, "declined"
		}
		ver.Decision = p.ID
		p.Version = ver.Number
		oracle = &oracleState{Decided: decided, Version: ver.PostID}
	}
	out.receipt = a.sign(p, fullReceipt)
	sp.Posts = append(sp.Posts, p)
	a.posts[p.ID] = p
	p.Chain = a.chainHash(sp, p)
	// The database's receipt, its keys in jsonb's order.
	out.head = object{{"seq", strconv.FormatInt(p.Seq, 10)}}
	if oracle != nil {
		out.head.add(field{"oracle", oracle})
	}
	out.head.add(field{"sealed", false}, field{"signed", false}, field{"post_id", p.ID}, field{"replayed", false},
		field{"space_id", sp.ID}, field{"object_id", objectID(p)}, field{"posted_at", dbTime(now)}, field{"chain_hash", p.Chain})
	out.cost = a.readCost(p)
	if p.Kind != "dossier" && !pending {
		a.mailPost(sp, p, in.decision(), now)
	}
	return out
}

// chainHash links p to the post before it in sp: the SHA-256 of that
// post's link and p's object id, as hex.
func (a *apiState) chainHash(sp *space, p *post) string {
	prev := ""
	if n := len(sp.Posts); n > 1 {
		prev = sp.Posts[n-2].Chain
	}
	sum := sha256.Sum256([]byte(prev + objectID(p).(string)))
	return hex.EncodeToString(sum[:])
}

// readCost is what p costs a member to read: as a headline, as a snippet
// and whole.
func (a *apiState) readCost(p *post) readCost {
	member := p.Author
	return readCost{Headline: itemTokens(a.headline(p)), Snippet: itemTokens(a.viewPost(p, "snippets", member)),
		Full: itemTokens(a.viewPost(p, "full", member))}
}

// headline is a post as a page of headlines shows it: its seq, kind, its
// author by a short id, its title (or its first 80 characters) and what
// opening it whole costs.
func (a *apiState) headline(p *post) object { return a.headlineBy(p, p.Author[:8]) }

// headlineBy is p's headline with its author named by: the seq of what it
// answers (re) or replaces in its SPACE, then its title or start.
func (a *apiState) headlineBy(p *post, by string) object {
	o := object{{"seq", strconv.FormatInt(p.Seq, 10)}, {"kind", p.Kind}, {"by", by}}
	if q := a.posts[p.ReplyTo]; q != nil && q.Space == p.Space {
		o.add(field{"re", strconv.FormatInt(q.Seq, 10)})
	}
	if q := a.posts[p.Supersedes]; q != nil && q.Space == p.Space {
		o.add(field{"replaces", strconv.FormatInt(q.Seq, 10)})
	}
	if p.Title != "" {
		o.add(field{"title", p.Title})
	} else if start := []rune(p.Body); len(start) > 0 {
		if len(start) > 80 {
			start = start[:80]
		}
		o.add(field{"start", string(start)})
	}
	o.add(field{"open", itemTokens(a.viewPost(p, "full", p.Author))})
	return o
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
	limit, e := c.queryInt("limit", 50, 1, 200)
	if e != nil {
		return 0, nil, e
	}
	detail, e := c.detailOf("headlines", true)
	if e != nil {
		return 0, nil, e
	}
	kinds := kindSet(c.r.URL.Query().Get("kind"))
	var posts []*post
	more, last := false, after
	for _, p := range sp.Posts {
		if p.Seq <= after || kinds != nil && !kinds[p.Kind] {
			continue
		}
		if int64(len(posts)) == limit {
			more = true
			break
		}
		posts = append(posts, p)
		last = p.Seq
	}
	items, authors := c.a.postPage(posts, detail, c.p.PeerID)
	out := object{{"items", items}}
	if authors != nil {
		out.add(field{"authors", authors})
	}
	spent := 0
	for _, it := range items {
		spent += itemTokens(it)
	}
	out.add(field{"next_after", strconv.FormatInt(last, 10)}, field{"has_more", more}, field{"head_seq", strconv.FormatInt(sp.Seq, 10)},
		field{"tokens_estimated", spent}, field{"notice", peerNotice})
	return http.StatusOK, out, nil
}

// kindSet reads kind= (kinds separated by commas) as a set, or nil for
// every kind; an empty list names none, so it is no filter.
func kindSet(raw string) map[string]bool {
	var set map[string]bool
	for _, k := range strings.Split(raw, ",") {
		if k != "" {
			if set == nil {
				set = map[string]bool{}
			}
			set[k] = true
		}
	}
	return set
}

func (c *call) standing() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	q := c.r.URL.Query()
	kinds, author := kindSet(q.Get("kind")), q.Get("author")
	for k := range kinds {
		if !postKinds[k] {
			return 0, nil, refuse("INVALID_KIND", k, "Leave kind out for every kind.")
		}
	}
	if author != "" && !hex64.MatchString(author) {
		return 0, nil, badRequest("author is a peer id: 64 lowercase hex characters", "Send the peer id GET /v1/me answers.")
	}
	detail, e := c.detailOf("headlines", true)
	if e != nil {
		return 0, nil, e
	}
	limit, e := c.queryInt("limit", 50, 1, 200)
	if e != nil {
		return 0, nil, e
	}
	var posts []*post
	more := false
	for i := len(sp.Posts) - 1; i >= 0; i-- {
		p := sp.Posts[i]
		if kinds != nil && !kinds[p.Kind] || author != "" && p.Author != author {
			continue
		}
		if int64(len(posts)) == limit {
			more = true
			break
		}
		posts = append(posts, p)
	}
	items, authors := c.a.postPage(posts, detail, c.p.PeerID)
	pg := newPage(items, "", false)
	if more {
		next := strconv.FormatInt(posts[len(posts)-1].Seq, 10)
		pg.NextBefore, pg.HasMore = &next, true
	}
	out := object{{"space", sp.Name}, {"items", items}}
	if authors != nil {
		out.add(field{"authors", authors})
	}
	out.add(field{"next_before", pg.NextBefore}, field{"has_more", pg.HasMore}, field{"tokens_estimated", pg.TokensEstimated}, field{"notice", pg.Notice})
	return http.StatusOK, out, nil
}

// spacePage is a page of one SPACE's items, the SPACE named first.
type spacePage struct {
	Space string `json:"space"`
	page
}

// findingItem is a finding as the service's findings list shows one: its
// number in its SPACE, the post, its claim, status and confidence, the
// posts it rests on, how many posts cite it, whether a source moved, what
// replaced or withdrew it, and the task it is the result of.
type findingItem struct {
	Number          int               `json:"number"`
	PostID          string            `json:"post_id"`
	Seq             string            `json:"seq"`
	Author          string            `json:"author"`
	PostedAt        string            `json:"posted_at"`
	Claim           *string           `json:"claim"`
	Status          string            `json:"status"`
	Confidence      string            `json:"confidence"`
	Sources         []string          `json:"sources"`
	CitedBy         int               `json:"cited_by"`
	SourceWithdrawn bool              `json:"source_withdrawn"`
	Supersedes      *string           `json:"supersedes"`
	SupersededBy    *string           `json:"superseded_by"`
	RetractedBy     *string           `json:"retracted_by"`
	Task            *findingTaskState `json:"task"`
}

// findingTaskState is the task a finding is the result of, as it stands.
type findingTaskState struct {
	Number      int      `json:"number"`
	State       string   `json:"state"`
	ConfirmedBy []string `json:"confirmed_by"`
	RejectedBy  []string `json:"rejected_by"`
}

// findings lists a SPACE's findings, newest first, as the service does.
func (c *call) findings() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	number := 0
	var items []findingItem
	for _, p := range sp.Posts {
		if p.Kind != "finding" {
			continue
		}
		number++
		f := findingOf(p)
		it := findingItem{Number: number, PostID: p.ID, Seq: strconv.FormatInt(p.Seq, 10), Author: p.Author, PostedAt: jsTime(p.Created),
			Claim: f.Claim, Status: f.Status, Confidence: f.Confidence, Sources: append([]string{}, p.RestsOn...)}
		for _, q := range sp.Posts {
			if slices.Contains(q.RestsOn, p.ID) {
				it.CitedBy++
			}
		}
		if tk := sp.task(p.Task); tk != nil {
			it.Task = &findingTaskState{Number: tk.Number, State: tk.State, ConfirmedBy: []string{}, RejectedBy: []string{}}
		}
		items = append([]findingItem{it}, items...)
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
	proof := c.r.URL.Query().Get("proof")
	if proof != "" && proof != "true" && proof != "false" {
		return 0, nil, badRequest("proof is true or false", "Leave proof out for the post with its proof.")
	}
	// One post read whole, as the service answers it: the post at full,
	// its proof unless proof=false, then how many replies it has, how many
	// documents cite it, the posts that replaced or withdrew it, and the
	// notice.
	o := c.a.viewPost(p, "full", c.p.PeerID)
	if proof != "false" {
		o.add(field{"proof", c.a.proofOf(p, c.p.PeerID)})
	}
	replies, replacedBy := 0, []string{}
	for _, q := range c.a.spaces[p.Space].Posts {
		if q.ReplyTo == p.ID {
			replies++
		}
		if q.Supersedes == p.ID && q.Kind != "version" {
			replacedBy = append(replacedBy, q.ID)
		}
	}
	o.add(field{"reply_count", replies}, field{"linked_from", 0}, field{"superseded_by", replacedBy},
		field{"retracted_by", []string{}}, field{"notice", peerNotice})
	return http.StatusOK, o, nil
}

// proofOf is what a reader needs to check p without trusting the twin: its
// object id, its canonical bytes, its signature (null: the twin's posts
// are not signed by their authors) and its link in the SPACE's chain. A
// reader outside the SPACE is not shown the private part or the revision.
func (a *apiState) proofOf(p *post, reader string) object {
	sp := a.spaces[p.Space]
	outside := sp.member(reader) == nil
	prev := any(nil)
	for i, q := range sp.Posts {
		if q == p && i > 0 {
			prev = sp.Posts[i-1].Chain
		}
	}
	o := object{{"object_id", objectID(p)}, {"canonical", base64.RawURLEncoding.EncodeToString(p.canonical)}}
	if !outside {
		o.add(field{"private", nil})
	}
	o.add(field{"signature", nil})
	chain := object{{"seq", strconv.FormatInt(p.Seq, 10)}, {"admission", nil}}
	if !outside {
		chain.add(field{"admitted_revision", strconv.FormatInt(p.Revision, 10)}, field{"admitted_control_hash", nil})
	}
	chain.add(field{"previous_hash", prev}, field{"chain_hash", p.Chain})
	o.add(field{"chain", chain})
	return o
}

// finding answers one post's sources, what cites it, and its finding, as
// the service's does for any post it may read: the post's space, id, seq
// and kind, the finding (null for a post that is none), the posts it rests
// on, whether one moved, and the posts of its SPACE that cite it, newest
// first.
func (c *call) finding() (int, any, *apiError) {
	id := c.r.PathValue("id")
	p := c.visiblePost(id)
	if p == nil {
		return 0, nil, postNotFound(id)
	}
	sp := c.a.spaces[p.Space]
	type ref struct {
		PostID    string `json:"post_id"`
		Seq       string `json:"seq"`
		Kind      string `json:"kind"`
		Withdrawn *bool  `json:"withdrawn,omitempty"`
	}
	no := false
	sources, citing := []ref{}, []ref{}
	for _, rid := range p.RestsOn {
		if r := c.a.posts[rid]; r != nil && r.Space == p.Space {
			sources = append(sources, ref{r.ID, strconv.FormatInt(r.Seq, 10), r.Kind, &no})
		}
	}
	for i := len(sp.Posts) - 1; i >= 0; i-- {
		if q := sp.Posts[i]; slices.Contains(q.RestsOn, p.ID) {
			citing = append(citing, ref{PostID: q.ID, Seq: strconv.FormatInt(q.Seq, 10), Kind: q.Kind})
		}
	}
	var finding *findingItem
	if p.Kind == "finding" {
		number := 0
		for _, q := range sp.Posts {
			if q.Kind == "finding" {
				number++
			}
			if q == p {
				break
			}
		}
		f := findingOf(p)
		finding = &findingItem{Number: number, PostID: p.ID, Seq: strconv.FormatInt(p.Seq, 10), Author: p.Author, PostedAt: jsTime(p.Created),
			Claim: f.Claim, Status: f.Status, Confidence: f.Confidence, Sources: append([]string{}, p.RestsOn...), CitedBy: len(citing)}
		if tk := sp.task(p.Task); tk != nil {
			finding.Task = &findingTaskState{Number: tk.Number, State: tk.State, ConfirmedBy: []string{}, RejectedBy: []string{}}
		}
	}
	return http.StatusOK, object{{"space", p.Space}, {"post_id", p.ID}, {"seq", strconv.FormatInt(p.Seq, 10)}, {"kind", p.Kind},
		{"finding", finding}, {"sources", sources}, {"source_withdrawn", false}, {"cited_by", len(citing)}, {"citing", citing},
		{"notice", peerNotice}}, nil
}

// postsByID opens up to twenty posts by id, in the order asked, at
// detail= (full unless asked), as the service's batch read does: the ids
// it cannot read are named in not_found.
func (c *call) postsByID() (int, any, *apiError) {
	raw := c.r.URL.Query().Get("ids")
	if raw == "" {
		return 0, nil, badRequest("give ids: 1 to 20 post ids, comma separated", "Send ?ids=ID,ID.")
	}
	ids := strings.Split(raw, ",")
	if len(ids) > 20 {
		return 0, nil, badRequest("ids names at most 20 posts", "Split the ids over several requests.")
	}
	detail, e := c.detailOf("full")
	if e != nil {
		return 0, nil, e
	}
	items, notFound := []object{}, []string{}
	spent := 0
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if p := c.visiblePost(id); p != nil {
			it := c.a.viewPost(p, detail, c.p.PeerID)
			items = append(items, it)
			spent += itemTokens(it)
		} else {
			notFound = append(notFound, id)
		}
	}
	return http.StatusOK, object{{"items", items}, {"not_found", notFound}, {"not_included", []string{}},
		{"tokens_estimated", spent}, {"notice", peerNotice}}, nil
}
