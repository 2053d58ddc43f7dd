package twin_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/readmeter/readmeter/twin"
)

var dbTimeRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?\+00:00$`)

func TestHTTPWalk(t *testing.T) {
	srv, _ := apiServer(t)
	owner := apiLogin(t, srv)
	space, link := trialSpace(t, srv, owner, "writer")

	// The primer.
	primer := apiMust(t, srv, 200, "GET", "/", "", nil)
	if ct := primer.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/markdown") {
		t.Errorf("primer Content-Type %q", ct)
	}
	if !strings.Contains(string(primer.Body), "- start-tasks, about ") {
		t.Errorf("primer lacks the sized list of sections")
	}

	// The challenge, then the token, registered and joined.
	agent := newAPIKey(t)
	ch := apiMust(t, srv, 200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": agent.PubHex()})
	if n := len(ch.Get("challenge").String()); n != 112 {
		t.Errorf("challenge has %d hex digits, want 112", n)
	}
	if got, want := ch.Get("audience").String(), strings.TrimPrefix(srv.URL, "http://"); got != want {
		t.Errorf("audience %q, want the API host %q", got, want)
	}
	if !dbTimeRE.MatchString(ch.Get("expires_at").String()) {
		t.Errorf("expires_at %q is not a database time", ch.Get("expires_at"))
	}
	sig := ed25519.Sign(agent.priv, preimage(ch.Get("audience").String(), ch.Get("challenge").String()))
	v := apiMust(t, srv, 200, "POST", "/v1/keys/verify", "", map[string]any{"public_key": agent.PubHex(),
		"challenge": ch.Get("challenge").String(), "signature": hex.EncodeToString(sig), "invite": link})
	agent.Token, agent.Peer = v.Get("token").String(), v.Get("peer_id").String()
	if v.Get("peer_id").String() != ch.Get("peer_id").String() || len(agent.Peer) != 64 {
		t.Errorf("peer ids differ or are not 64 hex: %s / %s", v.Get("peer_id"), ch.Get("peer_id"))
	}
	if !v.Get("registered").Bool() {
		t.Errorf("registered is false for a new KEY: %s", v.Body)
	}
	if got := v.Get("joined.name").String(); got != space || !v.Get("joined.changed").Bool() || v.Get("joined.revision").String() == "" {
		t.Errorf("joined.name %q, want %q: %s", got, space, v.Get("joined").Raw)
	}
	if v.Get("joined.role").String() != "writer" || v.Get("joined.start").String() != "start-tasks" {
		t.Errorf("joined: %s", v.Get("joined").Raw)
	}

	// Set-up, not counted: the agent's own private space and a dossier.
	own := apiMust(t, srv, 201, "POST", "/v1/spaces", agent.Token, map[string]any{"title": "Mine"}).Get("name").String()
	apiMust(t, srv, 201, "POST", "/v1/spaces/"+own+"/posts", agent.Token, map[string]any{
		"kind": "dossier", "title": "Dossier", "body": "mailbox cursor 0"})

	// Who you are.
	me := apiMust(t, srv, 200, "GET", "/v1/me", agent.Token, nil)
	if me.Get("peer_id").String() != agent.Peer || me.Get("memberships.#").Int() != 2 {
		t.Errorf("me: %s", me.Body)
	}
	if me.Get(`memberships.#(space=="`+space+`").role`).String() != "writer" {
		t.Errorf("me lacks the writer membership of %s: %s", space, me.Body)
	}
	after := me.Get("mailbox_head").Int()

	// Your own newest dossier.
	st := apiMust(t, srv, 200, "GET", "/v1/spaces/"+own+"/standing?kind=dossier&author="+agent.Peer+"&limit=1&detail=full", agent.Token, nil)
	if st.Get("items.#").Int() != 1 || st.Get("items.0.body").String() != "mailbox cursor 0" {
		t.Errorf("standing: %s", st.Body)
	}

	// Your mailbox.
	mb := apiMust(t, srv, 200, "GET", "/v1/mailbox?after="+itoa(after), agent.Token, nil)
	for _, f := range []string{"items", "next_after", "has_more", "head_seq"} {
		if !mb.Get(f).Exists() {
			t.Errorf("mailbox lacks %s: %s", f, mb.Body)
		}
	}

	// Read the document.
	doc := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/document", agent.Token, nil)
	if !strings.HasPrefix(doc.Get("text").String(), "How to work here") || doc.Get("version.seq").String() != "1" {
		t.Errorf("document: %s", doc.Body)
	}

	// Take the next task.
	next := apiMust(t, srv, 200, "POST", "/v1/spaces/"+space+"/tasks/next", agent.Token, nil)
	num := next.Get("task.number").Int()
	fp := "task.reference:" + space + "/" + next.Get("task.number").String()
	if num != 1 || next.Get("task.state").String() != "claimed" || fp != "task.reference:"+space+"/1" {
		t.Errorf("tasks/next: %s", next.Body)
	}

	// SEEK before the work.
	sk := apiMust(t, srv, 200, "GET", "/v1/seek?fingerprint="+q(fp), agent.Token, nil)
	if sk.Get("items.#").Int() != 0 {
		t.Errorf("seek before the work found %s", sk.Body)
	}

	// POST the result, which marks the task done.
	res := apiMust(t, srv, 201, "POST", "/v1/spaces/"+space+"/posts", agent.Token, map[string]any{
		"kind": "result", "title": "Task 1 result", "body": "The primer costs 1,234 tokens.", "task": map[string]int{"number": int(num)}})
	if res.Get("task.state").String() != "done" || res.Get("task.number").Int() != 1 {
		t.Errorf("result: %s", res.Body)
	}
	if res.Get("receipt.v").Int() != 1 || len(res.Get("receipt.signature").String()) != 128 || len(res.Get("receipt.signer_key_id").String()) != 64 || res.Get("receipt.canonical").Exists() {
		t.Errorf("the default receipt is not slim: %s", res.Get("receipt").Raw)
	}

	// Your mailbox again.
	mb2 := apiMust(t, srv, 200, "GET", "/v1/mailbox?after="+mb.Get("next_after").String(), agent.Token, nil)
	if mb2.Get("items.#").Int() != 0 {
		t.Errorf("the agent's own post reached its mailbox: %s", mb2.Body)
	}

	// What the owner sees: the join and the result, the task done, the
	// result found by its fingerprint.
	omb := apiMust(t, srv, 200, "GET", "/v1/mailbox?after=0", owner.Token, nil)
	if omb.Get("items.#").Int() != 2 || omb.Get("items.0.reason").String() != "joined" ||
		omb.Get("items.1.reason").String() != "post" || omb.Get("items.1.post.post_id").String() != res.Get("post_id").String() {
		t.Errorf("owner's mailbox: %s", omb.Body)
	}
	if omb.Get("head_seq").Int() != 2 || omb.Get("next_after").Int() != 2 || omb.Get("has_more").Bool() {
		t.Errorf("owner's mailbox cursors: %s", omb.Body)
	}
	if got := apiMust(t, srv, 200, "GET", "/v1/me", owner.Token, nil).Get("mailbox_head").Int(); got != 2 {
		t.Errorf("me.mailbox_head after reading the mailbox = %d, want 2", got)
	}
	tasks := apiMust(t, srv, 200, "GET", "/v1/spaces/"+space+"/tasks", owner.Token, nil)
	if tasks.Get("items.0.state").String() != "done" || tasks.Get("items.#").Int() != 1 || tasks.Get("has_more").Bool() {
		t.Errorf("tasks: %s", tasks.Body)
	}
	sk2 := apiMust(t, srv, 200, "GET", "/v1/seek?fingerprint="+q(fp), owner.Token, nil)
	if sk2.Get("items.#").Int() != 1 || sk2.Get("items.0.post_id").String() != res.Get("post_id").String() {
		t.Errorf("seek after the work: %s", sk2.Body)
	}
	// No task is left.
	none := apiMust(t, srv, 200, "POST", "/v1/spaces/"+space+"/tasks/next", agent.Token, nil)
	if none.Get("task").Type.String() != "Null" {
		t.Errorf("tasks/next with none open: %s", none.Body)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestVerifyRefusesWrongPreimage(t *testing.T) {
	srv, _ := apiServer(t)
	k := newAPIKey(t)
	ch := apiMust(t, srv, 200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": k.PubHex()})
	aud, chal := ch.Get("audience").String(), ch.Get("challenge").String()
	good := preimage(aud, chal)
	wrong := map[string][]byte{
		"another audience":  preimage("example.com", chal),
		"no separators":     []byte(strings.ReplaceAll(string(good), "\x00", "")),
		"challenge as text": append([]byte("agent-state:token-challenge:v1\x00"+aud+"\x00"), chal...),
		"another prefix":    append([]byte("agent-state:token-challenge:v2"), good[30:]...),
		"challenge only":    good[len(good)-56:],
		"a byte too many":   append(append([]byte{}, good...), 0),
	}
	for name, msg := range wrong {
		t.Run(name, func(t *testing.T) {
			sig := ed25519.Sign(k.priv, msg)
			a := apiMust(t, srv, 401, "POST", "/v1/keys/verify", "", map[string]any{"public_key": k.PubHex(), "challenge": chal, "signature": hex.EncodeToString(sig)})
			if a.Get("error.code").String() != "SIGNATURE_INVALID" || a.Get("error.fix").String() == "" {
				t.Errorf("refusal: %s", a.Body)
			}
		})
	}
	// Another KEY's signature over the right bytes is refused too.
	other := newAPIKey(t)
	sig := ed25519.Sign(other.priv, good)
	apiMust(t, srv, 401, "POST", "/v1/keys/verify", "", map[string]any{"public_key": k.PubHex(), "challenge": chal, "signature": hex.EncodeToString(sig)})
	// The challenge still stands after refusals; the right one passes once.
	sig = ed25519.Sign(k.priv, good)
	body := map[string]any{"public_key": k.PubHex(), "challenge": chal, "signature": hex.EncodeToString(sig)}
	apiMust(t, srv, 200, "POST", "/v1/keys/verify", "", body)
	if a := apiMust(t, srv, 401, "POST", "/v1/keys/verify", "", body); a.Get("error.code").String() != "CHALLENGE_INVALID" {
		t.Errorf("a challenge used twice: %s", a.Body)
	}
}

func TestAudienceOption(t *testing.T) {
	// Options.APIHost replaces the request's Host as the audience.
	srv := httptest.NewServer(twin.New(twin.Options{APIHost: "api.example"}))
	defer srv.Close()
	k := newAPIKey(t)
	ch := apiMust(t, srv, 200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": k.PubHex()})
	if got := ch.Get("audience").String(); got != "api.example" {
		t.Fatalf("audience %q, want api.example", got)
	}
	chal := ch.Get("challenge").String()
	sig := ed25519.Sign(k.priv, preimage(strings.TrimPrefix(srv.URL, "http://"), chal))
	apiMust(t, srv, 401, "POST", "/v1/keys/verify", "", map[string]any{"public_key": k.PubHex(), "challenge": chal, "signature": hex.EncodeToString(sig)})
	sig = ed25519.Sign(k.priv, preimage("api.example", chal))
	apiMust(t, srv, 200, "POST", "/v1/keys/verify", "", map[string]any{"public_key": k.PubHex(), "challenge": chal, "signature": hex.EncodeToString(sig)})
}

func TestTokensExpireAndWrongOnes401(t *testing.T) {
	srv, clock := apiServer(t)
	k := apiLogin(t, srv)
	apiMust(t, srv, 200, "GET", "/v1/me", k.Token, nil)
	for name, c := range map[string][2]string{"none": {"", "TOKEN_MISSING"}, "wrong": {"kt_nothing", "TOKEN_INVALID"}, "altered": {k.Token + "0", "TOKEN_INVALID"}} {
		a := apiMust(t, srv, 401, "GET", "/v1/me", c[0], nil)
		if a.Get("error.code").String() != c[1] || a.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s token: %s", name, a.Body)
		}
	}
	clock.Add(24*time.Hour + time.Second)
	apiMust(t, srv, 401, "GET", "/v1/me", k.Token, nil)

	// An expired challenge is refused.
	k2 := newAPIKey(t)
	ch := apiMust(t, srv, 200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": k2.PubHex()})
	clock.Add(6 * time.Minute)
	sig := ed25519.Sign(k2.priv, preimage(ch.Get("audience").String(), ch.Get("challenge").String()))
	a := apiMust(t, srv, 401, "POST", "/v1/keys/verify", "", map[string]any{"public_key": k2.PubHex(),
		"challenge": ch.Get("challenge").String(), "signature": hex.EncodeToString(sig)})
	if a.Get("error.code").String() != "CHALLENGE_EXPIRED" {
		t.Errorf("expired challenge: %s", a.Body)
	}
}

func TestStart(t *testing.T) {
	base, stop, err := twin.Start(twin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Errorf("base URL %q", base)
	}
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET /: %d", resp.StatusCode)
	}
	stop()
	if resp, err := http.Get(base + "/"); err == nil {
		resp.Body.Close()
		t.Errorf("the twin still answers after stop")
	}
}
