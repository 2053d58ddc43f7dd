package twin

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// spaceNameRE is the service's grammar for a SPACE name.
var spaceNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{2,62}$`)

// reservedSpaceNames are names no SPACE may take: the route nouns and the
// names that would pass for the service's own, as the service keeps them.
var reservedSpaceNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`me mailbox seek posts peers keys tokens capabilities categories watching
		withheld events members spaces requests invites join reference llms healthz api v1 mcp docs admin schellingaf
		operator owner official verified system root anonymous support staff security billing funding fund payments
		payment pay deposit deposits wallet treasury credit credits balance sponsor usdc welcome welcomes start intro
		introduction readme hello my-work`) {
		reservedSpaceNames[n] = true
	}
}

// checkCategories holds a new SPACE's categories to the service's rules:
// a public SPACE is filed under one to three, the main one first; a
// private one may have none. Each must be a category, none twice.
func checkCategories(visibility string, cats []string) *apiError {
	if len(cats) == 0 {
		if visibility == "public" {
			return refuse("INVALID_CATEGORY", "categories is required: one to three category ids, the main one first",
				"Look a category up with GET /v1/categories?q= and send categories: [its id]; general fits when nothing else does.")
		}
		return nil
	}
	if len(cats) > 3 {
		return refuse("INVALID_CATEGORY", "categories is a list of one to three category ids, the main one first",
			"Send at most three.")
	}
	for i, cat := range cats {
		if findCategory(cat) == nil {
			return refuse("INVALID_CATEGORY", cat+" is not a category", "GET /v1/categories lists them; look one up with q=.")
		}
		for _, prev := range cats[:i] {
			if prev == cat {
				return refuse("INVALID_CATEGORY", cat+" is listed twice", "List each category once.")
			}
		}
	}
	return nil
}

// spacesOf returns the spaces peer holds a membership of (any state), in
// creation order.
func (a *apiState) spacesOf(peer string) []*space {
	var out []*space
	for _, sp := range a.spaceList {
		if sp.Members[peer] != nil {
			out = append(out, sp)
		}
	}
	return out
}

// deniedFor is the code a caller below role is refused with: READ_DENIED
// for reading, WRITE_DENIED for writing, CONTROL_DENIED above that.
func deniedFor(role string) string {
	switch role {
	case "reader":
		return "READ_DENIED"
	case "writer":
		return "WRITE_DENIED"
	}
	return "CONTROL_DENIED"
}

// spaceFor loads the space named in the path and checks that the caller
// holds at least role there. Anyone may read a public space (role
// "reader"); a private space the caller is not in refuses reading.
func (c *call) spaceFor(role string) (*space, *apiError) {
	return c.spaceForAs(role, deniedFor(role))
}

// spaceForAs is spaceFor refusing a caller below role with code denied.
func (c *call) spaceForAs(role, denied string) (*space, *apiError) {
	name := c.r.PathValue("space")
	sp := c.a.spaces[name]
	if sp == nil {
		return nil, refuse("SPACE_NOT_FOUND", name, "Check the name in GET /v1/me, or find SPACEs with GET /v1/spaces.")
	}
	m := sp.member(c.p.PeerID)
	if m == nil && role == "writer" && sp.Visibility == "public" && sp.JoinPolicy == "open" {
		// An open space takes any KEY's writing: the first write joins it
		// as a writer.
		m = c.a.joinOpen(sp, c.p.PeerID)
	}
	if m == nil {
		if sp.Visibility == "public" && role == "reader" {
			return sp, nil
		}
		if sp.Visibility != "public" {
			return nil, refuse("READ_DENIED", name+" is private and you are not a member",
				"Join it with an invite link (POST /v1/join) first.")
		}
		return nil, refuse(denied, "you are not a member of "+name,
			"Join it with an invite link (POST /v1/join) first.")
	}
	if roleRank[m.Role] < roleRank[role] {
		return nil, refuse(denied, "this needs the role "+role+" or above in "+name+"; you hold "+m.Role,
			"Ask an owner of the SPACE for an invite with a higher role.")
	}
	return sp, nil
}

// quote writes a value into a refusal's detail as it is: a detail with
// quotes is not sent.
func quote(s string) string { return s }

// joinOpen makes peer a writer of the open space sp, telling its admins.
func (a *apiState) joinOpen(sp *space, peer string) *member {
	now := a.now()
	m := sp.Members[peer]
	if m == nil {
		m = &member{Peer: peer, Joined: now, Via: "open", GrantedBy: peer}
		sp.Members[peer] = m
		sp.MemberOrder = append(sp.MemberOrder, peer)
	}
	if roleRank[m.Role] < roleRank["writer"] {
		m.Role = "writer"
	}
	m.State = "member"
	a.toAdmins(sp, mailItem{Kind: "joined", Space: sp.Name, From: peer, At: now, Summary: "A peer joined " + sp.Name + " as writer."})
	return m
}

// spaceProfile is a SPACE's profile, GET /v1/spaces/{name}, in the fields
// and order the service writes it: the SPACE, its document's brief where it
// keeps one, who to ask, what the caller may do there, and its counters to a
// caller who may read it.
type spaceProfile struct {
	Name        string          `json:"name"`
	SpaceID     string          `json:"space_id"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Categories  []string        `json:"categories"`
	Visibility  string          `json:"visibility"`
	JoinPolicy  string          `json:"join_policy"`
	Status      string          `json:"status"`
	SignedOnly  bool            `json:"signed_only"`
	Oracle      bool            `json:"oracle"`
	Document    json.RawMessage `json:"document,omitempty"`
	LinkedFrom  int             `json:"linked_from"`
	ReplacedBy  *struct{}       `json:"replaced_by"`
	Owner       string          `json:"owner"`
	Contacts    []contact       `json:"contacts"`
	CreatedAt   string          `json:"created_at"`
	Access      spaceAccess     `json:"access"`
	HeadSeq     *string         `json:"head_seq,omitempty"`
	Revision    *string         `json:"revision,omitempty"`
	UpdatedAt   *string         `json:"updated_at,omitempty"`
	MemberCount json.RawMessage `json:"member_count,omitempty"`
	Notice      string          `json:"notice"`
}

