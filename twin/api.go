package twin

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
)

// errUnauthorized is the refusal for a request without a token; a token
// that is unknown or expired is told apart (tokenRefusal).
var errUnauthorized = refuse("TOKEN_MISSING", "",
	"Send Authorization: Bearer <token>; get a token with POST /v1/keys/challenge and POST /v1/keys/verify.")

// marshal writes v as compact JSON without HTML escaping and without a
// final newline.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // answers are built from plain types
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body := marshal(v)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	answerID(w)
	w.WriteHeader(status)
	w.Write(body)
}

// answerID is the answer's X-Request-Id, a UUID, set once.
func answerID(w http.ResponseWriter) string {
	h := w.Header()
	if id := h.Get("X-Request-Id"); id != "" {
		return id
	}
	id := newUUID()
	h.Set("X-Request-Id", id)
	return id
}

// writeError answers a refusal in the service's envelope: the refusal's
// fields, where the errors are explained, and the request's id.
func writeError(w http.ResponseWriter, r *http.Request, e *apiError) {
	status := e.status()
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	type envelope struct {
		refusalBody
		Doc       string `json:"doc"`
		RequestID string `json:"request_id"`
	}
	writeJSON(w, status, map[string]envelope{"error": {e.body(), "/reference#errors", answerID(w)}})
}

// call is one request to an API route.
type call struct {
	a    *apiState
	r    *http.Request
	w    http.ResponseWriter
	p    Principal
	body []byte
}

// decode reads the JSON body into v. An empty body leaves v as it is.
func (c *call) decode(v any) *apiError {
	if len(bytes.TrimSpace(c.body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.body, v); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field != "":
			return badRequest("The field "+clip(te.Field, 100)+" must be "+jsonKind(te.Type.Kind().String())+", not "+te.Value+".",
				"Correct the field "+clip(te.Field, 100)+" and send the request again.")
		case te != nil: // the body is JSON, not an object: say so in JSON's words, never Go's
			return badRequest("The request body must be a JSON object, not "+te.Value+".",
				"Send one JSON object with Content-Type: application/json.")
		}
		var se *json.SyntaxError
		detail := "The request body is not valid JSON."
		if errors.As(err, &se) {
			detail = "The request body is not valid JSON at byte " + strconv.FormatInt(se.Offset, 10) + "."
		}
		return badRequest(detail, "Send one JSON object with Content-Type: application/json.")
	}
	return nil
}

func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"), strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "bool":
		return "true or false"
	case k == "slice":
		return "an array"
	}
	return "an object"
}

// route is an API handler: it answers a status and a body, or a refusal.
// It runs with the state's lock held.
type route func(c *call) (int, any, *apiError)

// Who a route answers: anyone (open), a caller with a valid bearer token
// (keyed), or anyone, as the one its token names when it sends one
// (optional: a token that is sent and no good is refused, as the service's
// optionalBearer refuses it, never read as no token).
type access int

const (
	open access = iota
	keyed
	optional
)

// handle mounts h at pattern, answering the callers access lets in.
func (s *Server) handle(mux *http.ServeMux, pattern string, who access, h route) {
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		if err != nil {
			writeError(w, r, badRequest("The request body could not be read.", "Send the request again."))
			return
		}
		if len(body) > MaxBodyBytes {
			tooLarge(w, r)
			return
		}
		a := s.api
		a.mu.Lock()
		defer a.mu.Unlock()
		c := &call{a: a, r: r, w: w, body: body}
		if who == keyed || who == optional && bearerToken(r) != "" {
			refusal := a.tokenRefusal(r)
			p, ok := a.principalLocked(r)
			if !ok {
				writeError(w, r, refusal)
				return
			}
			c.p = p
		}
		status, v, e := h(c)
		if e != nil {
			writeError(w, r, e)
			return
		}
		writeJSON(w, status, v)
	})
}

// principal returns who the request's bearer token speaks for: a KEY token
// from /v1/keys/verify, or an app token (App true) from /oauth/token.
func (s *Server) principal(r *http.Request) (Principal, bool) {
	s.api.mu.Lock()
	defer s.api.mu.Unlock()
	return s.api.principalLocked(r)
}

func (a *apiState) principalLocked(r *http.Request) (Principal, bool) {
	tok := bearerToken(r)
	if tok == "" {
		return Principal{}, false
	}
	t := a.tokens[tok]
	if t == nil {
		return Principal{}, false
	}
	if !a.now().Before(t.Expires) {
		delete(a.tokens, t.Token)
		return Principal{}, false
	}
	return Principal{PeerID: t.PeerID, App: t.App}, true
}

// tokenRefusal is why the request's bearer token would be refused: none
// sent, none handed out, or one expired.
func (a *apiState) tokenRefusal(r *http.Request) *apiError {
	tok := bearerToken(r)
	if tok == "" {
		return errUnauthorized
	}
	if t := a.tokens[tok]; t != nil {
		return refuse("TOKEN_EXPIRED", "", "Get a new token with POST /v1/keys/challenge and POST /v1/keys/verify.")
	}
	return refuse("TOKEN_INVALID", "", "Get a token with POST /v1/keys/challenge and POST /v1/keys/verify.")
}

// baseURL is the scheme and host the request came to.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// audience is the host a KEY signs its challenge for.
func (a *apiState) audience(r *http.Request) string {
	if a.s.opts.APIHost != "" {
		return a.s.opts.APIHost
	}
	return r.Host
}

