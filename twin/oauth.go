package twin

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/readmeter/readmeter/internal/escape"
)

// OAuth 2.1 with PKCE, for an app token at /mcp/connect: dynamic client
// registration, authorize (which sends the person to a consent page), the
// person's approval with their KEY's token, then the token exchange. The
// OAuth routes answer errors as RFC 6749 does, since OAuth clients parse
// that shape.

type oauthClient struct {
	ID           string
	Name         string
	RedirectURIs []string
	Issued       time.Time
	Used         bool // a token was given to it: kept past unusedClientTTL
}

type authRequest struct {
	ID, ClientID, RedirectURI string
	Challenge, State          string
	Resource, Scope           string
	Expires                   time.Time
	Decided                   bool
	Peer                      string // who approved
	Code                      string
	CodeExpires               time.Time
	Used                      bool
	Token                     string // the token the code gave, once used
}

// connectResource is the resource an app token is for.
func connectResource(r *http.Request) string { return baseURL(r) + "/mcp/connect" }

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// routesOAuth mounts OAuth 2.1 for app tokens.
func (s *Server) routesOAuth(mux *http.ServeMux) {
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		base := baseURL(r)
		writeJSON(w, http.StatusOK, map[string]any{
			"issuer":                                base,
			"authorization_endpoint":                base + "/oauth/authorize",
			"token_endpoint":                        base + "/oauth/token",
			"registration_endpoint":                 base + "/oauth/register",
			"response_types_supported":              []string{"code"},
			"grant_types_supported":                 []string{"authorization_code"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"},
		})
	})
	resource := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{
			"resource":                 connectResource(r),
			"authorization_servers":    []string{baseURL(r)},
			"bearer_methods_supported": []string{"header"},
		})
	}
	mux.HandleFunc("GET /.well-known/oauth-protected-resource", resource)
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp/connect", resource)
	mux.HandleFunc("POST /oauth/register", s.oauthRegister)
	mux.HandleFunc("GET /oauth/authorize", s.oauthAuthorize)
	mux.HandleFunc("POST /oauth/token", s.oauthToken)
	mux.HandleFunc("GET /connect/consent", s.consentPage)
	s.handle(mux, "GET /v1/authorizations/{id}", keyed, (*call).authorizationGet)
	s.handle(mux, "POST /v1/authorizations/{id}/approve", keyed, (*call).authorizationApprove)
	s.handle(mux, "POST /v1/authorizations/{id}/deny", keyed, (*call).authorizationDeny)
}

func validRedirect(u string) bool {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Fragment != "" {
		return false
	}
	// Only https, or http to a loopback address: javascript:, data:, file:
	// and any other scheme could run or read what the code is sent to.
	if p.Scheme == "http" {
		h := p.Hostname()
		return h == "localhost" || h == "127.0.0.1" || h == "::1"
	}
	return p.Scheme == "https" && p.Host != ""
}

func (s *Server) oauthRegister(w http.ResponseWriter, r *http.Request) {
	c := &call{r: r}
	var err error
	c.body, err = readBody(r)
	if err == errTooLarge {
		tooLarge(w, r)
		return
	}
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "The body could not be read.")
		return
	}
	var in struct {
		RedirectURIs []string `json:"redirect_uris"`
		ClientName   string   `json:"client_name"`
	}
	if e := c.decode(&in); e != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", e.Detail)
		return
	}
	if len(in.RedirectURIs) == 0 || len(in.RedirectURIs) > maxRedirectURIs {
		oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris is a list of 1 to 10 URIs.")
		return
	}
	for _, u := range in.RedirectURIs {
		if len(u) > maxRedirectURIBytes {
			oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris holds a URI of more than 2048 bytes.")
			return
		}
		if !validRedirect(u) {
			oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris holds "+quote(clip(u, 200))+": use https, or http to a loopback address, without a fragment.")
			return
		}
	}
	a := s.api
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	a.pruneClients(now)
	if len(a.clients) >= maxClients || !a.registers.take(clientAddress(r), now) {
		refuseRateLimited(w, r, "Too many apps registered from your address or in all.")
		return
	}
	cl := &oauthClient{ID: "cl_" + randHex(12), Name: cleanClientName(in.ClientName), RedirectURIs: in.RedirectURIs, Issued: now}
	a.clients[cl.ID] = cl
	out := map[string]any{
		"client_id":                  cl.ID,
		"client_id_issued_at":        cl.Issued.Unix(),
		"redirect_uris":              cl.RedirectURIs,
		"grant_types":                []string{"authorization_code"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
	}
	if cl.Name != "" {
		out["client_name"] = cl.Name
	}
	writeJSON(w, http.StatusCreated, out)
}