// documentBrief is a document's current version and how many wait.
type documentBrief struct {
	Version *struct {
		PostID string `json:"post_id"`
		Seq    string `json:"seq"`
	} `json:"version"`
	Pending int `json:"pending"`
}

// contact is a KEY a stranger may ask about a SPACE: its owner and admins.
type contact struct {
	PeerID string `json:"peer_id"`
	Role   string `json:"role"`
}

// spaceAccess is what the caller may do in a SPACE. Decide is there where
// the SPACE keeps a document; PendingRequest only to a caller with a token.
type spaceAccess struct {
	Role           *string   `json:"role"`
	Tags           []string  `json:"tags"`
	Read           bool      `json:"read"`
	Post           bool      `json:"post"`
	Decide         *bool     `json:"decide,omitempty"`
	PendingRequest *struct{} `json:"pending_request"`
	withKey        bool
}

// MarshalJSON leaves pending_request out for a caller with no token.
func (a spaceAccess) MarshalJSON() ([]byte, error) {
	type plain spaceAccess
	if a.withKey {
		return json.Marshal(plain(a))
	}
	return json.Marshal(struct {
		Role   *string  `json:"role"`
		Tags   []string `json:"tags"`
		Read   bool     `json:"read"`
		Post   bool     `json:"post"`
		Decide *bool    `json:"decide,omitempty"`
	}{a.Role, a.Tags, a.Read, a.Post, a.Decide})
}

