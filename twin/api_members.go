package twin

import (
	"net/http"
	"sort"
)

// memberView is one member as the member list shows it, in the service's
// fields and order. The twin's links have no ids: invite_id is null.
type memberView struct {
	PeerID    string   `json:"peer_id"`
	Role      string   `json:"role"`
	Tags      []string `json:"tags"`
	Via       string   `json:"via"`
	GrantedBy string   `json:"granted_by"`
	GrantedAt string   `json:"granted_at"`
	ManagedBy *string  `json:"managed_by"`
	InviteID  *string  `json:"invite_id"`
}

// memberList answers GET /v1/spaces/{space}/members as the service does:
// the roster is its members' alone, whatever the SPACE's visibility; the
// owner, never a member row, is named once as owner; the members come by
// peer id, a page of limit (100 unless asked, 200 at most) after the peer
// id after names, one role or one peer if asked. A full page says has_more
// and hands its last peer id back as next_after. A proposal's routine is
// checked by it: the index's owner is admin of the proposal's SPACE.
func (c *call) memberList() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	if sp.member(c.p.PeerID) == nil {
		return 0, nil, refuse("READ_DENIED", "the members of "+sp.Name+" are its members' to read",
			"Join it with an invite link (POST /v1/join) first.")
	}
	q := c.r.URL.Query()
	after, role, peer := q.Get("after"), q.Get("role"), q.Get("peer")
	if after != "" && !hex64.MatchString(after) {
		return 0, nil, badRequest("after is the next_after a page gave you", "Send the next_after of the page before.")
	}
	if peer != "" && !hex64.MatchString(peer) {
		return 0, nil, badRequest("peer is a peer id: 64 lowercase hex characters", "Send a peer id.")
	}
	if _, ok := roleRank[role]; role != "" && !ok {
		return 0, nil, refuse("INVALID_ROLE", role, "Send one of reader, writer, coordinator, admin.")
	}
	limit, e := c.queryInt("limit", 100, 1, 200)
	if e != nil {
		return 0, nil, e
	}
	var ms []*member
	for _, m := range sp.Members {
		if m.State == "member" && m.Peer != sp.Owner && m.Peer > after &&
			(role == "" || m.Role == role) && (peer == "" || m.Peer == peer) {
			ms = append(ms, m)
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Peer < ms[j].Peer })
	if len(ms) > int(limit) {
		ms = ms[:limit]
	}
	out := struct {
		Owner     string       `json:"owner"`
		Items     []memberView `json:"items"`
		NextAfter *string      `json:"next_after"`
		HasMore   bool         `json:"has_more"`
	}{Owner: sp.Owner, Items: make([]memberView, 0, len(ms)), HasMore: len(ms) == int(limit)}
	for _, m := range ms {
		v := memberView{PeerID: m.Peer, Role: m.Role, Tags: []string{}, Via: m.Via, GrantedBy: m.GrantedBy, GrantedAt: jsTime(m.Joined)}
		if v.GrantedBy == "" {
			v.GrantedBy = sp.Owner
		}
		if v.Via == "" {
			v.Via = "invite"
		}
		// Who decided it, while that KEY is still in the SPACE.
		if by := v.GrantedBy; by == sp.Owner || sp.member(by) != nil {
			v.ManagedBy = &by
		}
		out.Items = append(out.Items, v)
	}
	if out.HasMore {
		out.NextAfter = &ms[len(ms)-1].Peer
	}
	return http.StatusOK, out, nil
}
