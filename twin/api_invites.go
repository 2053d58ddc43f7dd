package twin

import (
	"net/http"
	"strconv"
	"strings"
)

// Invites and joining: invite links, what a link says, joining by link or
// by name, and an admin's approval of an ask.

type inviteView struct {
	Code      string `json:"code"`
	Link      string `json:"link"`
	Space     string `json:"space"`
	Role      string `json:"role"`
	MaxUses   int    `json:"max_uses,omitempty"`
	Approval  bool   `json:"approval,omitempty"`
	ExpiresAt string `json:"expires_at"`
}

func (c *call) inviteCreate() (int, any, *apiError) {
	sp, e := c.spaceFor("admin")
	if e != nil {
		return 0, nil, e
	}
	var in struct {
		Role             string `json:"role"`
		MaxUses          int    `json:"max_uses"`
		ExpiresInSeconds int64  `json:"expires_in_seconds"`
		Approval         bool   `json:"approval"`
	}
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	if in.Role == "" {
		in.Role = "writer"
	}
	if in.Role != "reader" && in.Role != "writer" && in.Role != "coordinator" {
		return 0, nil, refuse("INVALID_ROLE", "a link gives coordinator, writer or reader, not "+quote(in.Role),
			"Leave role out for writer; an admin is made by handing a seat over, never by a link.")
	}
	if in.MaxUses < 0 || in.ExpiresInSeconds < 0 || in.ExpiresInSeconds > 365*24*3600 {
		return 0, nil, badRequest("max_uses and expires_in_seconds must be positive (expires_in_seconds at most a year).",
			"Leave them out for unlimited uses and seven days.")
	}
	a := c.a
	now := a.now()
	ttl := inviteTTL
	if in.ExpiresInSeconds > 0 {
		ttl = secondsDur(in.ExpiresInSeconds)
	}
	inv := &invite{Code: "schellingaf_inv_" + randHex(16), Space: sp.Name, Role: in.Role, Creator: c.p.PeerID, Created: now,
		Expires: now.Add(ttl), MaxUses: in.MaxUses, Approval: in.Approval}
	a.invites[inv.Code] = inv
	return http.StatusCreated, inviteView{Code: inv.Code, Link: baseURL(c.r) + "/join/" + sp.Name + "/" + inv.Code, Space: sp.Name,
		Role: inv.Role, MaxUses: inv.MaxUses, Approval: inv.Approval, ExpiresAt: dbTime(inv.Expires)}, nil
}

// inviteCode takes a code out of an invite link (…/join/SPACE/CODE, the
// service's form) or returns a bare code as it is.
func inviteCode(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "/join/"); i >= 0 {
		s = s[i+6:]
		if j := strings.IndexByte(s, '/'); j >= 0 {
			s = s[j+1:]
		}
	}
	if i := strings.IndexAny(s, "?#/"); i >= 0 {
		s = s[:i]
	}
	return strings.ToLower(s)
}

// findInvite looks an invite up by link or code.
func (a *apiState) findInvite(linkOrCode string) (*invite, *apiError) {
	if strings.TrimSpace(linkOrCode) == "" {
		return nil, badRequest("An invite link or code is required.", "Send link (the invite's link) or code.")
	}
	inv := a.invites[inviteCode(linkOrCode)]
	if inv == nil {
		return nil, refuse("INVITE_INVALID", "No invite matches that link or code.",
			"Check the link as the space's owner sent it, or ask for a new one.")
	}
	if !a.now().Before(inv.Expires) {
		return nil, refuse("INVITE_EXPIRED", "The invite expired at "+dbTime(inv.Expires)+".", "Ask the space's owner for a new link.")
	}
	return inv, nil
}

type joinAnswer struct {
	Name     string   `json:"name"`
	Role     string   `json:"role"`
	Tags     []string `json:"tags"`
	State    string   `json:"state"`
	Changed  bool     `json:"changed"`
	Revision string   `json:"revision"`
	Start    string   `json:"start,omitempty"`
}

// joined is where a join left peer in sp, as the service answers it: the
// SPACE's name, the role, the tags, the state, whether this call changed
// it, the SPACE's revision, and the section to start from.
func joined(sp *space, role, state string, changed bool) *joinAnswer {
	return &joinAnswer{Name: sp.Name, Role: role, Tags: []string{}, State: state, Changed: changed,
		Revision: strconv.FormatInt(sp.revision(), 10), Start: startFor(sp, role, state)}
}

// startFor names the reference section for the work in sp, when sp has a
// task not yet accepted and role may take it.
func startFor(sp *space, role, state string) string {
	if state == "member" && roleRank[role] >= roleRank["writer"] && sp.hasOpenTasks() {
		return "start-tasks"
	}
	return ""
}

