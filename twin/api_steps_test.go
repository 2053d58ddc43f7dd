package twin_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestResearchSteps(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	sp := apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{
		"kind": "work", "visibility": "public", "category": "software-testing", "title": "Flaky tests"})
	space := sp.Get("name").String()
	if sp.Get("categories.0").String() != "software-testing" || sp.Get("visibility").String() != "public" {
		t.Errorf("space: %s", sp.Body)
	}
	p1 := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", owner.Token, map[string]any{
		"kind": "obs", "title": "Retry hides flakes", "body": "Retrying a flaky test hides the race."}).Get("post_id").String()
	p2 := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", owner.Token, map[string]any{
		"kind": "obs", "title": "Race detector", "body": "The race detector finds the flaky race in half the runs."}).Get("post_id").String()
	f1 := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", owner.Token, map[string]any{
		"kind": "finding", "title": "Flakes are races", "body": "Most flaky tests here are races.", "data": map[string]any{"claim": "Flaky tests race", "status": "proposed", "confidence": "medium"}, "rests_on": []string{p1, p2}}).Get("post_id").String()
	link := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", owner.Token, map[string]any{}).Get("link").String()

	agent := newAPIKey(t)
	v := agent.login(t, srv, map[string]any{"invite": link})
	if v.Get("joined.start").Exists() {
		t.Errorf("start given for a space with no task: %s", v.Body)
	}

	apiMust(t, srv, 200, "GET", "/v1/me", agent.Token, nil)
	apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", agent.Token, nil)
	cats := apiMust(t, srv, 200, "GET", "/v1/categories?q=testing", agent.Token, nil)
	if cats.Get("matches.#").Int() != 1 || cats.Get("matches.0.id").String() != "software-testing" {
		t.Errorf("categories?q=testing: %s", cats.Body)
	}
	if all := apiMust(t, srv, 200, "GET", "/v1/categories", agent.Token, nil); all.Get("categories.#").Int() < 5 {
		t.Errorf("categories: %s", all.Body)
	}
	sk := apiMust(t, srv, 200, "GET", "/v1/seek?q="+q("flaky race")+"&space="+space, agent.Token, nil)
	if sk.Get("items.#").Int() != 3 || sk.Get("items.0.post_id").String() != f1 || sk.Get("items.1.post_id").String() != p2 || sk.Get("items.2.post_id").String() != p1 {
		t.Errorf("seek q: %s", sk.Body)
	}
	posts := apiMust(t, srv, 200, "GET", "/v1/posts?ids="+p1+","+p2+",p_0000000000000000", agent.Token, nil)
	if posts.Get("items.#").Int() != 2 || posts.Get("items.1.body").String() == "" || posts.Get("not_found.0").String() != "p_0000000000000000" {
		t.Errorf("posts?ids: %s", posts.Body)
	}
	fs := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/findings", agent.Token, nil)
	if fs.Get("items.#").Int() != 1 || fs.Get("items.0.post_id").String() != f1 || fs.Get("items.0.sources.#").Int() != 2 ||
		fs.Get("items.0.number").Int() != 1 || fs.Get("items.0.claim").String() != "Flaky tests race" {
		t.Errorf("findings: %s", fs.Body)
	}
	fd := apiMust(t, srv, 200, "GET", "/v1/posts/"+f1+"/finding", agent.Token, nil)
	if fd.Get("finding.post_id").String() != f1 || fd.Get("sources.#").Int() != 2 || fd.Get("sources.0.post_id").String() != p1 ||
		fd.Get("post_id").String() != f1 || fd.Get("citing.#").Int() != 0 {
		t.Errorf("finding: %s", fd.Body)
	}
	// Any post answers its sources and what cites it; a note has no finding.
	if a := apiMust(t, srv, 200, "GET", "/v1/posts/"+p1+"/finding", agent.Token, nil); a.Get("finding").Type != gjson.Null || a.Get("citing.0.post_id").String() != f1 {
		t.Errorf("finding of a note: %s", a.Body)
	}
	mine := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", agent.Token, map[string]any{
		"kind": "finding", "title": "Races confirmed", "body": "Checked: the race detector run. Not checked: other packages.", "data": map[string]any{"claim": "Flaky tests race", "status": "proposed", "confidence": "medium"}, "rests_on": []string{f1}})
	if mine.Get("seq").Int() != 4 {
		t.Errorf("the agent's finding: %s", mine.Body)
	}
	if fs := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/findings", agent.Token, nil); fs.Get("items.#").Int() != 2 {
		t.Errorf("findings after: %s", fs.Body)
	}
	// The owner hears of it.
	omb := apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", owner.Token, nil)
	if omb.Get(`items.#(post.post_id=="`+mine.Get("post_id").String()+`").reason`).String() != "post" {
		t.Errorf("owner's mailbox: %s", omb.Body)
	}
	// A stranger reads the public space but cannot post there.
	stranger := apiLogin(t, srv)
	apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/findings", stranger.Token, nil)
	if a := apiMust(t, srv, 403, "POST", "/v1/spaces/"+space+"/posts", stranger.Token, map[string]any{"kind": "obs", "body": "x"}); a.Get("error.code").String() != "WRITE_DENIED" {
		t.Errorf("a stranger's post: %s", a.Body)
	}
	// A seek without space= looks in every SPACE the caller may read, as
	// the service's does: the public one, and never another's private one.
	hidden := apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{"title": "Hidden"}).Get("name").String()
	apiMust(t, srv, 201, "POST", "/v1/spaces/"+hidden+"/posts", owner.Token, map[string]any{"kind": "obs", "title": "Flaky too", "body": "A flaky race, kept private."})
	sk = apiMust(t, srv, 200, "GET", "/v1/seek?q=flaky", stranger.Token, nil)
	if sk.Get("items.#").Int() != 3 || sk.Get(`items.#(space=="`+hidden+`")`).Exists() || sk.Get("items.0.admitted_revision").Exists() {
		t.Errorf("a stranger's seek: %s", sk.Body)
	}
	// With no token, the public SPACEs alone; the owner sees its private one too.
	if anon := apiMust(t, srv, 200, "GET", "/v1/seek?q=flaky", "", nil); anon.Get("items.#").Int() != 3 {
		t.Errorf("a seek with no token: %s", anon.Body)
	}
	if own := apiMust(t, srv, 200, "GET", "/v1/seek?q=flaky", owner.Token, nil); !own.Get(`items.#(space=="` + hidden + `")`).Exists() {
		t.Errorf("the owner's seek: %s", own.Body)
	}
}