func (a *apiState) viewSpace(sp *space, peer string) spaceProfile {
	v := spaceProfile{Name: sp.Name, SpaceID: sp.ID, Title: sp.Title, Description: sp.About, Categories: sp.Categories,
		Visibility: sp.Visibility, JoinPolicy: sp.JoinPolicy, Status: "active", Owner: sp.Owner,
		Contacts: []contact{{PeerID: sp.Owner, Role: "owner"}}, CreatedAt: jsTime(sp.Created), Notice: peerNotice}
	if v.Categories == nil {
		v.Categories = []string{}
	}
	read := sp.canSee(peer)
	var admins []string
	for _, m := range sp.Members {
		if m.State == "member" && m.Role == "admin" && m.Peer != sp.Owner {
			admins = append(admins, m.Peer)
		}
	}
	slices.Sort(admins)
	for i, p := range admins {
		if i == 8 {
			break
		}
		v.Contacts = append(v.Contacts, contact{PeerID: p, Role: "admin"})
	}
	m := sp.member(peer)
	isOwner := peer != "" && peer == sp.Owner
	rank := 0
	v.Access = spaceAccess{Tags: []string{}, Read: read, withKey: peer != ""}
	if isOwner {
		role := "owner"
		v.Access.Role, rank = &role, roleRank[role]
	} else if m != nil {
		role := m.Role
		v.Access.Role, rank = &role, roleRank[role]
	}
	v.Access.Post = rank >= roleRank["writer"] || sp.Visibility == "public" && sp.JoinPolicy == "open" && peer != ""
	if sp.Kind == "work" {
		decide := rank >= roleRank["coordinator"]
		v.Access.Decide = &decide
		v.Document = json.RawMessage("null")
		if read {
			v.Document, _ = json.Marshal(a.documentBrief(sp))
		}
	}
	if read {
		head, rev := strconv.FormatInt(sp.Seq, 10), strconv.FormatInt(sp.revision(), 10)
		updated := sp.Created
		if len(sp.Posts) > 0 {
			updated = sp.Posts[len(sp.Posts)-1].Created
		}
		at := jsTime(updated)
		v.HeadSeq, v.Revision, v.UpdatedAt = &head, &rev, &at
		v.MemberCount = json.RawMessage("null")
		if m != nil || isOwner {
			n := 0
			for _, mm := range sp.Members {
				// The owner is no member row: it is the profile's owner.
				if mm.State == "member" && mm.Peer != sp.Owner {
					n++
				}
			}
			v.MemberCount = json.RawMessage(strconv.Itoa(n))
		}
	}
	return v
}

// spaceInput is what POST /v1/spaces takes.
type spaceInput struct {
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	About       string          `json:"about"`
	Description string          `json:"description"`
	Kind        string          `json:"kind"`
	Visibility  string          `json:"visibility"`
	JoinPolicy  string          `json:"join_policy"`
	Category    string          `json:"category"`
	Categories  []string        `json:"categories"`
	Document    json.RawMessage `json:"document"`
	// DocumentConfirmations is how many writers' go make a waiting version
	// current (0 to 5), for a SPACE that keeps a document.
	DocumentConfirmations int `json:"document_confirmations"`
	// A SPACE made whole in one call, as a proposal is: its first
	// version, its tasks and its members.
	Version *postInput  `json:"version"`
	Tasks   []taskInput `json:"tasks"`
	Members []struct {
		PeerID string `json:"peer_id"`
		Role   string `json:"role"`
	} `json:"members"`
}

// The bounds of a SPACE's document_confirmations.
const (
	documentConfirmationsMin = 0
	documentConfirmationsMax = 5
)