// errTooLarge says a body is over MaxBodyBytes.
var errTooLarge = errors.New("body over 1 MiB")

func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxBodyBytes {
		return nil, errTooLarge
	}
	return b, nil
}

func redirectWith(w http.ResponseWriter, r *http.Request, to string, params url.Values) {
	sep := "?"
	if strings.Contains(to, "?") {
		sep = "&"
	}
	http.Redirect(w, r, to+sep+params.Encode(), http.StatusFound)
}

func (s *Server) oauthAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a := s.api
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.connects.take(clientAddress(r), a.now()) {
		refuseRateLimited(w, r, "Too many requests to connect an app came from your address.")
		return
	}
	cl := a.clients[q.Get("client_id")]
	if cl == nil {
		oauthError(w, http.StatusBadRequest, "invalid_client", "client_id is unknown: register with POST /oauth/register first.")
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" && len(cl.RedirectURIs) == 1 {
		redirect = cl.RedirectURIs[0]
	}
	registered := false
	for _, u := range cl.RedirectURIs {
		registered = registered || u == redirect
	}
	if !registered {
		oauthError(w, http.StatusBadRequest, "invalid_request", "redirect_uri is not one the client registered.")
		return
	}
	fail := func(code, desc string) {
		v := url.Values{"error": {code}, "error_description": {desc}}
		if st := q.Get("state"); st != "" {
			v.Set("state", st)
		}
		redirectWith(w, r, redirect, v)
	}
	if q.Get("response_type") != "code" {
		fail("unsupported_response_type", "response_type must be code.")
		return
	}
	if q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256" {
		fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method S256.")
		return
	}
	res := q.Get("resource")
	if res == "" {
		res = connectResource(r)
	} else if res != connectResource(r) {
		fail("invalid_target", "resource must be "+connectResource(r)+".")
		return
	}
	now := a.now()
	for id, ar := range a.authReqs {
		if now.After(ar.Expires) && (ar.Code == "" || now.After(ar.CodeExpires)) {
			delete(a.authReqs, id)
			delete(a.codes, ar.Code)
		}
	}
	ar := &authRequest{ID: "ar_" + randHex(12), ClientID: cl.ID, RedirectURI: redirect, Challenge: q.Get("code_challenge"),
		State: q.Get("state"), Resource: res, Scope: q.Get("scope"), Expires: now.Add(authReqTTL)}
	a.authReqs[ar.ID] = ar
	http.Redirect(w, r, baseURL(r)+"/connect/consent?request="+ar.ID, http.StatusFound)
}

func (s *Server) consentPage(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("request")
	a := s.api
	a.mu.Lock()
	ar := a.authReqs[id]
	var name string
	if ar != nil {
		name = a.clients[ar.ClientID].Name
	}
	a.mu.Unlock()
	if ar == nil {
		writeError(w, r, refuse("REQUEST_NOT_FOUND", "No authorization request "+quote(id)+" is open.", "Start again from the app."))
		return
	}
	// The name is the app's own claim: shown quoted, as text, so that it
	// can neither start a heading nor put words of its own beside ours.
	if name == "" {
		name = ar.ClientID
	}
	name = "\"" + escape.MarkdownCell(name) + "\""
	writeText(w, r, markdown, "# Connect an app\n\nThe app "+name+" asks for an app token for "+escape.MarkdownCell(ar.Resource)+
		". It will act as your KEY there.\n\nApprove with `POST /v1/authorizations/"+ar.ID+
		"/approve` and your KEY's token, or refuse with `/deny`.\n")
}

// authRequestFor loads the open request named in the path.
func (c *call) authRequestFor() (*authRequest, *apiError) {
	id := c.r.PathValue("id")
	ar := c.a.authReqs[id]
	if ar == nil || c.a.now().After(ar.Expires) {
		return nil, refuse("REQUEST_NOT_FOUND", "No authorization request "+quote(id)+" is open.", "Start again from the app: requests last ten minutes.")
	}
	if c.p.App {
		return nil, refuse("INSUFFICIENT_SCOPE", "An app token cannot approve an app.", "Use your KEY's token from POST /v1/keys/verify.")
	}
	return ar, nil
}