func TestCoordinateSteps(t *testing.T) {
	srv, _ := apiServer(t)
	lead := apiLogin(t, srv)
	apiMust(t, srv, 200, "GET", "/v1/me", lead.Token, nil)
	apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", lead.Token, nil)
	apiMust(t, srv, 200, "GET", "/v1/categories?q=agents", lead.Token, nil)
	sp := apiMust(t, srv, 201, "POST", "/v1/spaces", lead.Token, map[string]any{"kind": "work", "title": "Budgets", "category": "agents"})
	space := sp.Get("name").String()
	if !strings.HasPrefix(space, "space-") || len(space) != 14 || sp.Get("revision").String() != "1" {
		t.Errorf("created: %s", sp.Body)
	}
	v1 := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/versions", lead.Token, map[string]any{"body": "How to work here: v1."})
	if v1.Get("seq").String() != "1" || v1.Get("state").String() != "current" {
		t.Errorf("first version: %s", v1.Body)
	}
	ts := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/tasks", lead.Token, map[string]any{"tasks": []map[string]string{
		{"title": "Measure the primer", "body": "Bytes and tokens."}, {"title": "Measure the skill"}}})
	if ts.Get("tasks.#").Int() != 2 || ts.Get("tasks.1.number").Int() != 2 || ts.Get("tasks.1.state").String() != "open" {
		t.Errorf("tasks: %s", ts.Body)
	}
	link := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", lead.Token, map[string]any{"role": "writer"}).Get("link").String()
	if !strings.HasPrefix(link, srv.URL+"/join/") {
		t.Errorf("link %q", link)
	}

	// A second KEY joins and proposes a version (not counted by the walk).
	writer := apiLogin(t, srv)
	if j := apiMust(t, srv, 200, "POST", "/v1/join", writer.Token, map[string]string{"link": link}); j.Get("start").String() != "start-tasks" {
		t.Errorf("join: %s", j.Body)
	}
	v2 := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/versions", writer.Token, map[string]any{"title": "Shorter", "body": "How to work here: v2."})
	if v2.Get("state").String() != "pending" || v2.Get("waits_for.decision.0").String() != "owner" {
		t.Errorf("proposal: %s", v2.Body)
	}
	// A writer cannot decide.
	apiMust(t, srv, 403, "POST", "/v1/spaces/"+space+"/posts", writer.Token, map[string]any{"kind": "go", "version": 2})

	mb := apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", lead.Token, nil)
	if !mb.Get(`items.#(reason=="version")`).Exists() {
		t.Errorf("lead's mailbox: %s", mb.Body)
	}
	pend := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/versions?state=pending", lead.Token, nil)
	if pend.Get("items.#").Int() != 1 || pend.Get("items.0.snippet").String() != "How to work here: v2." ||
		pend.Get("items.0.post_id").String() != v2.Get("post_id").String() {
		t.Errorf("pending: %s", pend.Body)
	}
	goPost := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", lead.Token, map[string]any{"kind": "go", "version": 2, "body": "Shorter is better."})
	if goPost.Get("oracle.decided").String() != "approved" {
		t.Errorf("go: %s", goPost.Body)
	}
	apiMust(t, srv, 409, "POST", "/v1/spaces/"+space+"/posts", lead.Token, map[string]any{"kind": "go", "version": 2})
	apiMust(t, srv, 422, "POST", "/v1/spaces/"+space+"/posts", lead.Token, map[string]any{"kind": "veto", "version": 9})
	doc := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/document", writer.Token, nil)
	if doc.Get("version.post_id").String() != v2.Get("post_id").String() || doc.Get("version.decided_by.post_id").String() != goPost.Get("post_id").String() || doc.Get("pending").Int() != 0 {
		t.Errorf("document after go: %s", doc.Body)
	}
	all := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/versions", lead.Token, nil)
	if all.Get("items.1.state").String() != "replaced" || all.Get("items.0.decision.post_id").String() != goPost.Get("post_id").String() {
		t.Errorf("versions: %s", all.Body)
	}
	// A no declines.
	apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/versions", writer.Token, map[string]any{"body": "v3"})
	if no := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", lead.Token, map[string]any{"kind": "veto", "version": 3}); no.Get("oracle.decided").String() != "declined" {
		t.Errorf("no: %s", no.Body)
	}
	// How the tasks move.
	apiMust(t, srv, 200, "POST", "/v1/spaces/"+space+"/tasks/next", writer.Token, nil)
	tl := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/tasks", lead.Token, nil)
	if tl.Get(`items.#(state=="open")#|#`).Int() != 1 || tl.Get("items.1.state").String() != "claimed" || tl.Get("items.1.claimed_by").String() != writer.Peer || tl.Get("items.0.number").Int() != 2 {
		t.Errorf("task list: %s", tl.Body)
	}
	if s := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space, writer.Token, nil); s.Get("member_count").Int() != 1 || s.Get("access.role").String() != "writer" || !s.Get("access.post").Bool() {
		t.Errorf("space view: %s", s.Body)
	}
}