// redeem joins p to the invite's space. wantSpace, when set, must be the
// invite's space.
func (a *apiState) redeem(p Principal, linkOrCode, wantSpace string) (*joinAnswer, *apiError) {
	inv, e := a.findInvite(linkOrCode)
	if e != nil {
		return nil, e
	}
	if wantSpace != "" && inv.Space != wantSpace {
		return nil, badRequest("The invite is for another space than "+quote(wantSpace)+".",
			"Send the invite to POST /v1/join, or use the space it names.")
	}
	sp := a.spaces[inv.Space]
	m := sp.Members[p.PeerID]
	changed := false
	if m == nil || m.State != "member" || roleRank[m.Role] < roleRank[inv.Role] {
		changed = true
		if inv.MaxUses > 0 && inv.Uses >= inv.MaxUses {
			return nil, refuse("INVITE_EXHAUSTED", "The invite was used its "+itoa(inv.MaxUses)+" times.", "Ask the space's owner for a new link.")
		}
		inv.Uses++
		now := a.now()
		state, kind, summary := "member", "joined", "A peer joined "+sp.Name+" as "+inv.Role+"."
		if inv.Approval {
			// A link that waits for approval gives nothing at once, a higher
			// role to a member included: the role waits for an admin.
			kind, summary = "ask", "A peer asks to join "+sp.Name+" as "+inv.Role+"; approve with POST /v1/spaces/"+sp.Name+"/members/"+p.PeerID+"/approve."
			if m != nil && m.State == "member" {
				if m.Asked != inv.Role {
					a.toAdmins(sp, mailItem{Kind: kind, Space: sp.Name, From: p.PeerID, At: now, Summary: summary})
				}
				changed := m.Asked != inv.Role
				m.Asked = inv.Role
				return joined(sp, inv.Role, "pending", changed), nil
			}
			state = "pending"
		}
		if m == nil || m.State != state {
			a.toAdmins(sp, mailItem{Kind: kind, Space: sp.Name, From: p.PeerID, At: now, Summary: summary})
		}
		if m == nil {
			m = &member{Peer: p.PeerID, Joined: now}
			sp.Members[p.PeerID] = m
			sp.MemberOrder = append(sp.MemberOrder, p.PeerID)
		}
		m.Role, m.State, m.Via, m.GrantedBy = inv.Role, state, "invite", inv.Creator
	}
	return joined(sp, m.Role, m.State, changed), nil
}

type linkInput struct {
	Link string `json:"link"`
	Code string `json:"code"`
}

func (l linkInput) value() string {
	if l.Link != "" {
		return l.Link
	}
	return l.Code
}

func (c *call) join() (int, any, *apiError) {
	var in linkInput
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	j, e := c.a.redeem(c.p, in.value(), "")
	if e != nil {
		return 0, nil, e
	}
	return http.StatusOK, j, nil
}

func (c *call) spaceJoin() (int, any, *apiError) {
	var in linkInput
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	name := c.r.PathValue("space")
	a := c.a
	if in.value() != "" {
		j, e := a.redeem(c.p, in.value(), name)
		if e != nil {
			return 0, nil, e
		}
		return http.StatusOK, j, nil
	}
	sp := a.spaces[name]
	if sp == nil || sp.Visibility != "public" {
		return 0, nil, refuse("SPACE_NOT_FOUND", "No public space is named "+quote(name)+".",
			"A private space is joined with an invite: send code or link.")
	}
	// Without an invite a public space is followed, not joined: the state
	// is open, a reader's, and no membership.
	m := sp.Members[c.p.PeerID]
	changed := m == nil
	if m == nil {
		m = &member{Peer: c.p.PeerID, Role: "reader", State: "open", Joined: a.now()}
		sp.Members[c.p.PeerID] = m
		sp.MemberOrder = append(sp.MemberOrder, c.p.PeerID)
	}
	return http.StatusOK, joined(sp, m.Role, m.State, changed), nil
}

func (c *call) inviteLook() (int, any, *apiError) {
	var in linkInput
	if e := c.decode(&in); e != nil {
		return 0, nil, e
	}
	inv, e := c.a.findInvite(in.value())
	if e != nil {
		return 0, nil, e
	}
	sp := c.a.spaces[inv.Space]
	out := struct {
		Space      string `json:"space"`
		Title      string `json:"title,omitempty"`
		Kind       string `json:"kind"`
		Visibility string `json:"visibility"`
		Role       string `json:"role"`
		Member     bool   `json:"member"`
		Approval   bool   `json:"approval,omitempty"`
		ExpiresAt  string `json:"expires_at"`
		Start      string `json:"start,omitempty"`
	}{Space: sp.Name, Title: sp.Title, Kind: sp.Kind, Visibility: sp.Visibility, Role: inv.Role,
		Member: sp.member(c.p.PeerID) != nil, Approval: inv.Approval, ExpiresAt: dbTime(inv.Expires)}
	// A stranger learns nothing of a private space's tasks; a link that
	// waits for approval gives no membership yet.
	if (out.Member || sp.Visibility == "public") && !(inv.Approval && !out.Member) {
		out.Start = startFor(sp, inv.Role, "member")
	}
	return http.StatusOK, out, nil
}

// toAdmins delivers it to the space's admins and owners.
func (a *apiState) toAdmins(sp *space, it mailItem) {
	for _, peer := range sp.MemberOrder {
		if m := sp.member(peer); m != nil && roleRank[m.Role] >= roleRank["admin"] {
			a.deliver(peer, it)
		}
	}
}

// memberApprove turns a pending ask into a membership.
func (c *call) memberApprove() (int, any, *apiError) {
	sp, e := c.spaceFor("admin")
	if e != nil {
		return 0, nil, e
	}
	peer := c.r.PathValue("peer")
	m := sp.Members[peer]
	if m != nil && m.State == "member" && m.Asked != "" {
		m.Role, m.Asked = m.Asked, ""
	} else if m == nil || m.State != "pending" {
		return 0, nil, refuse("REQUEST_NOT_FOUND", "No pending ask of peer "+quote(peer)+" is in "+quote(sp.Name)+".",
			"Read the asks in your mailbox (kind ask).")
	}
	m.State, m.GrantedBy = "member", c.p.PeerID
	now := c.a.now()
	c.a.deliver(peer, mailItem{Kind: "approved", Space: sp.Name, From: c.p.PeerID, At: now,
		Summary: "You are a member of " + sp.Name + " as " + m.Role + "."})
	return http.StatusOK, joined(sp, m.Role, m.State, true), nil
}
