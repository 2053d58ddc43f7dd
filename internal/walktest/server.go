// Package walktest is a small server the walk tests replay walks against:
// an HTTP API with an Ed25519 key set-up (challenge, signature, token), a
// few JSON and text answers, MCP tools served by the official Go SDK
// (event-stream and JSON answers), and hostile answers (GET /hostile,
// /mcp-hostile) whose text tries to act on whoever prints it. It logs every answer body it writes, so
// tests can count them on their own and compare with the ledger.
//
//	srv := walktest.Start()
//	defer srv.Close()
//	res, err := walk.Run(ctx, spec, walk.Options{BaseURL: srv.URL})
//	for _, a := range srv.Log() { ... a.Path, a.Status, len(a.Body) ... } // what the ledger should have counted
package walktest

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Primer is the text GET / answers: non-ASCII letters, and a time as a
// database writes it (its fraction short of six digits).
const Primer = "# Primer\nUpdated 2026-10-02T07:57:40.1+00:00. Ä é ✓\nRead the skill next.\n"

// Skill is the text GET /skills/SKILL.md answers.
const Skill = "## Skill\nJoin, read, take a task, post the result.\n"

// Answer is one answer body the server wrote.
type Answer struct {
	Method, Path string
	Status       int
	Body         []byte
}

// Server is the test server.
type Server struct {
	*httptest.Server
	mu      sync.Mutex
	log     []Answer
	tokens  map[string]string // token -> peer id
	pending map[string][]byte // challenge hex -> public key
	grows   int               // GET /grows answers one byte more each time
	meet    chan struct{}     // GET /meet: the first request waits for a second
}

// Hostile is the error text GET /hostile answers (status 500) and the
// tool hostile of /mcp-hostile refuses with: what a server could send to
// rewrite a terminal or a CI log, forge a GitHub Actions command, or
// break a Markdown table or a JUnit report (an escape sequence, a carriage
// return, line breaks before "::error", "##[", a bidi override, invalid
// UTF-8, NUL, XML and HTML).
const Hostile = "\x1b[2J\x1b[Hwiped\rFAILED overwritten\n::error file=budgets.json,line=1::forged\n##[error]v1 forged" +
	" \u202eexe.txt \xff\xfe nul\x00 </testcase><img src=x onerror=alert(1)> | a | b |"

// Pages is how many pages GET /pages answers.
const Pages = 3

// Start starts a server on loopback; Close stops it.
func Start() *Server {
	s := &Server{tokens: map[string]string{}, pending: map[string][]byte{}}
	s.Server = httptest.NewServer(s.handler())
	return s
}

// Log returns every answer written so far, in order.
func (s *Server) Log() []Answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Answer(nil), s.log...)
}