func TestJoinStart(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	space, writerLink := trialSpace(t, srv, owner, "writer")
	readerLink := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", owner.Token, map[string]any{"role": "reader"}).Get("link").String()
	code := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", owner.Token, map[string]any{"max_uses": 1}).Get("code").String()

	stranger := apiLogin(t, srv)
	look := apiMust(t, srv, 200, "POST", "/v1/invites/look", stranger.Token, map[string]string{"link": writerLink})
	if look.Get("start").Exists() || look.Get("role").String() != "writer" || look.Get("member").Bool() {
		t.Errorf("a stranger learned of a private space's tasks: %s", look.Body)
	}
	if j := apiMust(t, srv, 200, "POST", "/v1/join", stranger.Token, map[string]string{"link": readerLink}); j.Get("start").Exists() || j.Get("role").String() != "reader" {
		t.Errorf("a reader's join: %s", j.Body)
	}
	if look := apiMust(t, srv, 200, "POST", "/v1/invites/look", stranger.Token, map[string]string{"link": writerLink}); look.Get("start").String() != "start-tasks" {
		t.Errorf("look by a member: %s", look.Body)
	}
	// Joining again with the writer link lifts the role and gives start.
	if j := apiMust(t, srv, 200, "POST", "/v1/join", stranger.Token, map[string]string{"link": writerLink}); j.Get("start").String() != "start-tasks" || j.Get("role").String() != "writer" {
		t.Errorf("a writer's join: %s", j.Body)
	}
	// The redemption by code, then the code is used up.
	other := apiLogin(t, srv)
	if j := apiMust(t, srv, 200, "POST", "/v1/spaces/"+space+"/join", other.Token, map[string]string{"code": code}); j.Get("start").String() != "start-tasks" {
		t.Errorf("redemption: %s", j.Body)
	}
	apiMust(t, srv, 409, "POST", "/v1/join", apiLogin(t, srv).Token, map[string]string{"code": code})
	// Once every task is accepted, no start.
	apiMust(t, srv, 200, "POST", "/v1/spaces/"+space+"/tasks/next", other.Token, nil)
	if j := apiMust(t, srv, 200, "POST", "/v1/join", apiLogin(t, srv).Token, map[string]string{"link": writerLink}); j.Get("start").Exists() {
		t.Errorf("start with no task open: %s", j.Body)
	}
	if a := apiMust(t, srv, 404, "POST", "/v1/join", stranger.Token, map[string]string{"link": srv.URL + "/join/nothing/schellingaf_inv_00000000000000000000000000000000"}); a.Get("error.code").String() != "INVITE_INVALID" {
		t.Errorf("unknown link: %s", a.Body)
	}
	// A public work space with a task open is followed without a code: the
	// state is open, no membership, and no start.
	pub := apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{"visibility": "public", "kind": "work"}).Get("name").String()
	apiMust(t, srv, 201, "POST", "/v1/spaces/"+pub+"/tasks", owner.Token, map[string]any{"title": "open"})
	if j := apiMust(t, srv, 200, "POST", "/v1/spaces/"+pub+"/join", stranger.Token, nil); j.Get("role").String() != "reader" || j.Get("state").String() != "open" || j.Get("start").Exists() {
		t.Errorf("public join: %s", j.Body)
	}
	apiMust(t, srv, 403, "POST", "/v1/spaces/"+pub+"/tasks/next", stranger.Token, nil)
	apiMust(t, srv, 404, "POST", "/v1/spaces/"+space+"/join", apiLogin(t, srv).Token, nil)

	// A link that waits for approval: a pending ask, no start, until an
	// admin approves.
	ask := apiMust(t, srv, 201, "POST", "/v1/spaces/"+pub+"/invites", owner.Token, map[string]any{"approval": true})
	if l := apiMust(t, srv, 200, "POST", "/v1/invites/look", stranger.Token, map[string]string{"link": ask.Get("link").String()}); l.Get("start").Exists() || !l.Get("approval").Bool() {
		t.Errorf("look at an approval link: %s", l.Body)
	}
	j := apiMust(t, srv, 200, "POST", "/v1/join", stranger.Token, map[string]string{"link": ask.Get("link").String()})
	if j.Get("state").String() != "pending" || j.Get("start").Exists() {
		t.Errorf("a pending ask: %s", j.Body)
	}
	apiMust(t, srv, 403, "POST", "/v1/spaces/"+pub+"/tasks/next", stranger.Token, nil)
	mb := apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", owner.Token, nil)
	if mb.Get(`items.#(reason=="ask").from`).String() != stranger.Peer {
		t.Errorf("the owner was not asked: %s", mb.Body)
	}
	apiMust(t, srv, 403, "POST", "/v1/spaces/"+pub+"/members/"+stranger.Peer+"/approve", stranger.Token, nil)
	ap := apiMust(t, srv, 200, "POST", "/v1/spaces/"+pub+"/members/"+stranger.Peer+"/approve", owner.Token, nil)
	if ap.Get("state").String() != "member" || ap.Get("start").String() != "start-tasks" {
		t.Errorf("approved: %s", ap.Body)
	}
	apiMust(t, srv, 404, "POST", "/v1/spaces/"+pub+"/members/"+stranger.Peer+"/approve", owner.Token, nil)
	apiMust(t, srv, 200, "POST", "/v1/spaces/"+pub+"/tasks/next", stranger.Token, nil)
}

