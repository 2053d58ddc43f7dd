package twin

import (
	"bytes"
	"crypto/ed25519"
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

// postKinds are the kinds a post may have.
var postKinds = map[string]bool{"note": true, "question": true, "answer": true, "result": true,
	"finding": true, "check": true, "dossier": true, "version": true, "go": true, "no": true}

const kindList = "note, question, answer, result, finding, check, dossier, version, go or no"

type postView struct {
	ID           string          `json:"id"`
	Space        string          `json:"space"`
	Seq          int64           `json:"seq"`
	Kind         string          `json:"kind"`
	Title        string          `json:"title,omitempty"`
	Body         string          `json:"body,omitempty"`
	Author       string          `json:"author"`
	CreatedAt    string          `json:"created_at"`
	Task         int             `json:"task,omitempty"`
	Version      int             `json:"version,omitempty"`
	RestsOn      []string        `json:"rests_on,omitempty"`
	Fingerprints []string        `json:"fingerprints,omitempty"`
	RunID        string          `json:"run_id,omitempty"`
	Data         json.RawMessage `json:"data,omitempty"`
	ReplyTo      string          `json:"reply_to,omitempty"`
	Supersedes   string          `json:"supersedes,omitempty"`
}

func viewPost(p *post, full bool) postView {
	v := postView{ID: p.ID, Space: p.Space, Seq: p.Seq, Kind: p.Kind, Title: p.Title, Author: p.Author,
		CreatedAt: dbTime(p.Created), Task: p.Task, Version: p.Version, RestsOn: p.RestsOn,
		Fingerprints: p.Fingerprints, RunID: p.RunID, Data: p.Data, ReplyTo: p.ReplyTo, Supersedes: p.Supersedes}
	if full {
		v.Body = p.Body
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

func taskFingerprint(sp string, n int) string { return "task.reference:" + sp + "/" + itoa(n) }

type taskView struct {
	Number      int    `json:"number"`
	Title       string `json:"title"`
	Body        string `json:"body,omitempty"`
	State       string `json:"state"`
	Assignee    string `json:"assignee,omitempty"`
	Fingerprint string `json:"fingerprint"`
	CreatedAt   string `json:"created_at"`
	AcceptedAt  string `json:"accepted_at,omitempty"`
	DoneAt      string `json:"done_at,omitempty"`
	Result      string `json:"result,omitempty"`
}

func viewTask(sp *space, t *task, full bool) taskView {
	v := taskView{Number: t.Number, Title: t.Title, State: t.State, Assignee: t.Assignee,
		Fingerprint: taskFingerprint(sp.Name, t.Number), CreatedAt: dbTime(t.Created),
		AcceptedAt: optTime(t.Accepted), DoneAt: optTime(t.Done), Result: t.Result}
	if full {
		v.Body = t.Body
	}
	return v
}

func needWork(sp *space) *apiError {
	if sp.Kind != "work" {
		return conflict("NOT_A_WORK_SPACE", quote(sp.Name)+" is a general space; only a work space keeps a document and tasks.",
			"Use a space created with kind work.")
	}
	return nil
}

// Documents and versions.

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

func (c *call) documentGet() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	if e := needWork(sp); e != nil {
		return 0, nil, e
	}
	if sp.Current == 0 {
		return 0, nil, notFound("NO_DOCUMENT", quote(sp.Name)+" has no current document yet.",
			"An owner writes one with POST /v1/spaces/"+sp.Name+"/versions.")
	}
	pending := 0
	for _, v := range sp.Versions {
		if v.State == "pending" {
			pending++
		}
	}
	out := struct {
		versionView
		Pending int `json:"pending"`
	}{viewVersion(sp, sp.version(sp.Current), true), pending}
	return http.StatusOK, out, nil
}

func (c *call) versionPropose() (int, any, *apiError) {
	sp, e := c.spaceFor("writer")
	if e != nil {
		return 0, nil, e
	}
	if e := needWork(sp); e != nil {
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
			Summary: "Version " + itoa(v.Number) + " of the document waits for your go or no."})
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
	if e := needWork(sp); e != nil {
		return 0, nil, e
	}
	state := c.r.URL.Query().Get("state")
	switch state {
	case "", "pending", "current", "superseded", "declined":
	default:
		return 0, nil, badRequest("state must be pending, current, superseded or declined, not "+quote(state)+".",
			"Leave state out for every version.")
	}
	out := struct {
		Space    string        `json:"space"`
		Versions []versionView `json:"versions"`
	}{sp.Name, []versionView{}}
	for _, v := range sp.Versions {
		if state == "" || v.State == state {
			out.Versions = append(out.Versions, viewVersion(sp, v, true))
		}
	}
	return http.StatusOK, out, nil
}

// Tasks.

type taskInput struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

func (c *call) taskCreate() (int, any, *apiError) {
	sp, e := c.spaceFor("admin")
	if e != nil {
		return 0, nil, e
	}
	if e := needWork(sp); e != nil {
		return 0, nil, e
	}
	var in struct {
		taskInput
		Tasks []taskInput `json:"tasks"`
	}
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	list := in.Tasks
	if len(list) == 0 {
		list = []taskInput{in.taskInput}
	} else if in.Title != "" || in.Body != "" {
		return 0, nil, badRequest("Send either title and body for one task, or tasks for several, not both.",
			"Move the task into tasks, or drop tasks.")
	}
	if len(list) > 50 {
		return 0, nil, badRequest("At most 50 tasks are created at once.", "Send them in smaller batches.")
	}
	for i, t := range list {
		field := "title"
		if len(in.Tasks) > 0 {
			field = "tasks[" + itoa(i) + "].title"
		}
		if e := checkText(field, t.Title, 1, 200); e != nil {
			return 0, nil, e
		}
		if e := checkText(strings.TrimSuffix(field, "title")+"body", t.Body, 0, 20_000); e != nil {
			return 0, nil, e
		}
	}
	now := c.a.now()
	var views []taskView
	for _, t := range list {
		tk := &task{Number: len(sp.Tasks) + 1, Title: t.Title, Body: t.Body, State: "open", Created: now}
		sp.Tasks = append(sp.Tasks, tk)
		views = append(views, viewTask(sp, tk, true))
	}
	if len(in.Tasks) == 0 {
		return http.StatusCreated, map[string]taskView{"task": views[0]}, nil
	}
	return http.StatusCreated, map[string][]taskView{"tasks": views}, nil
}

func (c *call) taskList() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	if e := needWork(sp); e != nil {
		return 0, nil, e
	}
	state := c.r.URL.Query().Get("state")
	switch state {
	case "", "open", "accepted", "done":
	default:
		return 0, nil, badRequest("state must be open, accepted or done, not "+quote(state)+".", "Leave state out for every task.")
	}
	out := struct {
		Space  string     `json:"space"`
		Tasks  []taskView `json:"tasks"`
		Counts taskCounts `json:"counts"`
	}{Space: sp.Name, Tasks: []taskView{}}
	for _, t := range sp.Tasks {
		switch t.State {
		case "open":
			out.Counts.Open++
		case "accepted":
			out.Counts.Accepted++
		case "done":
			out.Counts.Done++
		}
		if state == "" || t.State == state {
			out.Tasks = append(out.Tasks, viewTask(sp, t, false))
		}
	}
	return http.StatusOK, out, nil
}

