package twin

import (
	"crypto/ed25519"
	"encoding/hex"
	"net/http"
	"strings"
)

// challengePrefix opens the bytes a KEY signs for a token.
const challengePrefix = "agent-state:token-challenge:v1"

// challengeMessage is the exact pre-image a KEY signs: the prefix, 0x00,
// the audience, 0x00, then the 56 challenge bytes.
func challengeMessage(audience string, chal []byte) []byte {
	m := make([]byte, 0, len(challengePrefix)+len(audience)+2+len(chal))
	m = append(m, challengePrefix...)
	m = append(m, 0)
	m = append(m, audience...)
	m = append(m, 0)
	return append(m, chal...)
}

func parsePublicKey(field, v string) (ed25519.PublicKey, *apiError) {
	b, err := hex.DecodeString(v)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, badRequest(field+" must be the 32-byte Ed25519 public key as 64 hex digits.",
			"Send the raw public key in hex, not PEM or base64.")
	}
	return ed25519.PublicKey(b), nil
}

type challengeAnswer struct {
	PeerID    string `json:"peer_id"`
	Challenge string `json:"challenge"`
	Audience  string `json:"audience"`
	ExpiresAt string `json:"expires_at"`
}

func (c *call) keyChallenge() (int, any, *apiError) {
	var in struct {
		PublicKey string `json:"public_key"`
	}
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	pub, e := parsePublicKey("public_key", strings.ToLower(in.PublicKey))
	if e != nil {
		return 0, nil, e
	}
	a := c.a
	now := a.now()
	// Forget expired challenges as new ones come.
	for k, ch := range a.challenges {
		if !now.Before(ch.Expires) {
			delete(a.challenges, k)
		}
	}
	ch := &challenge{Hex: randHex(56), Pub: hex.EncodeToString(pub), Audience: a.audience(c.r), Expires: now.Add(challengeTTL)}
	a.challenges[ch.Hex] = ch
	return http.StatusOK, challengeAnswer{PeerID: peerID(pub), Challenge: ch.Hex, Audience: ch.Audience, ExpiresAt: dbTime(ch.Expires)}, nil
}

type verifyAnswer struct {
	PeerID     string      `json:"peer_id"`
	Token      string      `json:"token"`
	ExpiresAt  string      `json:"expires_at"`
	Registered bool        `json:"registered"`
	Joined     *joinAnswer `json:"joined,omitempty"`
	// JoinRefused is why the invite did not join, when it did not.
	JoinRefused *refusalBody `json:"join_refused,omitempty"`
}

func (c *call) keyVerify() (int, any, *apiError) {
	var in struct {
		PublicKey string `json:"public_key"`
		Challenge string `json:"challenge"`
		Signature string `json:"signature"`
		Invite    string `json:"invite"`
	}
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	pub, e := parsePublicKey("public_key", strings.ToLower(in.PublicKey))
	if e != nil {
		return 0, nil, e
	}
	a := c.a
	now := a.now()
	ch := a.challenges[strings.ToLower(in.Challenge)]
	if ch == nil || ch.Pub != hex.EncodeToString(pub) {
		return 0, nil, refuse("CHALLENGE_INVALID", "No open challenge matches this public key and challenge.",
			"Ask for a new challenge with POST /v1/keys/challenge and sign it within five minutes.")
	}
	if !now.Before(ch.Expires) {
		delete(a.challenges, ch.Hex)
		return 0, nil, refuse("CHALLENGE_EXPIRED", "The challenge expired at "+dbTime(ch.Expires)+".",
			"Ask for a new challenge with POST /v1/keys/challenge and sign it within five minutes.")
	}
	sig, err := hex.DecodeString(strings.ToLower(in.Signature))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return 0, nil, badRequest("signature must be the 64-byte Ed25519 signature as 128 hex digits.",
			"Sign the challenge's pre-image and send the signature in hex.")
	}
	chal, _ := hex.DecodeString(ch.Hex)
	if !ed25519.Verify(pub, challengeMessage(ch.Audience, chal), sig) {
		return 0, nil, refuse("SIGNATURE_INVALID", "The signature does not verify over the challenge's pre-image.",
			`Sign the bytes "agent-state:token-challenge:v1", 0x00, the audience "`+ch.Audience+`", 0x00, then the 56 challenge bytes (hex-decoded).`)
	}
	delete(a.challenges, ch.Hex)
	id := peerID(pub)
	registered := false
	if a.keys[id] == nil {
		a.keys[id] = &keyRec{PeerID: id, Pub: pub, Registered: now}
		registered = true
	}
	tok := &tokenRec{Token: "kt_" + randHex(24), PeerID: id, Expires: now.Add(keyTokenTTL)}
	a.tokens[tok.Token] = tok
	out := verifyAnswer{PeerID: id, Token: tok.Token, ExpiresAt: dbTime(tok.Expires), Registered: registered}
	if in.Invite != "" {
		// The KEY and its token stand whatever the link does; a link that
		// does not work is said beside them, as POST /v1/join would refuse it.
		j, e := a.redeem(Principal{PeerID: id}, in.Invite, "")
		if e != nil {
			b := e.body()
			out.JoinRefused = &b
		} else {
			out.Joined = j
		}
	}
	return http.StatusOK, out, nil
}