func TestFullReceipt(t *testing.T) {
	srv, _ := apiServer(t)
	k := apiLogin(t, srv)
	space := apiMust(t, srv, 201, "POST", "/v1/spaces", k.Token, map[string]any{"kind": "work"}).Get("name").String()
	apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/tasks", k.Token, map[string]any{"title": "t"})
	a := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts?receipt=full", k.Token, map[string]any{
		"kind": "result", "body": "<done> & \"dusted\"", "task": map[string]int{"number": 1}, "run_id": "r1"})
	if a.Get("posted_at").String() != "2026-10-02T07:57:40.1+00:00" {
		t.Errorf("posted_at %s, want the database's format", a.Get("posted_at"))
	}
	canon, err := base64.RawURLEncoding.DecodeString(a.Get("receipt.canonical").String())
	if err != nil {
		t.Fatalf("canonical is not base64url without padding: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(canon, &m); err != nil {
		t.Fatalf("canonical is not JSON: %v: %s", err, canon)
	}
	for _, f := range []string{"created_at", "received_at"} {
		if m[f] != "2026-10-02T07:57:40.1+00:00" {
			t.Errorf("canonical %s = %v", f, m[f])
		}
	}
	if m["id"] != a.Get("post_id").String() || m["author"] != k.Peer || m["task"] != float64(1) || m["body"] != "<done> & \"dusted\"" {
		t.Errorf("canonical: %s", canon)
	}
	// Keys are sorted and nothing is spaced or escaped beyond JSON's need.
	if !strings.HasPrefix(string(canon), `{"author":`) || strings.Contains(string(canon), `\u003c`) || strings.Contains(string(canon), `, `) {
		t.Errorf("canonical is not canonical: %s", canon)
	}
	key := apiMust(t, srv, 200, "GET", "/v1/receipts/key", "", nil)
	if key.Get("signer_key_id").String() != a.Get("receipt.signer_key_id").String() {
		t.Errorf("signer_key_id differs: %s", key.Body)
	}
	pub, _ := hex.DecodeString(key.Get("public_key").String())
	sig, _ := hex.DecodeString(a.Get("receipt.signature").String())
	if len(pub) != ed25519.PublicKeySize || !ed25519.Verify(pub, canon, sig) {
		t.Errorf("the receipt's signature does not verify")
	}
	apiMust(t, srv, 400, "POST", "/v1/spaces/"+space+"/posts?receipt=fat", k.Token, map[string]any{"kind": "obs", "body": "x"})
}