type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(code int) { r.status = code; r.ResponseWriter.WriteHeader(code) }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = 200
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}
func (r *recorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		fmt.Fprint(w, Primer)
	})
	mux.HandleFunc("GET /skills/SKILL.md", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/markdown")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			fmt.Fprint(zw, Skill)
			zw.Close()
			return
		}
		fmt.Fprint(w, Skill)
	})
	mux.HandleFunc("POST /v1/keys/challenge", s.challenge)
	mux.HandleFunc("POST /v1/keys/verify", s.verify)
	mux.HandleFunc("POST /v1/join", s.auth(func(w http.ResponseWriter, r *http.Request, peer string) {
		var in struct{ Link string }
		if json.NewDecoder(r.Body).Decode(&in) != nil || !strings.HasPrefix(in.Link, "https://") {
			writeJSON(w, 400, map[string]any{"error": "INVALID_REQUEST", "message": "link is an invite link"})
			return
		}
		writeJSON(w, 200, map[string]any{"space": "demo", "role": "writer", "start": "start-tasks"})
	}))
	mux.HandleFunc("GET /v1/me", s.auth(func(w http.ResponseWriter, r *http.Request, peer string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"peer_id":%q,"memberships":[{"space":"demo","role":"writer"}],"next_after":3}`, peer)
	}))
	mux.HandleFunc("GET /v1/mailbox", s.auth(func(w http.ResponseWriter, r *http.Request, peer string) {
		after, _ := strconv.Atoi(r.URL.Query().Get("after"))
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"items":[],"next_after":%d,"has_more":false}`, after)
	}))
	mux.HandleFunc("POST /v1/spaces/{space}/tasks/next", s.auth(func(w http.ResponseWriter, r *http.Request, peer string) {
		writeJSON(w, 200, map[string]any{"task": map[string]any{"number": 7, "title": "Count the words", "space": r.PathValue("space")}})
	}))
	mux.HandleFunc("POST /v1/spaces/{space}/posts", s.auth(func(w http.ResponseWriter, r *http.Request, peer string) {
		var in struct {
			Kind string
			Task struct{ Number json.Number }
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Task.Number == "" {
			writeJSON(w, 400, map[string]any{"error": "INVALID_REQUEST", "message": "task.number is a number"})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"post-1","kind":%q,"task":{"number":%s,"state":"done"},"created_at":"2026-10-02T07:57:40+00:00"}`, in.Kind, in.Task.Number)
	}))
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "authorization_code" {
			writeJSON(w, 400, map[string]any{"error": "invalid_request"})
			return
		}
		writeJSON(w, 200, map[string]any{"access_token": "app-" + r.PostForm.Get("code"), "token_type": "Bearer"})
	})
	mux.HandleFunc("GET /redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/consent?request=req-42", http.StatusFound)
	})
	mux.HandleFunc("/to/{status}", func(w http.ResponseWriter, r *http.Request) {
		// A redirect of the status given to the url given, anywhere.
		code, _ := strconv.Atoi(r.PathValue("status"))
		http.Redirect(w, r, r.URL.Query().Get("url"), code)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		// The request as received: its method, headers and body.
		body, _ := io.ReadAll(r.Body)
		h := map[string]string{}
		for k := range r.Header {
			h[k] = r.Header.Get(k)
		}
		writeJSON(w, 200, map[string]any{"method": r.Method, "headers": h, "body": string(body)})
	})
	mux.HandleFunc("GET /grows", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.grows++
		n := s.grows
		s.mu.Unlock()
		fmt.Fprintf(w, "answer %s", strings.Repeat("x", n))
	})
	mux.HandleFunc("GET /pages", func(w http.ResponseWriter, r *http.Request) {
		// Three pages of two items, a string cursor between them.
		after, _ := strconv.Atoi(r.URL.Query().Get("after"))
		items := []string{fmt.Sprintf("item-%d", after+1), fmt.Sprintf("item-%d", after+2)}
		more := after+2 < Pages*2
		writeJSON(w, 200, map[string]any{"items": items, "has_more": more, "next_after": strconv.Itoa(after + 2)})
	})
	mux.HandleFunc("GET /meet", func(w http.ResponseWriter, r *http.Request) {
		// Answers only when a second request meets the first: two requests
		// sent one after the other never meet.
		s.mu.Lock()
		if s.meet == nil {
			s.meet = make(chan struct{})
			ch := s.meet
			s.mu.Unlock()
			select {
			case <-ch:
				writeJSON(w, 200, map[string]any{"met": true, "who": r.URL.Query().Get("who")})
			case <-time.After(5 * time.Second):
				writeJSON(w, 408, map[string]any{"met": false})
			}
			return
		}
		close(s.meet)
		s.meet = nil
		s.mu.Unlock()
		writeJSON(w, 200, map[string]any{"met": true, "who": r.URL.Query().Get("who")})
	})
	mux.HandleFunc("GET /status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.PathValue("code"))
		writeJSON(w, code, map[string]any{"error": "STATUS", "status": code})
	})
	mux.HandleFunc("GET /hostile", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, Hostile)
	})
	mux.Handle("/mcp-hostile", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newHostileServer() }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return NewMCPServer() }, &mcp.StreamableHTTPOptions{Stateless: true}))
	mux.Handle("/mcp-json", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return NewMCPServer() }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	mux.Handle("/mcp-paged", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newMCPServer(1) }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	mux.Handle("/mcp-session", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return NewMCPServer() }, nil))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		mux.ServeHTTP(rec, r)
		s.mu.Lock()
		s.log = append(s.log, Answer{Method: r.Method, Path: r.URL.Path, Status: rec.status, Body: bytes.Clone(rec.body.Bytes())})
		s.mu.Unlock()
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// Audience is the text signed with a challenge, before the host.
const Audience = "agent-state:token-challenge:v1"

func (s *Server) challenge(w http.ResponseWriter, r *http.Request) {
	var in struct {
		PublicKey string `json:"public_key"`
	}
	var pub []byte
	var err error
	if json.NewDecoder(r.Body).Decode(&in) != nil {
		err = fmt.Errorf("bad body")
	} else {
		pub, err = hex.DecodeString(in.PublicKey)
	}
	if err != nil || len(pub) != ed25519.PublicKeySize {
		writeJSON(w, 400, map[string]any{"error": "INVALID_REQUEST", "message": "public_key is 64 hex digits"})
		return
	}
	c := make([]byte, 56)
	_, _ = rand.Read(c)
	ch := hex.EncodeToString(c)
	s.mu.Lock()
	s.pending[ch] = pub
	s.mu.Unlock()
	writeJSON(w, 200, map[string]any{"peer_id": hex.EncodeToString(pub[:8]), "challenge": ch, "audience": r.Host, "expires_at": "2026-10-02T08:07:40.5+00:00"})
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	var in struct {
		PublicKey string `json:"public_key"`
		Challenge string `json:"challenge"`
		Signature string `json:"signature"`
	}
	if json.NewDecoder(r.Body).Decode(&in) != nil {
		writeJSON(w, 400, map[string]any{"error": "INVALID_REQUEST"})
		return
	}
	s.mu.Lock()
	pub, ok := s.pending[in.Challenge]
	s.mu.Unlock()
	c, _ := hex.DecodeString(in.Challenge)
	sig, _ := hex.DecodeString(in.Signature)
	msg := append(append(append(append([]byte(Audience), 0), r.Host...), 0), c...)
	if !ok || in.PublicKey != hex.EncodeToString(pub) || !ed25519.Verify(pub, msg, sig) {
		writeJSON(w, 401, map[string]any{"error": "BAD_SIGNATURE", "message": "the signature does not verify"})
		return
	}
	t := make([]byte, 16)
	_, _ = rand.Read(t)
	token := "tok-" + hex.EncodeToString(t)
	peer := hex.EncodeToString(pub[:8])
	s.mu.Lock()
	s.tokens[token] = peer
	s.mu.Unlock()
	writeJSON(w, 200, map[string]any{"peer_id": peer, "token": token, "registered": true})
}

func (s *Server) auth(h func(http.ResponseWriter, *http.Request, string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		peer, ok := s.tokens[token]
		s.mu.Unlock()
		if !ok {
			writeJSON(w, 401, map[string]any{"error": "UNAUTHENTICATED", "message": "send a KEY's token"})
			return
		}
		h(w, r, peer)
	}
}

type taskArgs struct {
	Action string `json:"action" jsonschema:"next or done"`
	Space  string `json:"space,omitempty" jsonschema:"the space"`
}

type taskOut struct {
	Task struct {
		Number int    `json:"number"`
		State  string `json:"state"`
	} `json:"task"`
}

// NewMCPServer returns the MCP server the test server serves at /mcp: the
// tools task (structured content) and refuse (isError).
func NewMCPServer() *mcp.Server { return newMCPServer(0) }

func newMCPServer(pageSize int) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "walktest", Version: "0.1.0"}, &mcp.ServerOptions{Instructions: "Take the next task. Ä ✓", PageSize: pageSize})
	mcp.AddTool(srv, &mcp.Tool{Name: "task", Description: "Take the next task, or mark one done."},
		func(ctx context.Context, req *mcp.CallToolRequest, in taskArgs) (*mcp.CallToolResult, taskOut, error) {
			var out taskOut
			out.Task.Number, out.Task.State = 7, "open"
			if in.Action == "done" {
				out.Task.State = "done"
			}
			return nil, out, nil
		})
	srv.AddPrompt(&mcp.Prompt{Name: "propose", Description: "Drafts the calls of a proposal.", Arguments: []*mcp.PromptArgument{{Name: "slug", Required: true}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			slug := req.Params.Arguments["slug"]
			text := "Send these in order.\n1. task {\"action\":\"next\"}\n2. task {\"action\":\"done\",\"slug\":\"" + slug + "\"}"
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "refuse", Description: "Always refuses."},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "NOT_IN_TOOLSET. This connection's toolset leaves that tool out."}}}, nil, nil
		})
	return srv
}

// newHostileServer is the MCP server at /mcp-hostile: a tool whose name
// and description hold what Hostile does, and whose call refuses with
// Hostile (isError).
func newHostileServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "walktest-hostile\x1b[2J", Version: "0.1.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "hostile", Description: Hostile},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: Hostile}}}, nil, nil
		})
	return srv
}