func (c *call) authorizationGet() (int, any, *apiError) {
	ar, e := c.authRequestFor()
	if e != nil {
		return 0, nil, e
	}
	cl := c.a.clients[ar.ClientID]
	return http.StatusOK, struct {
		Request     string `json:"request"`
		ClientID    string `json:"client_id"`
		ClientName  string `json:"client_name,omitempty"`
		RedirectURI string `json:"redirect_uri"`
		Resource    string `json:"resource"`
		ExpiresAt   string `json:"expires_at"`
	}{ar.ID, ar.ClientID, cl.Name, ar.RedirectURI, ar.Resource, dbTime(ar.Expires)}, nil
}

func (c *call) authorizationDecide(approve bool) (int, any, *apiError) {
	ar, e := c.authRequestFor()
	if e != nil {
		return 0, nil, e
	}
	if ar.Decided {
		return 0, nil, refuse("REQUEST_NOT_PENDING", "The request was decided already.", "Start again from the app.")
	}
	ar.Decided = true
	v := url.Values{}
	if approve {
		ar.Peer = c.p.PeerID
		ar.Code = "ac_" + randHex(16)
		ar.CodeExpires = c.a.now().Add(time.Minute)
		c.a.codes[ar.Code] = ar
		v.Set("code", ar.Code)
	} else {
		v.Set("error", "access_denied")
	}
	if ar.State != "" {
		v.Set("state", ar.State)
	}
	sep := "?"
	if strings.Contains(ar.RedirectURI, "?") {
		sep = "&"
	}
	// What the service answers: where to send the person and the decision;
	// an approval says too that no connection key was kept (the twin's
	// apps never sign posts).
	out := object{{"redirect_to", ar.RedirectURI + sep + v.Encode()}}
	if approve {
		out.add(field{"decision", "approved"}, field{"connection_key", "none"})
	} else {
		out.add(field{"decision", "declined"})
	}
	return http.StatusOK, out, nil
}

func (c *call) authorizationApprove() (int, any, *apiError) { return c.authorizationDecide(true) }
func (c *call) authorizationDeny() (int, any, *apiError)    { return c.authorizationDecide(false) }

// pkceS256 is BASE64URL(SHA256(verifier)), without padding.
func pkceS256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func (s *Server) oauthToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			tooLarge(w, r)
			return
		}
		oauthError(w, http.StatusBadRequest, "invalid_request", "The body must be application/x-www-form-urlencoded.")
		return
	}
	f := r.PostForm
	if f.Get("grant_type") != "authorization_code" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code.")
		return
	}
	a := s.api
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	ar := a.codes[f.Get("code")]
	if ar == nil || now.After(ar.CodeExpires) {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "The code is unknown or expired.")
		return
	}
	if ar.Used {
		// A code used twice was stolen or replayed: the token it gave is
		// revoked too (OAuth 2.1, section 4.1.3).
		delete(a.codes, ar.Code)
		delete(a.tokens, ar.Token)
		oauthError(w, http.StatusBadRequest, "invalid_grant", "The code was used already; the token it gave is revoked.")
		return
	}
	if f.Get("client_id") != ar.ClientID {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "The code was issued to another client.")
		return
	}
	if f.Get("redirect_uri") != "" && f.Get("redirect_uri") != ar.RedirectURI {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request's.")
		return
	}
	ver := f.Get("code_verifier")
	if len(ver) < 43 || len(ver) > 128 || pkceS256(ver) != ar.Challenge {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge.")
		return
	}
	if res := f.Get("resource"); res != "" && res != ar.Resource {
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource must be "+ar.Resource+".")
		return
	}
	ar.Used = true
	if cl := a.clients[ar.ClientID]; cl != nil {
		cl.Used = true
	}
	tok := &tokenRec{Token: "at_" + randHex(24), PeerID: ar.Peer, App: true, Resource: ar.Resource, Expires: now.Add(appTokenTTL)}
	ar.Token = tok.Token
	a.tokens[tok.Token] = tok
	w.Header().Set("Cache-Control", "no-store")
	out := object{{"access_token", tok.Token}, {"token_type", "Bearer"}, {"expires_in", int(appTokenTTL / time.Second)}}
	// The scope asked for, or what an app that names none gets.
	scope := ar.Scope
	if scope == "" {
		scope = "read write"
	}
	out.add(field{"scope", scope})
	writeJSON(w, http.StatusOK, out)
}