// TestRefusals: every client mistake gets a JSON error with its status,
// never a 500.
func TestRefusals(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	space, _ := trialSpace(t, srv, owner, "writer")
	reader := apiLogin(t, srv)
	rl := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", owner.Token, map[string]any{"role": "reader"}).Get("link").String()
	apiMust(t, srv, 200, "POST", "/v1/join", reader.Token, map[string]string{"link": rl})
	taker := apiLogin(t, srv)
	wl := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", owner.Token, nil).Get("link").String()
	apiMust(t, srv, 200, "POST", "/v1/join", taker.Token, map[string]string{"link": wl})
	apiMust(t, srv, 200, "POST", "/v1/spaces/"+space+"/tasks/next", taker.Token, nil)
	general := apiMust(t, srv, 201, "POST", "/v1/spaces", owner.Token, map[string]any{}).Get("name").String()
	tok := owner.Token
	sp := "/v1/spaces/" + space
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"bad JSON", "POST", "/v1/keys/challenge", "", "{", 400, "INVALID_REQUEST"},
		{"short key", "POST", "/v1/keys/challenge", "", map[string]string{"public_key": "abcd"}, 400, "INVALID_REQUEST"},
		{"key of wrong type", "POST", "/v1/keys/challenge", "", map[string]int{"public_key": 7}, 400, "INVALID_REQUEST"},
		{"bad signature hex", "POST", "/v1/keys/verify", "", map[string]string{"public_key": strings.Repeat("ab", 32), "challenge": "00", "signature": "zz"}, 401, "CHALLENGE_INVALID"},
		{"no token", "GET", "/v1/me", "", nil, 401, "TOKEN_MISSING"},
		{"unknown route", "GET", "/v1/nothing", tok, nil, 404, "INVALID_REQUEST"},
		{"wrong method", "DELETE", "/v1/me", tok, nil, 404, "INVALID_REQUEST"},
		{"unknown space", "GET", "/v1/spaces/nope/document", tok, nil, 404, "SPACE_NOT_FOUND"},
		{"private space of others", "GET", "/v1/spaces/" + general + "/posts", reader.Token, nil, 403, "READ_DENIED"},
		{"a reader posts", "POST", sp + "/posts", reader.Token, map[string]any{"kind": "obs", "body": "x"}, 403, "WRITE_DENIED"},
		{"a reader takes a task", "POST", sp + "/tasks/next", reader.Token, nil, 403, "TASK_DENIED"},
		{"a reader adds a task", "POST", sp + "/tasks", reader.Token, map[string]any{"title": "x"}, 403, "TASK_DENIED"},
		{"unknown kind", "POST", sp + "/posts", tok, map[string]any{"kind": "rant", "body": "x"}, 400, "INVALID_KIND"},
		{"a retired twin kind", "POST", sp + "/posts", tok, map[string]any{"kind": "note", "body": "x"}, 400, "INVALID_KIND"},
		{"no title", "POST", sp + "/posts", tok, `{"kind":"result","body":"x"}`, 400, "TITLE_REQUIRED"},
		{"a blank title", "POST", sp + "/posts", tok, `{"kind":"dossier","title":"  ","body":"x"}`, 400, "TITLE_REQUIRED"},
		{"no body", "POST", sp + "/posts", tok, map[string]any{"kind": "obs"}, 400, "INVALID_REQUEST"},
		{"task as a number", "POST", sp + "/posts", tok, map[string]any{"kind": "result", "body": "x", "task": 1}, 400, "INVALID_REQUEST"},
		{"unknown task", "POST", sp + "/posts", tok, map[string]any{"kind": "result", "body": "x", "task": map[string]int{"number": 9}}, 404, "TASK_NOT_FOUND"},
		{"a task taken by another", "POST", sp + "/posts", tok, map[string]any{"kind": "result", "body": "x", "task": map[string]int{"number": 1}}, 409, "TASK_NOT_OPEN"},
		{"rests on nothing", "POST", sp + "/posts", tok, map[string]any{"kind": "finding", "title": "t", "body": "x", "data": map[string]any{"claim": "Flaky tests race", "status": "proposed", "confidence": "medium"}, "rests_on": []string{"p_x"}}, 404, "POST_NOT_FOUND"},
		{"a finding with no claim", "POST", sp + "/posts", tok, map[string]any{"kind": "finding", "title": "t", "body": "x"}, 400, "INVALID_REQUEST"},
		{"a finding of no status", "POST", sp + "/posts", tok, map[string]any{"kind": "finding", "title": "t", "body": "x",
			"data": map[string]any{"claim": "c", "status": "sure", "confidence": "high"}}, 400, "INVALID_REQUEST"},
		{"version on a note", "POST", sp + "/posts", tok, map[string]any{"kind": "obs", "body": "x", "version": 1}, 400, "INVALID_REQUEST"},
		{"name taken", "POST", "/v1/spaces", tok, map[string]any{"name": space}, 409, "SPACE_NAME_TAKEN"},
		{"no name", "POST", "/v1/spaces", tok, `{"title":"t"}`, 400, "INVALID_REQUEST"},
		{"no title", "POST", "/v1/spaces", tok, `{"name":"untitled"}`, 400, "INVALID_REQUEST"},
		{"a reserved name", "POST", "/v1/spaces", tok, `{"name":"mailbox","title":"t"}`, 400, "NAME_RESERVED"},
		{"public without categories", "POST", "/v1/spaces", tok, `{"name":"uncategorised","title":"t","visibility":"public"}`, 400, "INVALID_CATEGORY"},
		{"public with no categories", "POST", "/v1/spaces", tok, `{"name":"uncategorised","title":"t","visibility":"public","categories":[]}`, 400, "INVALID_CATEGORY"},
		{"four categories", "POST", "/v1/spaces", tok, `{"name":"overfiled","title":"t","visibility":"public","categories":["general","agents","science","writing"]}`, 400, "INVALID_CATEGORY"},
		{"a category twice", "POST", "/v1/spaces", tok, `{"name":"twice","title":"t","visibility":"public","categories":["general","general"]}`, 400, "INVALID_CATEGORY"},
		{"bad name", "POST", "/v1/spaces", tok, map[string]any{"name": "Bad Name"}, 400, "INVALID_REQUEST"},
		{"bad kind", "POST", "/v1/spaces", tok, map[string]any{"kind": "oracle"}, 400, "INVALID_REQUEST"},
		{"unknown category", "POST", "/v1/spaces", tok, map[string]any{"category": "cooking"}, 400, "INVALID_CATEGORY"},

		{"document of a space without one", "GET", "/v1/spaces/" + general + "/document", tok, nil, 409, "NOT_AN_ORACLE"},
		{"bad invite role", "POST", sp + "/invites", tok, map[string]any{"role": "owner"}, 400, "INVALID_ROLE"},
		{"an admin link", "POST", sp + "/invites", tok, map[string]any{"role": "admin"}, 400, "INVALID_ROLE"},
		{"join with nothing", "POST", "/v1/join", tok, map[string]any{}, 400, "INVALID_REQUEST"},
		{"mailbox after=abc", "GET", "/v1/mailbox?after=abc", tok, nil, 400, "INVALID_REQUEST"},
		{"mailbox limit=0", "GET", "/v1/mailbox?limit=0", tok, nil, 400, "INVALID_REQUEST"},
		{"seek with neither", "GET", "/v1/seek", tok, nil, 400, "INVALID_REQUEST"},
		{"seek with both", "GET", "/v1/seek?q=a&fingerprint=b", tok, nil, 400, "INVALID_REQUEST"},
		{"posts without ids", "GET", "/v1/posts", tok, nil, 400, "INVALID_REQUEST"},
		{"unknown post", "GET", "/v1/posts/p_none", tok, nil, 404, "POST_NOT_FOUND"},
		{"standing detail", "GET", sp + "/standing?detail=huge", tok, nil, 400, "INVALID_REQUEST"},
		{"versions state", "GET", sp + "/versions?state=maybe", tok, nil, 400, "INVALID_REQUEST"},
		{"unknown section", "GET", "/reference?section=nothing", "", nil, 400, "INVALID_REQUEST"},
		{"body too large", "POST", "/v1/keys/challenge", "", `{"public_key":"` + strings.Repeat("a", 1<<20) + `"}`, 413, "TOO_LARGE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := apiDo(t, srv, c.method, c.path, c.token, c.body)
			if a.Status != c.status || a.Get("error.code").String() != c.code {
				t.Fatalf("status %d, want %d; body %s", a.Status, c.status, a.Body)
			}
			if !strings.HasPrefix(a.Header.Get("Content-Type"), "application/json") || a.Get("error.message").String() == "" || a.Get("error.fix").String() == "" {
				t.Errorf("the refusal is not the JSON error shape: %s", a.Body)
			}
		})
	}
}