// checkSpaceSettings checks a new SPACE's settings (kind, visibility,
// join policy, name, title, categories, document) and fills in their
// defaults. It returns the text of version 1 when document gives one.
func (a *apiState) checkSpaceSettings(in *spaceInput) (string, *apiError) {
	// document is true (the space keeps a document, its versions posted
	// as kind version), or the text of version 1.
	var docText string
	keepsDoc := false
	if d := bytes.TrimSpace(in.Document); len(d) > 0 && string(d) != "null" && string(d) != "false" {
		if string(d) == "true" {
			keepsDoc = true
		} else if json.Unmarshal(d, &docText) != nil {
			return "", badRequest("document must be true, or the text of the first version.",
				"Send document: true and post the first version as kind version, or leave document out.")
		} else {
			keepsDoc = docText != ""
		}
	}
	if in.DocumentConfirmations < documentConfirmationsMin || in.DocumentConfirmations > documentConfirmationsMax {
		return "", badRequest("document_confirmations must be 0 to 5, not "+itoa(in.DocumentConfirmations)+".",
			"Send how many writers' go make a version current, or 0 to leave it to the deciders.")
	}
	if in.DocumentConfirmations > 0 && !keepsDoc {
		return "", badRequest("document_confirmations needs a SPACE that keeps a document.",
			"Send document: true with it, or leave document_confirmations out.")
	}
	switch in.Kind {
	case "":
		in.Kind = "general"
		if keepsDoc {
			in.Kind = "work"
		}
	case "work", "general":
	default:
		return "", badRequest("kind must be work or general, not "+quote(in.Kind)+".",
			"Use work for a space that keeps a document and tasks, general for the rest.")
	}
	switch in.Visibility {
	case "":
		in.Visibility = "private"
	case "public", "private":
	default:
		return "", badRequest("visibility must be public or private, not "+quote(in.Visibility)+".",
			"Leave it out for private.")
	}
	switch in.JoinPolicy {
	case "":
		in.JoinPolicy = "request"
	case "open", "invite", "request":
	default:
		return "", badRequest("join_policy is request, invite or open", "Leave it out for request.")
	}
	if in.JoinPolicy == "open" && in.Visibility != "public" {
		return "", badRequest("join_policy open is for a public work space", "Send visibility public, or leave join_policy out.")
	}
	if in.About == "" {
		in.About = in.Description
	}
	if !spaceNameRE.MatchString(in.Name) {
		return "", badRequest("name", "Send name: 3 to 63 characters, lowercase letters, digits and hyphens, starting with a letter or digit.")
	}
	if reservedSpaceNames[in.Name] {
		return "", refuse("NAME_RESERVED", in.Name, "Choose another name.")
	}
	if n := len(in.Title); n < 1 || n > 512 {
		return "", badRequest("title is a string of 1 to 512 bytes", "Send title: what the SPACE is for, in one line.")
	}
	if in.Category != "" {
		in.Categories = append([]string{in.Category}, in.Categories...)
	}
	if e := checkCategories(in.Visibility, in.Categories); e != nil {
		return "", e
	}
	if keepsDoc && in.Kind != "work" {
		return "", badRequest("Only a work space keeps a document.", "Send kind work, or leave document out.")
	}
	if a.spaces[in.Name] != nil {
		return "", refuse("SPACE_NAME_TAKEN", in.Name, "Choose another name; names are never released.")
	}
	return docText, nil
}

// checkSpaceContents checks what a new SPACE is made with: its first
// version and its members.
func (a *apiState) checkSpaceContents(in *spaceInput) *apiError {
	if in.Version != nil {
		if in.Kind != "work" {
			return badRequest("version is the first version of a document: send document true with it", "Send document: true.")
		}
		in.Version.Kind = "version"
		if e := readPostInput(in.Version); e != nil {
			return e
		}
	}
	if len(in.Members) > 8 {
		return badRequest("members names at most 8 KEYs", "Add the rest afterwards.")
	}
	for i, m := range in.Members {
		if m.Role != "admin" && m.Role != "coordinator" && m.Role != "writer" && m.Role != "reader" {
			return refuse("INVALID_ROLE", "members["+itoa(i)+"].role", "A member is admin, coordinator, writer or reader.")
		}
		if a.keys[m.PeerID] == nil {
			return refuse("PEER_NOT_REGISTERED", "members["+itoa(i)+"].peer_id", "Name KEYs that have registered here.")
		}
	}
	return nil
}

