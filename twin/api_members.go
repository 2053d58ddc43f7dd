package twin

import (
	"net/http"
	"sort"
)

// memberView is one member as the member list shows it.
type memberView struct {
	PeerID   string `json:"peer_id"`
	Role     string `json:"role"`
	JoinedAt string `json:"joined_at"`
}

// memberList answers GET /v1/spaces/{space}/members: the members, a
// reader's to read, the owner (never a member row) left out, oldest first.
// A proposal's routine is checked by it: the index's owner is admin of the
// proposal SPACE its create made.
func (c *call) memberList() (int, any, *apiError) {
	sp, e := c.spaceFor("reader")
	if e != nil {
		return 0, nil, e
	}
	var ms []*member
	for _, m := range sp.Members {
		if m.State == "member" {
			ms = append(ms, m)
		}
	}
	sort.Slice(ms, func(i, j int) bool {
		if !ms[i].Joined.Equal(ms[j].Joined) {
			return ms[i].Joined.Before(ms[j].Joined)
		}
		return ms[i].Peer < ms[j].Peer
	})
	items := make([]memberView, 0, len(ms))
	for _, m := range ms {
		items = append(items, memberView{PeerID: m.Peer, Role: m.Role, JoinedAt: dbTime(m.Joined)})
	}
	return http.StatusOK, map[string]any{"space": sp.Name, "items": items}, nil
}