func TestDocuments(t *testing.T) {
	srv, _ := apiServer(t)
	sec := apiMust(t, srv, 200, "GET", "/reference?section=start-tasks", "", nil)
	if !strings.HasPrefix(string(sec.Body), "## Start: tasks\n") {
		t.Errorf("start-tasks begins %q", sec.Body[:min(40, len(sec.Body))])
	}
	whole := apiMust(t, srv, 200, "GET", "/reference", "", nil)
	for _, name := range []string{"start-research", "start-coordinate", "connector", "kinds", "oauth", "errors"} {
		s := apiMust(t, srv, 200, "GET", "/reference?section="+name, "", nil)
		if !strings.HasPrefix(string(s.Body), "## ") || !strings.Contains(string(whole.Body), string(s.Body)) {
			t.Errorf("section %s is not a part of the whole reference", name)
		}
	}
	sk := apiMust(t, srv, 200, "GET", "/skills/schellingaf/SKILL.md", "", nil)
	etag := sk.Header.Get("ETag")
	if !strings.HasPrefix(sk.Header.Get("Content-Type"), "text/markdown") || etag == "" || !strings.HasPrefix(string(sk.Body), "---\nname: schellingaf\n") {
		t.Errorf("skill: %v %q", sk.Header, sk.Body[:20])
	}
	req := apiDoHeader(t, srv, "GET", "/skills/schellingaf/SKILL.md", "If-None-Match", etag)
	if req.Status != 304 || len(req.Body) != 0 {
		t.Errorf("If-None-Match: %d", req.Status)
	}
	if l := apiMust(t, srv, 200, "GET", "/llms.txt", "", nil); !strings.Contains(string(l.Body), "/reference?section=start-tasks") {
		t.Errorf("llms.txt: %s", l.Body)
	}
	// Every relative route the documents name by method exists.
	for _, doc := range [][]byte{whole.Body, sk.Body} {
		for _, line := range strings.Split(string(doc), "`") {
			m, p, ok := strings.Cut(line, " /v1/")
			if !ok || (m != "GET" && m != "POST") {
				continue
			}
			p = "/v1/" + strings.Fields(p + " ")[0]
			p = strings.NewReplacer("{space}", "s", "{s}", "s", "{yours}", "s", "{id}", "p_1", "<", "", ">", "").Replace(p)
			a := apiDo(t, srv, m, p, "", nil)
			if a.Status == 404 && a.Get("error.code").String() == "NOT_FOUND" || a.Status == 405 {
				t.Errorf("the documents name %s %s, which is no route", m, p)
			}
		}
	}
}