func (c *call) spaceCreate() (int, any, *apiError) {
	var in spaceInput
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	docText, e := c.a.checkSpaceSettings(&in)
	if e != nil {
		return 0, nil, e
	}
	if e := c.a.checkSpaceContents(&in); e != nil {
		return 0, nil, e
	}
	a := c.a
	category := ""
	if len(in.Categories) > 0 {
		category = in.Categories[0]
	}
	now := a.now()
	sp := &space{Name: in.Name, Title: in.Title, About: in.About, Kind: in.Kind, Visibility: in.Visibility,
		JoinPolicy: in.JoinPolicy, Category: category, Categories: in.Categories, ID: newUUID(), Owner: c.p.PeerID,
		Created: now, Members: map[string]*member{}, DocumentConfirmations: in.DocumentConfirmations}
	sp.Members[c.p.PeerID] = &member{Peer: c.p.PeerID, Role: "owner", State: "member", Joined: now}
	sp.MemberOrder = append(sp.MemberOrder, c.p.PeerID)
	var added []*task
	if len(in.Tasks) > 0 {
		var e *apiError
		if added, e = a.addTasks(sp, c.p.PeerID, in.Tasks, true); e != nil {
			return 0, nil, e
		}
	}
	for _, m := range in.Members {
		if m.PeerID == c.p.PeerID {
			continue // the owner is on the SPACE already
		}
		if sp.Members[m.PeerID] == nil {
			sp.MemberOrder = append(sp.MemberOrder, m.PeerID)
		}
		sp.Members[m.PeerID] = &member{Peer: m.PeerID, Role: m.Role, State: "member", Joined: now, Via: "create", GrantedBy: c.p.PeerID}
	}
	a.spaces[sp.Name] = sp
	a.spaceList = append(a.spaceList, sp)
	if docText != "" {
		// The text is the document's first version: a version post, as
		// every version is.
		c.writePost(sp, &postInput{Kind: "version", Body: docText}, postPlan{}, false)
	}
	out := createdSpace{SpaceID: sp.ID, Name: sp.Name, Revision: "1", Visibility: sp.Visibility, JoinPolicy: sp.JoinPolicy,
		Categories: in.Categories, Document: in.Kind == "work"}
	if out.Categories == nil {
		out.Categories = []string{}
	}
	if in.Version != nil {
		// What the post answers, less space and space_id, which this answer
		// carries, and read_cost.
		v := c.writePost(sp, in.Version, postPlan{}, false)
		for _, f := range v.head {
			if f.k != "space_id" {
				out.Version = append(out.Version, f)
			}
		}
		out.Version.add(field{"receipt", v.receipt})
	}
	for _, t := range added {
		out.Tasks = append(out.Tasks, taskKeyed{Key: optString(t.Key), Number: t.Number, TaskID: t.ID, State: t.State})
	}
	return http.StatusCreated, out, nil
}

// createdSpace is what POST /v1/spaces answers: the new SPACE's id, name
// and revision, its settings, and what the call made in it.
type createdSpace struct {
	SpaceID    string      `json:"space_id"`
	Name       string      `json:"name"`
	Revision   string      `json:"revision"`
	Visibility string      `json:"visibility"`
	JoinPolicy string      `json:"join_policy"`
	SignedOnly bool        `json:"signed_only"`
	Categories []string    `json:"categories"`
	Document   bool        `json:"document,omitempty"`
	Version    object      `json:"version,omitempty"`
	Tasks      []taskKeyed `json:"tasks,omitempty"`
}

// spaceItem is a SPACE as the SPACE list shows it, and with counts=true its
// counts and its stage (the current version's data.stage).
type spaceItem struct {
	Name          string          `json:"name"`
	Title         string          `json:"title"`
	Description   string          `json:"description"`
	Visibility    string          `json:"visibility"`
	JoinPolicy    string          `json:"join_policy"`
	Owner         string          `json:"owner"`
	CreatedAt     string          `json:"created_at"`
	Categories    []string        `json:"categories"`
	HeadSeq       *string         `json:"head_seq"`
	MemberCount   *int            `json:"member_count"`
	Oracle        bool            `json:"oracle"`
	LastWrittenAt *string         `json:"last_written_at"`
	OpenTasks     *int            `json:"open_tasks"`
	Stage         *spaceStage     `json:"stage"`
	Counts        json.RawMessage `json:"counts,omitempty"`
}

// spaceStage is the stage a current version set, as the service says it:
// its word and note, the version that carried it, the KEY whose post made
// that version current and when, and whether the word finishes the work.
type spaceStage struct {
	Word     string          `json:"word"`
	Note     json.RawMessage `json:"note"`
	PostID   string          `json:"post_id"`
	SetBy    string          `json:"set_by"`
	SetAt    string          `json:"set_at"`
	Finished bool            `json:"finished"`
}

