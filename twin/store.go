package twin

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"
)

// The twin's state: every record lives in memory behind apiState.mu.

// Roles and their ranks, as the service ranks them: the owner, then the
// membership roles admin, coordinator, writer and reader.
var roleRank = map[string]int{"reader": 10, "writer": 20, "coordinator": 25, "admin": 30, "owner": 40}

const (
	challengeTTL = 5 * time.Minute
	keyTokenTTL  = 24 * time.Hour
	appTokenTTL  = time.Hour
	inviteTTL    = 7 * 24 * time.Hour
	authReqTTL   = 10 * time.Minute
)

// apiState is the HTTP API's in-memory state.
type apiState struct {
	s  *Server
	mu sync.Mutex

	keys       map[string]*keyRec    // by peer id
	challenges map[string]*challenge // by challenge hex
	tokens     map[string]*tokenRec  // by token
	spaces     map[string]*space     // by name
	spaceList  []*space              // in creation order
	posts      map[string]*post      // by id
	invites    map[string]*invite    // by code
	mail       map[string]*mailbox   // by peer id

	clients  map[string]*oauthClient // by client id
	authReqs map[string]*authRequest // by request id
	codes    map[string]*authRequest // by code

	registers *limiter // POST /oauth/register, per address (see limits.go)
	connects  *limiter // GET /oauth/authorize, per address
	keyings   *limiter // POST /v1/keys/challenge, per address

	signKey     ed25519.PrivateKey
	signerKeyID string
}

func newAPIState(s *Server) *apiState {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	sum := sha256.Sum256(pub)
	return &apiState{
		s:           s,
		keys:        map[string]*keyRec{},
		challenges:  map[string]*challenge{},
		tokens:      map[string]*tokenRec{},
		spaces:      map[string]*space{},
		posts:       map[string]*post{},
		invites:     map[string]*invite{},
		mail:        map[string]*mailbox{},
		clients:     map[string]*oauthClient{},
		authReqs:    map[string]*authRequest{},
		registers:   newLimiter(appRegistrationBurst, appRegistrationsPerHour),
		connects:    newLimiter(appConnectionBurst, appConnectionsPerHour),
		keyings:     newLimiter(keyChallengeBurst, keyChallengesPerHour),
		codes:       map[string]*authRequest{},
		signKey:     priv,
		signerKeyID: hex.EncodeToString(sum[:]),
	}
}

type keyRec struct {
	PeerID     string
	Pub        ed25519.PublicKey
	Registered time.Time
	Cursor     int64 // the highest mailbox next_after handed out
}

type challenge struct {
	Hex      string
	Pub      string // hex
	Audience string
	Expires  time.Time
}

type tokenRec struct {
	Token    string
	PeerID   string
	App      bool
	Resource string
	Expires  time.Time
}

type space struct {
	Name, Title, About string
	Kind               string // "work" or "general"
	Visibility         string // "public" or "private"
	Category           string
	Categories         []string // the main one first
	ID                 string   // the space_id, a UUID
	Owner              string
	Created            time.Time
	Members            map[string]*member
	MemberOrder        []string
	Posts              []*post
	Tasks              []*task
	Versions           []*version
	Current            int // current document version, 0 for none
	Seq                int64
	// JoinPolicy is "open" (a public space any KEY may write to, joining
	// as a writer on its first post) or "invite" (the default).
	JoinPolicy string
	// DocumentConfirmations is how many writers' go make a waiting version
	// of the document current (0 to 5; 0, the default, leaves it to the
	// deciders).
	DocumentConfirmations int
	// Idem holds the answers of posts sent with an idempotency_key, by
	// author and key: a repeat answers the same post.
	Idem map[string]postAnswer
}

type member struct {
	Peer, Role, State string
	// Via is how it came in (create, invite, open), and GrantedBy the KEY
	// that last decided its role: the creator, the link's maker, itself on
	// an open SPACE, or the admin that approved it.
	Via, GrantedBy string
	// Asked is a higher role a member asked for through a link that waits
	// for approval: the member keeps Role until an admin approves.
	Asked  string
	Joined time.Time
}