// TestVerifyWithBadInvite: a bad invite refuses verify before a token is
// minted or the KEY kept, so the caller can verify again.
func TestVerifyWithBadInvite(t *testing.T) {
	srv, _ := apiServer(t)
	k := newAPIKey(t)
	ch := apiMust(t, srv, 200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": k.PubHex()})
	sig := ed25519.Sign(k.priv, preimage(ch.Get("audience").String(), ch.Get("challenge").String()))
	body := map[string]any{"public_key": k.PubHex(), "challenge": ch.Get("challenge").String(), "signature": hex.EncodeToString(sig), "invite": "0123"}
	// The KEY and its token stand; the link that does not work is said
	// beside them, in the refusal's own shape.
	v := apiMust(t, srv, 200, "POST", "/v1/keys/verify", "", body)
	if !v.Get("registered").Bool() || v.Get("token").String() == "" || v.Get("joined").Exists() ||
		v.Get("join_refused.code").String() != "INVITE_INVALID" || !strings.HasPrefix(v.Get("join_refused.message").String(), "INVITE_INVALID. ") ||
		v.Get("join_refused.fix").String() == "" {
		t.Errorf("bad invite: %s", v.Body)
	}
	if false {
		t.Errorf("the KEY was kept by the refused call: %s", v.Body)
	}
}

// TestNoServerErrorOnJunk sends malformed bodies to every JSON route: each
// is refused or served, never answered with a 5xx.
func TestNoServerErrorOnJunk(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	space, _ := trialSpace(t, srv, owner, "writer")
	sp := "/v1/spaces/" + space
	routes := []string{"/v1/keys/challenge", "/v1/keys/verify", "/v1/spaces", sp + "/invites", sp + "/join", "/v1/join",
		"/v1/invites/look", sp + "/versions", sp + "/tasks", sp + "/tasks/next", sp + "/posts", sp + "/posts?receipt=full",
		sp + "/members/x/approve", "/oauth/register", "/oauth/token", "/v1/authorizations/x/approve"}
	bodies := []any{"", "null", "[]", `"x"`, "0", "{", `{"kind":null}`, `{"task":null,"kind":"result","body":"b"}`,
		`{"task":{"number":-1},"kind":"result","body":"b"}`, `{"task":{"number":1e30},"kind":"result","body":"b"}`,
		`{"kind":"go","version":-5}`, `{"kind":"finding","body":"b","rests_on":[null,""]}`, `{"tasks":[]}`, `{"tasks":[{}]}`,
		`{"tasks":null,"title":"t"}`, `{"name":"","kind":"work","document":"\u0000"}`, `{"public_key":null,"signature":[1]}`,
		`{"role":"writer","max_uses":-1}`, `{"expires_in_seconds":99999999999999}`, `{"link":"http://x/i/"}`, `{"code":"../../"}`,
		`{"redirect_uris":["::"]}`, `{"body":"` + strings.Repeat("é", 70000) + `"}`, "\xff\xfe",
		`{"name":"hostile","title":"t","document":true,"version":"x"}`, `{"name":"hostile","title":"t","document":true,"version":{"body":null}}`,
		`{"name":"hostile","title":"t","tasks":[{"title":"a","after":["zz"]}]}`, `{"name":"hostile","title":"t","tasks":[{"key":"a","title":"a","after":["a"]}]}`,
		`{"name":"hostile","title":"t","members":[{"peer_id":null,"role":"owner"}]}`, `{"name":"hostile","title":"t","members":[null]}`,
		`{"name":"hostile","title":"t","visibility":"public","categories":[null,1]}`, `{"kind":"version","title":"t","body":"b","data":{"stage":[]}}`}
	for _, r := range routes {
		for _, b := range bodies {
			a := apiDo(t, srv, "POST", r, owner.Token, b)
			if a.Status >= 500 || a.Status < 200 {
				t.Errorf("POST %s %.40q: %d %s", r, b, a.Status, a.Body)
			}
			if a.Status >= 400 && !strings.HasPrefix(a.Header.Get("Content-Type"), "application/json") {
				t.Errorf("POST %s %.40q: a %d refusal that is not JSON: %s", r, b, a.Status, a.Body)
			}
		}
	}
	for _, p := range []string{"/v1/mailbox?after=-1", "/v1/mailbox?after=1e3", "/v1/seek?q=%20", "/v1/seek?fingerprint=&q=",
		"/v1/posts?ids=,,,", sp + "/standing?limit=0", sp + "/standing?limit=x", sp + "/posts?after=-1", "/v1/categories?limit=1000",
		"/reference?section=a&section=b", "/oauth/authorize", "/connect/consent", "/v1/spaces/%00", "/v1/posts/%2F/finding",
		"/v1/spaces?prefix=" + strings.Repeat("x", 100), "/v1/spaces?after=%00&counts=maybe", "/v1/spaces?limit=-1", "/v1/spaces?counts=true&prefix=",
		"/v1/documents", "/v1/documents?spaces=,,,", "/v1/documents?spaces=" + space + "&section=%00", "/v1/documents?spaces=" + strings.Repeat("a,", 30),
		sp + "/tasks?state=x", sp + "/tasks?before=-3", sp + "/tasks?limit=0",
		sp + "/document?version=999", sp + "/document?version=x", sp + "/document?version=-1",
		"/v1/seek?q=x&limit=abc", "/v1/seek?q=x&limit=1e400", "/v1/seek?q=x&limit=-Infinity", "/v1/seek?q=x&token_budget=-5",
		"/v1/seek?q=x&detail=x", "/v1/seek?q=x&author=xyz", "/v1/seek?q=x&kind=,,,", "/v1/seek?q=x&space=%00", "/v1/seek?q=x&category=nope",
		"/v1/seek?q=x&space=a&category=b", "/v1/seek?fingerprint=:", "/v1/seek?fingerprint=a:" + strings.Repeat("&fingerprint=a:b", 9),
		"/v1/seek?q=" + strings.Repeat("%C3%A9", 600), sp + "/posts?detail=everything", sp + "/standing?author=x"} {
		for _, tok := range []string{owner.Token, "", "kt_" + strings.Repeat("0", 48)} {
			a := apiDo(t, srv, "GET", p, tok, nil)
			if a.Status >= 500 {
				t.Errorf("GET %s with %.8q: %d %s", p, tok, a.Status, a.Body)
			}
		}
	}
}

// A member who redeems a link that waits for approval, for a role above
// its own, keeps its role until an admin approves: the link grants nothing
// at once (it did: a reader became a writer on the spot).
func TestApprovalLinkGivesNoHigherRoleAtOnce(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	space, readerLink := trialSpace(t, srv, owner, "reader")
	reader := apiLogin(t, srv)
	apiMust(t, srv, 200, "POST", "/v1/join", reader.Token, map[string]string{"link": readerLink})
	gated := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/invites", owner.Token, map[string]any{"role": "writer", "approval": true}).Get("link").String()
	j := apiMust(t, srv, 200, "POST", "/v1/join", reader.Token, map[string]string{"link": gated})
	if j.Get("state").String() != "pending" || j.Get("start").Exists() {
		t.Errorf("the ask: %s", j.Body)
	}
	me := apiMust(t, srv, 200, "GET", "/v1/me", reader.Token, nil)
	if role := me.Get(`memberships.#(space=="` + space + `").role`).String(); role != "reader" {
		t.Errorf("role before approval %q, want reader: %s", role, me.Body)
	}
	if a := apiMust(t, srv, 403, "POST", "/v1/spaces/"+space+"/posts", reader.Token, map[string]any{"kind": "obs", "body": "x"}); a.Get("error.code").String() != "WRITE_DENIED" {
		t.Errorf("a reader wrote before approval: %s", a.Body)
	}
	apiMust(t, srv, 403, "POST", "/v1/spaces/"+space+"/tasks/next", reader.Token, nil)
	// Asking again changes nothing, and the owner is asked once.
	apiMust(t, srv, 200, "POST", "/v1/join", reader.Token, map[string]string{"link": gated})
	mb := apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", owner.Token, nil)
	if n := mb.Get(`items.#(reason=="ask")#|#`).Int(); n != 1 {
		t.Errorf("the owner was asked %d times: %s", n, mb.Body)
	}
	// The reader cannot approve itself; the owner can.
	apiMust(t, srv, 403, "POST", "/v1/spaces/"+space+"/members/"+reader.Peer+"/approve", reader.Token, nil)
	if ap := apiMust(t, srv, 200, "POST", "/v1/spaces/"+space+"/members/"+reader.Peer+"/approve", owner.Token, nil); ap.Get("role").String() != "writer" {
		t.Errorf("approved: %s", ap.Body)
	}
	apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", reader.Token, map[string]any{"kind": "obs", "body": "x"})
}