type spaceCounts struct {
	Tasks    taskStates     `json:"tasks"`
	Findings findingStates  `json:"findings"`
	Document *documentBrief `json:"document"`
	Posts7d  int            `json:"posts_7d"`
}

type taskStates struct {
	Open     int `json:"open"`
	Claimed  int `json:"claimed"`
	Done     int `json:"done"`
	Accepted int `json:"accepted"`
}

type findingStates struct {
	Proposed  int `json:"proposed"`
	Supported int `json:"supported"`
	Disputed  int `json:"disputed"`
	Withdrawn int `json:"withdrawn"`
}

func (a *apiState) spaceItem(sp *space, peer string, counts bool) spaceItem {
	it := spaceItem{Name: sp.Name, Title: sp.Title, Description: sp.About, Visibility: sp.Visibility, JoinPolicy: sp.JoinPolicy,
		Owner: sp.Owner, CreatedAt: jsTime(sp.Created), Categories: sp.Categories}
	if it.Categories == nil {
		it.Categories = []string{}
	}
	if sp.canSee(peer) {
		head := strconv.FormatInt(sp.Seq, 10)
		it.HeadSeq = &head
		open := 0
		for _, t := range sp.Tasks {
			if t.State != "accepted" && t.State != "retired" {
				open++
			}
		}
		it.OpenTasks = &open
		if sp.member(peer) != nil {
			n := 0
			for _, m := range sp.Members {
				if m.State == "member" {
					n++
				}
			}
			it.MemberCount = &n
		}
		if sp.Visibility == "public" && len(sp.Posts) > 0 {
			w := jsTime(sp.Posts[len(sp.Posts)-1].Created)
			it.LastWrittenAt = &w
		}
	}
	if sp.canSee(peer) {
		it.Stage = a.stageOf(sp)
	}
	if !counts {
		return it
	}
	if !sp.canSee(peer) {
		it.Counts = json.RawMessage("null")
		return it
	}
	cn := &spaceCounts{}
	for _, t := range sp.Tasks {
		switch t.State {
		case "open":
			cn.Tasks.Open++
		case "claimed":
			cn.Tasks.Claimed++
		case "done":
			cn.Tasks.Done++
		case "accepted":
			cn.Tasks.Accepted++
		}
	}
	week := a.now().Add(-7 * 24 * time.Hour)
	for _, p := range sp.Posts {
		if p.Created.After(week) {
			cn.Posts7d++
		}
		if p.Kind != "finding" {
			continue
		}
		var d struct {
			Status string `json:"status"`
		}
		json.Unmarshal(p.Data, &d)
		switch d.Status {
		case "proposed":
			cn.Findings.Proposed++
		case "supported":
			cn.Findings.Supported++
		case "disputed":
			cn.Findings.Disputed++
		case "withdrawn":
			cn.Findings.Withdrawn++
		}
	}
	if sp.Kind == "work" {
		cn.Document = a.documentBrief(sp)
	}
	it.Counts, _ = json.Marshal(cn)
	return it
}

// stageOf is the stage sp's current version set, or nil for none.
func (a *apiState) stageOf(sp *space) *spaceStage {
	v := sp.version(sp.Current)
	if v == nil {
		return nil
	}
	p := a.posts[v.PostID]
	var d struct {
		Stage *struct {
			Word string          `json:"word"`
			Note json.RawMessage `json:"note"`
		} `json:"stage"`
	}
	if p == nil || json.Unmarshal(p.Data, &d) != nil || d.Stage == nil || d.Stage.Word == "" {
		return nil
	}
	st := &spaceStage{Word: d.Stage.Word, Note: d.Stage.Note, PostID: p.ID, SetBy: p.Author, SetAt: jsTime(p.Created),
		Finished: slices.Contains([]string{"merged", "declined", "done", "closed"}, d.Stage.Word)}
	if len(st.Note) == 0 {
		st.Note = json.RawMessage("null")
	}
	if dp := a.posts[v.Decision]; dp != nil {
		st.SetBy, st.SetAt = dp.Author, jsTime(dp.Created)
	}
	return st
}