func (c *call) taskNext() (int, any, *apiError) {
	sp, e := c.spaceFor("writer")
	if e != nil {
		return 0, nil, e
	}
	if e := needWork(sp); e != nil {
		return 0, nil, e
	}
	out := struct {
		Space string    `json:"space"`
		Task  *taskView `json:"task"`
	}{Space: sp.Name}
	var pick *task
	for _, t := range sp.Tasks {
		if t.State == "accepted" && t.Assignee == c.p.PeerID {
			pick = t // the caller's own unfinished task comes back first
			break
		}
	}
	if pick == nil {
		for _, t := range sp.Tasks {
			if t.State == "open" {
				pick = t
				t.State, t.Assignee, t.Accepted = "accepted", c.p.PeerID, c.a.now()
				break
			}
		}
	}
	if pick != nil {
		v := viewTask(sp, pick, true)
		out.Task = &v
	}
	return http.StatusOK, out, nil
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

type slimReceipt struct {
	Digest string `json:"digest"`
}

type fullReceipt struct {
	Canonical   string `json:"canonical"`
	Signature   string `json:"signature"`
	SignerKeyID string `json:"signer_key_id"`
}

func (c *call) postCreate() (int, any, *apiError) {
	sp, e := c.spaceFor("writer")
	if e != nil {
		return 0, nil, e
	}
	receipt := c.r.URL.Query().Get("receipt")
	if receipt != "" && receipt != "slim" && receipt != "full" {
		return 0, nil, badRequest("receipt must be slim or full, not "+quote(receipt)+".", "Leave receipt out for a slim receipt.")
	}
	var in struct {
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
	}
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	if !postKinds[in.Kind] {
		return 0, nil, badRequest("kind must be "+kindList+", not "+quote(in.Kind)+".",
			"Read GET /reference?section=kinds and send one of them.")
	}
	if e := checkText("idempotency_key", in.IdempotencyKey, 0, 200); e != nil {
		return 0, nil, e
	}
	idem := ""
	if in.IdempotencyKey != "" {
		idem = c.p.PeerID + "\x00" + in.IdempotencyKey
		if prev, ok := sp.Idem[idem]; ok {
			return http.StatusCreated, prev, nil // a repeat answers the same post
		}
	}
	decision := in.Kind == "go" || in.Kind == "no"
	if !decision {
		if e := checkText("body", in.Body, 1, 64_000); e != nil {
			return 0, nil, e
		}
	} else if e := checkText("body", in.Body, 0, 64_000); e != nil {
		return 0, nil, e
	}
	if e := checkText("title", in.Title, 0, 200); e != nil {
		return 0, nil, e
	}
	if e := checkText("run_id", in.RunID, 0, 100); e != nil {
		return 0, nil, e
	}
	fingerprints, e := readFingerprints(in.Fingerprints)
	if e != nil {
		return 0, nil, e
	}
	if len(fingerprints) > 20 || len(in.RestsOn) > 50 {
		return 0, nil, badRequest("At most 20 fingerprints and 50 rests_on ids are kept.", "Send fewer.")
	}
	var data []byte
	if d := bytes.TrimSpace(in.Data); len(d) > 0 && string(d) != "null" {
		if d[0] != '{' {
			return 0, nil, badRequest("data must be an object.", "Send data as a JSON object, such as {\"sources\": [post ids]}, or leave it out.")
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, d); err != nil || buf.Len() > 64_000 {
			return 0, nil, badRequest("data must be an object of at most 64,000 bytes.", "Send less data.")
		}
		data = buf.Bytes()
		// A finding's data.sources are what it rests on.
		var d struct {
			Sources []string `json:"sources"`
		}
		if in.Kind == "finding" && len(in.RestsOn) == 0 && json.Unmarshal(data, &d) == nil {
			in.RestsOn = d.Sources
		}
	}
	a := c.a
	now := a.now()
	role := sp.member(c.p.PeerID).Role
	var tk *task
	var ver *version
	if in.Task != nil {
		if e := needWork(sp); e != nil {
			return 0, nil, e
		}
		if tk = sp.task(in.Task.Number); tk == nil {
			return 0, nil, notFound("TASK_NOT_FOUND", quote(sp.Name)+" has no task "+itoa(in.Task.Number)+".",
				"Read the numbers with GET /v1/spaces/"+sp.Name+"/tasks.")
		}
		if in.Kind == "result" {
			if tk.State == "done" {
				return 0, nil, conflict("TASK_DONE", "Task "+itoa(tk.Number)+" is done already.", "Take another with POST /v1/spaces/"+sp.Name+"/tasks/next.")
			}
			if tk.State == "accepted" && tk.Assignee != c.p.PeerID {
				return 0, nil, conflict("TASK_TAKEN", "Task "+itoa(tk.Number)+" was taken by another peer.", "Take another with POST /v1/spaces/"+sp.Name+"/tasks/next.")
			}
		}
	}
	switch {
	case decision:
		if roleRank[role] < roleRank["admin"] {
			return 0, nil, forbidden("ROLE_TOO_LOW", "A go or no needs the role admin or owner; you hold "+role+".", "Ask an owner to decide.")
		}
		if in.ReplyTo != "" {
			ver = sp.versionByPost(in.ReplyTo)
			if ver == nil {
				return 0, nil, notFound("VERSION_NOT_FOUND", "reply_to names "+quote(in.ReplyTo)+", which is no version posted in "+quote(sp.Name)+".",
					"Send reply_to: a post_id from GET /v1/spaces/"+sp.Name+"/versions?state=pending.")
			}
		} else if ver = sp.version(in.Version); ver == nil {
			return 0, nil, notFound("VERSION_NOT_FOUND", quote(sp.Name)+" has no version "+itoa(in.Version)+".",
				"Send reply_to: the proposal's post_id from GET /v1/spaces/"+sp.Name+"/versions?state=pending.")
		}
		if ver.State != "pending" {
			return 0, nil, conflict("VERSION_NOT_PENDING", "Version "+itoa(ver.Number)+" is "+ver.State+", not pending.", "Only a pending version takes a go or no.")
		}
	case in.Version != 0:
		return 0, nil, badRequest("version is for a go or no post only.", "Leave version out, or send kind go or no.")
	case in.Kind == "version":
		if e := needWork(sp); e != nil {
			return 0, nil, e
		}
		if in.Supersedes != "" {
			old := sp.versionByPost(in.Supersedes)
			if old == nil {
				return 0, nil, notFound("VERSION_NOT_FOUND", "supersedes names "+quote(in.Supersedes)+", which is no version posted in "+quote(sp.Name)+".",
					"Send supersedes: the post_id of the current version, from GET /v1/spaces/"+sp.Name+"/document.")
			}
			if old.State != "current" {
				return 0, nil, conflict("VERSION_NOT_CURRENT", "Version "+itoa(old.Number)+" is "+old.State+", not current.",
					"Read the current version with GET /v1/spaces/"+sp.Name+"/document and supersede that one.")
			}
		}
	}
	if in.Kind != "version" && in.Supersedes != "" {
		return 0, nil, badRequest("supersedes is for a version post only.", "Leave supersedes out, or send kind version.")
	}
	if !decision && in.ReplyTo != "" && c.visiblePost(in.ReplyTo) == nil {
		return 0, nil, notFound("POST_NOT_FOUND", "reply_to names "+quote(in.ReplyTo)+", which is no post you can read.", "Name posts by their post_id.")
	}
	var rests []string
	for _, id := range in.RestsOn {
		if c.visiblePost(id) == nil {
			return 0, nil, notFound("POST_NOT_FOUND", "rests_on names "+quote(id)+", which is no post you can read.", "Name posts by their id.")
		}
		rests = append(rests, id)
	}

	sp.Seq++
	p := &post{ID: "p_" + randHex(8), Space: sp.Name, Seq: sp.Seq, Kind: in.Kind, Title: in.Title, Body: in.Body,
		Author: c.p.PeerID, Created: now, Version: in.Version, RestsOn: rests, Fingerprints: fingerprints, RunID: in.RunID,
		Data: data, ReplyTo: in.ReplyTo, Supersedes: in.Supersedes}
	out := postAnswer{PostID: p.ID, Space: sp.Name, Seq: p.Seq, Kind: p.Kind, CreatedAt: dbTime(now)}
	if tk != nil {
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
	pendingVersion := false
	if in.Kind == "version" {
		v := &version{Number: len(sp.Versions) + 1, Title: in.Title, Body: in.Body, Author: c.p.PeerID, State: "pending", Created: now, PostID: p.ID}
		sp.Versions = append(sp.Versions, v)
		p.Version = v.Number
		if roleRank[role] >= roleRank["admin"] {
			// An owner's or admin's version is current at once.
			a.makeCurrent(sp, v, now)
		} else {
			pendingVersion = true
			a.toAdmins(sp, mailItem{Kind: "version", Space: sp.Name, Post: p.ID, From: c.p.PeerID, Version: v.Number, At: now,
				Summary: "Version " + itoa(v.Number) + " of the document waits for your go or no."})
		}
		out.Oracle = &oracleState{State: v.State}
	}
	if ver != nil {
		if in.Kind == "go" {
			a.makeCurrent(sp, ver, now)
		} else {
			ver.State, ver.Decided = "declined", now
		}
		ver.Decision = p.ID
		p.Version = ver.Number
		out.Version = &versionState{Number: ver.Number, State: ver.State}
	}
	p.canonical = canonicalPost(p)
	p.signature = ed25519.Sign(a.signKey, p.canonical)
	sp.Posts = append(sp.Posts, p)
	a.posts[p.ID] = p

	if receipt == "full" {
		out.Receipt = fullReceipt{Canonical: base64.RawURLEncoding.EncodeToString(p.canonical),
			Signature: hex.EncodeToString(p.signature), SignerKeyID: a.signerKeyID}
	} else {
		sum := sha256.Sum256(p.canonical)
		out.Receipt = slimReceipt{Digest: hex.EncodeToString(sum[:])}
	}

	if p.Kind != "dossier" && !pendingVersion {
		summary := "New " + p.Kind + " in " + sp.Name
		if p.Title != "" {
			summary += ": " + p.Title
		}
		kind := "post"
		if decision {
			kind = "decision"
		}
		for _, peer := range sp.MemberOrder {
			if peer != c.p.PeerID && sp.member(peer) != nil {
				a.deliver(peer, mailItem{Kind: kind, Space: sp.Name, Post: p.ID, From: c.p.PeerID, Task: p.Task,
					Version: p.Version, Summary: summary + ".", At: now})
			}
		}
	}
	if idem != "" {
		if sp.Idem == nil {
			sp.Idem = map[string]postAnswer{}
		}
		sp.Idem[idem] = out
	}
	return http.StatusCreated, out, nil
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

// canonicalPost is the post as canonical JSON: keys sorted, no spaces,
// times as the database writes them.
func canonicalPost(p *post) []byte {
	m := map[string]any{"id": p.ID, "space": p.Space, "seq": p.Seq, "kind": p.Kind, "title": p.Title,
		"body": p.Body, "author": p.Author, "created_at": dbTime(p.Created), "received_at": dbTime(p.Created)}
	if p.Task != 0 {
		m["task"] = p.Task
	}
	if p.Version != 0 {
		m["version"] = p.Version
	}
	if len(p.RestsOn) > 0 {
		m["rests_on"] = p.RestsOn
	}
	if len(p.Fingerprints) > 0 {
		m["fingerprints"] = p.Fingerprints
	}
	if p.RunID != "" {
		m["run_id"] = p.RunID
	}
	if p.Data != nil {
		// Decoded, so that its keys are sorted too; numbers kept as written.
		dec := json.NewDecoder(bytes.NewReader(p.Data))
		dec.UseNumber()
		var d any
		if dec.Decode(&d) == nil {
			m["data"] = d
		}
	}
	if p.ReplyTo != "" {
		m["reply_to"] = p.ReplyTo
	}
	if p.Supersedes != "" {
		m["supersedes"] = p.Supersedes
	}
	return marshal(m)
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
	out := struct {
		Space     string     `json:"space"`
		Posts     []postView `json:"posts"`
		NextAfter int64      `json:"next_after"`
		HasMore   bool       `json:"has_more"`
	}{Space: sp.Name, Posts: []postView{}, NextAfter: after}
	for _, p := range sp.Posts {
		if p.Seq <= after || kind != "" && p.Kind != kind {
			continue
		}
		if int64(len(out.Posts)) == limit {
			out.HasMore = true
			break
		}
		out.Posts = append(out.Posts, viewPost(p, true))
		out.NextAfter = p.Seq
	}
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
		return 0, nil, badRequest("kind must be "+kindList+", not "+quote(kind)+".", "Leave kind out for every kind.")
	}
	if detail != "" && detail != "full" && detail != "slim" {
		return 0, nil, badRequest("detail must be slim or full, not "+quote(detail)+".", "Leave detail out for slim.")
	}
	limit, e := c.queryInt("limit", 10, 1, 50)
	if e != nil {
		return 0, nil, e
	}
	out := struct {
		Space string     `json:"space"`
		Posts []postView `json:"posts"`
	}{sp.Name, []postView{}}
	for i := len(sp.Posts) - 1; i >= 0 && int64(len(out.Posts)) < limit; i-- {
		p := sp.Posts[i]
		if kind != "" && p.Kind != kind || author != "" && p.Author != author {
			continue
		}
		out.Posts = append(out.Posts, viewPost(p, detail == "full"))
	}
	return http.StatusOK, out, nil
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
	out := struct {
		Space    string        `json:"space"`
		Findings []findingView `json:"findings"`
	}{sp.Name, []findingView{}}
	for i := len(sp.Posts) - 1; i >= 0; i-- {
		if p := sp.Posts[i]; p.Kind == "finding" {
			out.Findings = append(out.Findings, findingView{ID: p.ID, Seq: p.Seq, Title: p.Title, Author: p.Author,
				CreatedAt: dbTime(p.Created), RestsOn: len(p.RestsOn)})
		}
	}
	return http.StatusOK, out, nil
}

func postNotFound(id string) *apiError {
	return notFound("POST_NOT_FOUND", "No post "+quote(id)+" is visible to you.", "Check the id; posts of private spaces are read by their members only.")
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
		return 0, nil, conflict("NOT_A_FINDING", "Post "+quote(id)+" is a "+p.Kind+", not a finding.", "Ask GET /v1/spaces/"+p.Space+"/findings for the findings.")
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
		return 0, nil, badRequest("ids is required: post ids separated by commas.", "Send ?ids=p_a,p_b.")
	}
	ids := strings.Split(raw, ",")
	if len(ids) > 50 {
		return 0, nil, badRequest("At most 50 ids are read at once.", "Split the ids over several requests.")
	}
	out := struct {
		Posts   []postView `json:"posts"`
		Missing []string   `json:"missing,omitempty"`
	}{Posts: []postView{}}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if p := c.visiblePost(id); p != nil {
			out.Posts = append(out.Posts, viewPost(p, true))
		} else {
			out.Missing = append(out.Missing, id)
		}
	}
	return http.StatusOK, out, nil
}

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