type task struct {
	Number                  int
	ID                      string   // a UUID, the task_id
	Key, Tag                string   // the key a batch named it by, and its tag
	After                   []string // the task_ids it waits for
	Title, Body, State      string   // open, claimed, done
	Assignee                string
	Creator                 string // the KEY that added it
	Created, Accepted, Done time.Time
	Result                  string // the result post's id
}

type version struct {
	Number                     int
	Title, Body, Author, State string // pending, current, replaced, declined
	Created, Decided           time.Time
	Decision                   string // the go or no post's id
	PostID                     string // the version post's id, when posted as kind version
}

type post struct {
	ID, Space         string
	Seq               int64
	Revision          int64 // the SPACE's revision it was admitted at
	Kind, Title, Body string
	Author            string
	Created           time.Time
	Task, Version     int
	RestsOn           []string
	Fingerprints      []string
	RunID             string
	Data              []byte // the post's data object, as sent; nil for none
	ReplyTo           string // the post a go or no decides
	Supersedes        string // the version post a version post replaces
	Chain             string // the link to the post before it, hex
	canonical         []byte
	signature         []byte
}

type invite struct {
	Code, Space, Role, Creator string
	Created, Expires           time.Time
	MaxUses, Uses              int
	Approval                   bool // each join waits for an admin's approval
}

type mailbox struct {
	Items []*mailItem
	Head  int64
}

type mailItem struct {
	Seq     int64
	Kind    string
	Space   string
	Post    string
	From    string
	Summary string
	Task    int
	Version int
	At      time.Time
}

// randHex returns n random bytes as hex.
func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// newPostID returns a new post id: a UUID, as the service's are.
func newPostID() string { return newUUID() }

// peerID derives a KEY's peer id as the service does: SHA-256 of the label
// "agent-state:agent:v1", a 0x00 byte and the public key, as 64 hex digits.
func peerID(pub []byte) string {
	h := sha256.New()
	h.Write([]byte("agent-state:agent:v1\x00"))
	h.Write(pub)
	return hex.EncodeToString(h.Sum(nil))
}

// dbTime formats t as the service's database does: UTC, microseconds,
// trailing zeros of the fraction dropped (no fraction when zero), offset
// +00:00. 2026-10-02T07:57:40.1+00:00.
func dbTime(t time.Time) string {
	return t.UTC().Truncate(time.Microsecond).Format("2006-01-02T15:04:05.999999") + "+00:00"
}

// optTime is dbTime, or "" for the zero time (omitted from answers).
func optTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return dbTime(t)
}

func (a *apiState) now() time.Time { return a.s.opts.Now().UTC().Truncate(time.Microsecond) }

// deliver adds an item to peer's mailbox.
func (a *apiState) deliver(peer string, it mailItem) {
	mb := a.mail[peer]
	if mb == nil {
		mb = &mailbox{}
		a.mail[peer] = mb
	}
	mb.Head++
	it.Seq = mb.Head
	mb.Items = append(mb.Items, &it)
}

// revision is the SPACE's revision: one, and one more for each membership,
// the owner's included.
func (sp *space) revision() int64 { return int64(1 + len(sp.MemberOrder)) }

// member returns peer's membership of sp, or nil.
func (sp *space) member(peer string) *member {
	m := sp.Members[peer]
	if m == nil || m.State != "member" {
		return nil
	}
	return m
}

// hasOpenTasks reports whether sp is a work space with a task not yet
// accepted.
func (sp *space) hasOpenTasks() bool {
	for _, t := range sp.Tasks {
		if t.State == "open" {
			return true
		}
	}
	return false
}

func (sp *space) version(n int) *version {
	if n < 1 || n > len(sp.Versions) {
		return nil
	}
	return sp.Versions[n-1]
}

// versionByPost returns the version posted as the post id, or nil.
func (sp *space) versionByPost(id string) *version {
	for _, v := range sp.Versions {
		if v.PostID != "" && v.PostID == id {
			return v
		}
	}
	return nil
}

func (sp *space) task(n int) *task {
	if n < 1 || n > len(sp.Tasks) {
		return nil
	}
	return sp.Tasks[n-1]
}

// newUUID returns a random (version 4) UUID in lowercase.
func newUUID() string {
	b := make([]byte, 16)
	rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
