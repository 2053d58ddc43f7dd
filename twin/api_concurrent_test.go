package twin_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// walker runs the http walk from a goroutine of its own, with its client,
// against the twin at base; the first failure stops it and is kept.
type walker struct {
	client *http.Client
	base   string
	err    error
	// what the walk wrote: its SPACE's owner, and the result post
	owner, post string
}

func (w *walker) must(want int, method, path, token string, body any) apiAnswer {
	if w.err != nil {
		return apiAnswer{}
	}
	a, err := apiSendTo(w.client, w.base, method, path, token, body)
	if err == nil && a.Status != want {
		err = fmt.Errorf("%s %s: status %d, want %d: %s", method, path, a.Status, want, a.Body)
	}
	w.err = err
	return a
}

func (w *walker) check(ok bool, format string, args ...any) {
	if w.err == nil && !ok {
		w.err = fmt.Errorf(format, args...)
	}
}

func (w *walker) login(extra map[string]any) (token, peer string, v apiAnswer) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	ch := w.must(200, "POST", "/v1/keys/challenge", "", map[string]string{"public_key": hex.EncodeToString(pub)})
	sig := ed25519.Sign(priv, preimage(ch.Get("audience").String(), ch.Get("challenge").String()))
	body := map[string]any{"public_key": hex.EncodeToString(pub), "challenge": ch.Get("challenge").String(), "signature": hex.EncodeToString(sig)}
	for k, val := range extra {
		body[k] = val
	}
	v = w.must(200, "POST", "/v1/keys/verify", "", body)
	return v.Get("token").String(), v.Get("peer_id").String(), v
}

// walk is the first-task walk over HTTP with its set-up: an owner, a work
// space with one task, an agent that joins by the link and finishes it.
func (w *walker) walk() (space string) {
	owner, _, _ := w.login(nil)
	space = w.must(201, "POST", "/v1/spaces", owner, map[string]any{"kind": "work", "document": "How to work here."}).Get("name").String()
	w.must(201, "POST", "/v1/spaces/"+space+"/tasks", owner, map[string]any{"title": "The one task"})
	link := w.must(201, "POST", "/v1/spaces/"+space+"/invites", owner, nil).Get("link").String()

	w.must(200, "GET", "/", "", nil)
	agent, peer, v := w.login(map[string]any{"invite": link})
	w.check(v.Get("joined.name").String() == space && v.Get("joined.start").String() == "start-tasks", "joined: %s", v.Body)
	me := w.must(200, "GET", "/v1/me", agent, nil)
	w.check(me.Get("memberships.#").Int() == 1 && me.Get("memberships.0.space").String() == space, "me sees another walk: %s", me.Body)
	w.must(200, "GET", "/v1/spaces/"+space+"/standing?kind=dossier&author="+peer+"&limit=1&detail=full", agent, nil)
	mb := w.must(200, "GET", "/v1/mailbox?after=0", agent, nil)
	w.check(mb.Get("items.#").Int() == 0, "a fresh agent's mailbox: %s", mb.Body)
	w.must(200, "GET", "/v1/spaces/"+space+"/document", agent, nil)
	next := w.must(200, "POST", "/v1/spaces/"+space+"/tasks/next", agent, nil)
	w.check(next.Get("task.number").Int() == 1, "next: %s", next.Body)
	fp := "task.reference:" + space + "/" + next.Get("task.number").String()
	sk := w.must(200, "GET", "/v1/seek?fingerprint="+q(fp), agent, nil)
	w.check(sk.Get("items.#").Int() == 0, "seek before: %s", sk.Body)
	res := w.must(201, "POST", "/v1/spaces/"+space+"/posts", agent, map[string]any{"kind": "result", "body": "done", "task": map[string]int{"number": 1}})
	w.owner, w.post = owner, res.Get("post_id").String()
	w.check(res.Get("task.state").String() == "done", "result: %s", res.Body)
	w.must(200, "GET", "/v1/mailbox?after="+mb.Get("next_after").String(), agent, nil)

	// Nothing lost, nothing from elsewhere.
	sk = w.must(200, "GET", "/v1/seek?q=done", agent, nil)
	w.check(sk.Get("items.#").Int() == 1 && sk.Get("items.0.post_id").String() == res.Get("post_id").String(), "seek after: %s", sk.Body)
	omb := w.must(200, "GET", "/v1/mailbox?after=0", owner, nil)
	w.check(omb.Get("items.#").Int() == 2 && omb.Get("items.1.post.post_id").String() == res.Get("post_id").String(), "owner's mailbox: %s", omb.Body)
	return space
}

func TestConcurrentWalkers(t *testing.T) {
	srv, _ := apiServer(t)
	const n = 20
	walkers := make([]*walker, n)
	spaces := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		walkers[i] = &walker{client: srv.Client(), base: srv.URL}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			spaces[i] = walkers[i].walk()
		}()
	}
	close(start)
	wg.Wait()
	seen := map[string]bool{}
	for i, w := range walkers {
		if w.err != nil {
			t.Errorf("walker %d: %v", i, w.err)
		}
		if seen[spaces[i]] {
			t.Errorf("walker %d shares space %s", i, spaces[i])
		}
		seen[spaces[i]] = true
	}
	// A stranger reads none of the walks' private spaces.
	owner := apiLogin(t, srv)
	for _, sp := range spaces {
		a := apiDo(t, srv, "GET", "/v1/spaces/"+sp+"/tasks", owner.Token, nil)
		if a.Status != 403 || a.Get("error.code").String() != "READ_DENIED" {
			t.Errorf("a stranger reads the private space %s: %d", sp, a.Status)
		}
	}
}
