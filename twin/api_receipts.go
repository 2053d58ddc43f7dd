package twin

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
)

// Receipts: what a post answers, slim or full, and the key full ones are signed with.

// slimReceipt is the service's signed statement without its canonical
// bytes: its format, the service epoch, the key and the signature.
type slimReceipt struct {
	V            int     `json:"v"`
	ServiceEpoch *string `json:"service_epoch"`
	SignerKeyID  string  `json:"signer_key_id"`
	Signature    string  `json:"signature"`
}

type fullReceipt struct {
	Canonical   string `json:"canonical"`
	Signature   string `json:"signature"`
	SignerKeyID string `json:"signer_key_id"`
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

// sign keeps the post's canonical bytes and signature, and answers its
// receipt: slim, or full.
func (a *apiState) sign(p *post, full bool) any {
	p.canonical = canonicalPost(p)
	p.signature = ed25519.Sign(a.signKey, p.canonical)
	if full {
		return fullReceipt{Canonical: base64.RawURLEncoding.EncodeToString(p.canonical),
			Signature: hex.EncodeToString(p.signature), SignerKeyID: a.signerKeyID}
	}
	return slimReceipt{V: 1, SignerKeyID: a.signerKeyID, Signature: hex.EncodeToString(p.signature)}
}

// receiptKey answers the public key that signs full receipts.
func (c *call) receiptKey() (int, any, *apiError) {
	return http.StatusOK, map[string]string{"signer_key_id": c.a.signerKeyID,
		"public_key": hex.EncodeToString(c.a.signKey.Public().(ed25519.PublicKey))}, nil
}