type membershipView struct {
	Space      string `json:"space"`
	Title      string `json:"title,omitempty"`
	Kind       string `json:"kind"`
	Visibility string `json:"visibility"`
	Role       string `json:"role"`
	State      string `json:"state"`
	JoinedAt   string `json:"joined_at"`
}

type meAnswer struct {
	PeerID       string           `json:"peer_id"`
	Token        string           `json:"token_kind"`
	RegisteredAt string           `json:"registered_at"`
	Memberships  []membershipView `json:"memberships"`
	NextAfter    int64            `json:"next_after"`
	HeadSeq      int64            `json:"head_seq"`
}

func (c *call) me() (int, any, *apiError) {
	a := c.a
	k := a.keys[c.p.PeerID]
	out := meAnswer{PeerID: c.p.PeerID, Token: "key", Memberships: []membershipView{}}
	if c.p.App {
		out.Token = "app"
	}
	if k != nil {
		out.RegisteredAt = dbTime(k.Registered)
		out.NextAfter = k.Cursor
	}
	if mb := a.mail[c.p.PeerID]; mb != nil {
		out.HeadSeq = mb.Head
	}
	for _, sp := range a.spacesOf(c.p.PeerID) {
		m := sp.Members[c.p.PeerID]
		out.Memberships = append(out.Memberships, membershipView{Space: sp.Name, Title: sp.Title, Kind: sp.Kind,
			Visibility: sp.Visibility, Role: m.Role, State: m.State, JoinedAt: dbTime(m.Joined)})
	}
	return http.StatusOK, out, nil
}

type mailView struct {
	Seq     int64  `json:"seq"`
	Kind    string `json:"kind"`
	Space   string `json:"space"`
	Post    string `json:"post,omitempty"`
	From    string `json:"from,omitempty"`
	Task    int    `json:"task,omitempty"`
	Version int    `json:"version,omitempty"`
	Summary string `json:"summary"`
	At      string `json:"at"`
}

type mailAnswer struct {
	Items     []mailView `json:"items"`
	NextAfter int64      `json:"next_after"`
	HasMore   bool       `json:"has_more"`
	HeadSeq   int64      `json:"head_seq"`
}

func (c *call) mailboxRead() (int, any, *apiError) {
	after, e := c.queryInt("after", 0, 0, 1<<53-1)
	if e != nil {
		return 0, nil, e
	}
	limit, e := c.queryInt("limit", 50, 1, 200)
	if e != nil {
		return 0, nil, e
	}
	a := c.a
	out := mailAnswer{Items: []mailView{}, NextAfter: after}
	if mb := a.mail[c.p.PeerID]; mb != nil {
		out.HeadSeq = mb.Head
		for _, it := range mb.Items {
			if it.Seq <= after {
				continue
			}
			if int64(len(out.Items)) == limit {
				out.HasMore = true
				break
			}
			out.Items = append(out.Items, mailView{Seq: it.Seq, Kind: it.Kind, Space: it.Space, Post: it.Post, From: it.From,
				Task: it.Task, Version: it.Version, Summary: it.Summary, At: dbTime(it.At)})
			out.NextAfter = it.Seq
		}
	}
	if k := a.keys[c.p.PeerID]; k != nil && out.NextAfter > k.Cursor {
		k.Cursor = out.NextAfter
	}
	return http.StatusOK, out, nil
}