// seek searches the spaces the caller is a member of (and a public space
// named with space=), so walks that run at once never see each other.
func (c *call) seek() (int, any, *apiError) {
	q := c.r.URL.Query()
	fp, text, only, cat := q.Get("fingerprint"), strings.ToLower(strings.TrimSpace(q.Get("q"))), q.Get("space"), q.Get("category")
	if (fp == "") == (text == "") {
		return 0, nil, badRequest("Send exactly one of fingerprint and q.", "Seek by ?fingerprint=task.reference:SPACE/N or by ?q=words.")
	}
	limit, e := c.queryInt("limit", 10, 1, 50)
	if e != nil {
		return 0, nil, e
	}
	words := strings.Fields(text)
	out := struct {
		Hits  []hitView `json:"hits"`
		Count int       `json:"count"`
	}{Hits: []hitView{}}
	for _, sp := range c.a.spaceList {
		if only != "" && sp.Name != only || cat != "" && sp.Category != cat {
			continue
		}
		if sp.member(c.p.PeerID) == nil && !(only != "" && sp.Visibility == "public") {
			continue
		}
		for i := len(sp.Posts) - 1; i >= 0; i-- {
			p := sp.Posts[i]
			if !matches(p, fp, words) {
				continue
			}
			out.Count++
			if len(out.Hits) < int(limit) {
				out.Hits = append(out.Hits, hitView{ID: p.ID, Space: p.Space, Seq: p.Seq, Kind: p.Kind, Title: p.Title,
					Author: p.Author, CreatedAt: dbTime(p.Created), Snippet: snippet(p.Body)})
			}
		}
	}
	return http.StatusOK, out, nil
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
func (c *call) receiptKey() (int, any, *apiError) {
	return http.StatusOK, map[string]string{"signer_key_id": c.a.signerKeyID,
		"public_key": hex.EncodeToString(c.a.signKey.Public().(ed25519.PublicKey))}, nil
}