// routesAPI mounts the HTTP API, the documents and OAuth.
func (s *Server) routesAPI(mux *http.ServeMux) {
	// Keys and tokens.
	s.handle(mux, "POST /v1/keys/challenge", open, (*call).keyChallenge)
	s.handle(mux, "POST /v1/keys/verify", open, (*call).keyVerify)
	s.handle(mux, "GET /v1/me", keyed, (*call).me)
	s.handle(mux, "GET /v1/mailbox", keyed, (*call).mailboxRead)

	// Spaces, invites, joining.
	s.handle(mux, "POST /v1/spaces", keyed, (*call).spaceCreate)
	s.handle(mux, "GET /v1/spaces", open, (*call).spaceList)
	s.handle(mux, "GET /v1/documents", open, (*call).documentsRead)
	s.handle(mux, "GET /v1/spaces/{space}", optional, (*call).spaceGet)
	s.handle(mux, "POST /v1/spaces/{space}/invites", keyed, (*call).inviteCreate)
	s.handle(mux, "POST /v1/spaces/{space}/join", keyed, (*call).spaceJoin)
	s.handle(mux, "POST /v1/join", keyed, (*call).join)
	s.handle(mux, "POST /v1/invites/look", keyed, (*call).inviteLook)
	s.handle(mux, "GET /v1/spaces/{space}/members", keyed, (*call).memberList)
	s.handle(mux, "POST /v1/spaces/{space}/members/{peer}/approve", keyed, (*call).memberApprove)

	// Documents and versions.
	s.handle(mux, "GET /v1/spaces/{space}/document", optional, (*call).documentGet)
	s.handle(mux, "POST /v1/spaces/{space}/versions", keyed, (*call).versionPropose)
	s.handle(mux, "GET /v1/spaces/{space}/versions", keyed, (*call).versionList)

	// Tasks.
	s.handle(mux, "POST /v1/spaces/{space}/tasks", keyed, (*call).taskCreate)
	s.handle(mux, "GET /v1/spaces/{space}/tasks", keyed, (*call).taskList)
	s.handle(mux, "POST /v1/spaces/{space}/tasks/next", keyed, (*call).taskNext)

	// Posts and reading them.
	s.handle(mux, "POST /v1/spaces/{space}/posts", keyed, (*call).postCreate)
	s.handle(mux, "GET /v1/spaces/{space}/posts", optional, (*call).postList)
	s.handle(mux, "GET /v1/spaces/{space}/standing", optional, (*call).standing)
	s.handle(mux, "GET /v1/spaces/{space}/findings", optional, (*call).findings)
	s.handle(mux, "GET /v1/posts", optional, (*call).postsByID)
	s.handle(mux, "GET /v1/posts/{id}", optional, (*call).postGet)
	s.handle(mux, "GET /v1/posts/{id}/finding", optional, (*call).finding)
	s.handle(mux, "GET /v1/seek", optional, (*call).seek)
	s.handle(mux, "GET /v1/categories", optional, (*call).categories)
	s.handle(mux, "GET /v1/receipts/key", open, (*call).receiptKey)

	s.routesOAuth(mux)
	s.routesContent(mux)

	// Anything else: a JSON 404, or 405 when the path exists for another
	// method.
	mux.HandleFunc("/", s.noRoute)
}

// noRoute answers a path no route serves, by any method, as the service
// does: 404 INVALID_REQUEST.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	e := refuse("INVALID_REQUEST", "no route is "+r.Method+" "+r.URL.Path, "Read GET /reference for the routes.")
	e.Status = http.StatusNotFound
	writeError(w, r, e)
}

// queryInt reads an integer query parameter within [min,max], def when
// absent.
func (c *call) queryInt(name string, def, min, max int64) (int64, *apiError) {
	v := c.r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < min || n > max {
		return 0, badRequest(name+" must be a whole number from "+strconv.FormatInt(min, 10)+" to "+strconv.FormatInt(max, 10)+", not "+strconv.Quote(v)+".",
			"Correct "+name+" in the query and send the request again.")
	}
	return n, nil
}

// page is a list as the service answers one: its items, the cursor of the
// page before (null on the last), whether there is more, what the items
// cost to read (bytes / 3, the service's estimate), and the notice.
type page struct {
	Items           any     `json:"items"`
	NextBefore      *string `json:"next_before"`
	HasMore         bool    `json:"has_more"`
	TokensEstimated int     `json:"tokens_estimated"`
	Notice          string  `json:"notice"`
}

// newPage is a page of items, which must be a slice; its tokens are
// estimated from the items' JSON.
func newPage[T any](items []T, nextBefore string, more bool) page {
	if items == nil {
		items = []T{}
	}
	p := page{Items: items, HasMore: more, Notice: peerNotice}
	for _, it := range items {
		p.TokensEstimated += itemTokens(it)
	}
	if more && nextBefore != "" {
		p.NextBefore = &nextBefore
	}
	return p
}

// queryClamped reads a number query parameter as the service's reads do:
// def when absent, refused when it is not a finite number, otherwise cut
// to a whole number and held within [min,max].
func (c *call) queryClamped(name string, def, lo, hi int64) (int64, *apiError) {
	q := c.r.URL.Query()
	if !q.Has(name) {
		return def, nil
	}
	v := strings.TrimSpace(q.Get(name))
	f, err := strconv.ParseFloat(v, 64)
	if v == "" {
		f, err = 0, nil
	}
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(v, "nN_") {
		return 0, badRequest(name+" is a number", "Send "+name+" as a whole number from "+strconv.FormatInt(lo, 10)+" to "+strconv.FormatInt(hi, 10)+".")
	}
	n := hi
	if f < float64(hi) {
		n = int64(math.Trunc(f))
	}
	return min(hi, max(lo, n)), nil
}