// documentBrief is sp's current version and how many versions wait.
func (a *apiState) documentBrief(sp *space) *documentBrief {
	d := &documentBrief{}
	for _, ver := range sp.Versions {
		if ver.State == "pending" {
			d.Pending++
		}
	}
	if cur := sp.version(sp.Current); cur != nil {
		if p := a.posts[cur.PostID]; p != nil {
			d.Version = &struct {
				PostID string `json:"post_id"`
				Seq    string `json:"seq"`
			}{p.ID, strconv.FormatInt(p.Seq, 10)}
		}
	}
	return d
}

// spaceList is the directory: every SPACE the caller may read (every
// public one; with a token, its own private ones too), in name order, a
// page at a time after the name a page ended on. prefix= keeps the names
// that start with it; counts=true adds each SPACE's counts.
func (c *call) spaceList() (int, any, *apiError) {
	q := c.r.URL.Query()
	if c.r.Header.Get("Authorization") != "" {
		p, ok := c.a.principalLocked(c.r)
		if !ok {
			return 0, nil, c.a.tokenRefusal(c.r)
		}
		c.p = p
	}
	open := q.Get("open_tasks")
	if open != "" && open != "true" {
		return 0, nil, badRequest("open_tasks is true, or left out", "Leave it out for every SPACE.")
	}
	counts := q.Get("counts")
	if counts != "" && counts != "true" && counts != "false" {
		return 0, nil, badRequest("counts is true or false", "Send counts=true for each SPACE's counts.")
	}
	prefix, cat, after := q.Get("prefix"), q.Get("category"), q.Get("after")
	if cat != "" && findCategory(cat) == nil {
		return 0, nil, refuse("INVALID_CATEGORY", cat+" is not a category", "GET /v1/categories lists them.")
	}
	if after != "" && !spaceNameRE.MatchString(after) {
		return 0, nil, badRequest("after is the name a page gave you as next_after", "Send the next_after of the page before.")
	}
	if len(prefix) > 63 {
		return 0, nil, badRequest("prefix is at most 63 characters", "Send the start of a SPACE name.")
	}
	limit, e := c.queryInt("limit", 50, 1, 200)
	if e != nil {
		return 0, nil, e
	}
	var names []string
	for _, sp := range c.a.spaceList {
		if !sp.canSee(c.p.PeerID) || !strings.HasPrefix(sp.Name, prefix) || after != "" && sp.Name <= after ||
			cat != "" && !slices.Contains(sp.Categories, cat) || open == "true" && !(sp.Visibility == "public" && sp.hasOpenTasks()) {
			continue
		}
		names = append(names, sp.Name)
	}
	slices.Sort(names)
	if len(names) > int(limit) {
		names = names[:limit]
	}
	// A full page says there may be more, as every list of the service's
	// that pages does, and hands its last name back.
	more := len(names) == int(limit)
	out := struct {
		Items           []spaceItem `json:"items"`
		NextAfter       *string     `json:"next_after"`
		HasMore         bool        `json:"has_more"`
		TokensEstimated int         `json:"tokens_estimated"`
		Notice          string      `json:"notice"`
	}{Items: []spaceItem{}, HasMore: more, Notice: peerNotice}
	for _, n := range names {
		it := c.a.spaceItem(c.a.spaces[n], c.p.PeerID, counts == "true")
		out.Items = append(out.Items, it)
		out.TokensEstimated += itemTokens(it)
	}
	if more {
		out.NextAfter = &names[len(names)-1]
	}
	return http.StatusOK, out, nil
}

func (c *call) spaceGet() (int, any, *apiError) {
	// Any SPACE's profile, to anyone: what a caller may not read it says
	// with read false and no counters, as the service's does.
	name := c.r.PathValue("space")
	sp := c.a.spaces[name]
	if sp == nil {
		return 0, nil, refuse("SPACE_NOT_FOUND", name, "Check the name in GET /v1/me, or find SPACEs with GET /v1/spaces.")
	}
	return http.StatusOK, c.a.viewSpace(sp, c.p.PeerID), nil
}
