package specs_test

// The walks make the requests the service's own test makes. Each walk of
// specs/schellingaf is replayed through a recording proxy in front of the
// twin, and every request it sends (set-up, counted, and uncounted in
// between) is held against testdata/first-task.requests, a golden written
// from the service's test/first-task.test.ts and its helpers, not from our
// walks: method, path and query as patterns, the Content-Type and Accept
// sent, whether a token is sent, and the JSON body's shape, its keys in
// order, its vocabulary exactly and its free text by JSON-escaped UTF-8
// byte length. A request one byte longer fails it.
//
// Run with -run TestRequestsAreTheServiceTests -v -dump to print what the
// walks send, in the golden's form with the values as sent.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/readmeter/readmeter/jsonjs"
	"github.com/readmeter/readmeter/walk"
)

var dumpRequests = flag.Bool("dump", false, "print the requests each walk sends")

const requestsGolden = "testdata/first-task.requests"

// sent is one request as the proxy saw it.
type sent struct {
	method, target, ctype, accept string
	auth                          bool
	// mcpHeaders names the MCP headers sent beside the body
	// (MCP-Protocol-Version, Mcp-Session-Id): the service's test sends none.
	mcpHeaders string
	body       []byte
}

// recorder is a reverse proxy that keeps every request, in order.
type recorder struct {
	mu   sync.Mutex
	to   string
	reqs []sent
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.reqs = append(rc.reqs, sent{
		method: r.Method, target: r.URL.RequestURI(),
		ctype: r.Header.Get("Content-Type"), accept: r.Header.Get("Accept"),
		auth: r.Header.Get("Authorization") != "", mcpHeaders: mcpHeadersOf(r.Header), body: body,
	})
	rc.mu.Unlock()
	req, err := http.NewRequestWithContext(r.Context(), r.Method, rc.to+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	req.Header = r.Header.Clone()
	req.Host = r.Host // the audience a KEY signs for is the host it reached
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// mcpHeadersOf names the MCP headers h holds, "" for none.
func mcpHeadersOf(h http.Header) string {
	var got []string
	for _, k := range []string{"Mcp-Protocol-Version", "Mcp-Session-Id"} {
		if h.Get(k) != "" {
			got = append(got, k+": "+h.Get(k))
		}
	}
	return strings.Join(got, ", ")
}

func (rc *recorder) take() []sent {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := rc.reqs
	rc.reqs = nil
	return out
}

// golden is one walk's requests as the service's test makes them.
type golden struct {
	walk, source string
	line         int
	reqs         []goldenReq
}

// goldenReq is one request of the golden: its role (setup, count, or off
// for an uncounted request among the counted ones), method, target
// pattern, headers and body pattern.
type goldenReq struct {
	line                 int
	role, method, target string
	ctype, accept        string
	auth                 bool
	// atOnce marks a request sent at once with the ones beside it that
	// are marked too (Promise.all): they may arrive in any order.
	atOnce     bool
	json, form string
}

// readGolden reads the golden file: a "walk NAME: SOURCE" line opens a
// walk; each request is "ROLE METHOD TARGET [ctype=json|form]
// [accept=mcp] [auth]", followed by an indented body line ("json {...}",
// "form a=..&b=..") or none; "#" starts a comment line.
func readGolden(t *testing.T) map[string]*golden {
	t.Helper()
	f, err := os.Open(requestsGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*golden{}
	var cur *golden
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		trim := strings.TrimSpace(line)
		switch {
		case trim == "" || strings.HasPrefix(trim, "#"):
		case strings.HasPrefix(line, "walk "):
			name, src, _ := strings.Cut(strings.TrimPrefix(line, "walk "), ": ")
			cur = &golden{walk: name, source: src, line: n}
			out[name] = cur
		case strings.HasPrefix(line, "  "):
			if cur == nil || len(cur.reqs) == 0 {
				t.Fatalf("%s:%d: a body before any request", requestsGolden, n)
			}
			r := &cur.reqs[len(cur.reqs)-1]
			kind, rest, _ := strings.Cut(trim, " ")
			switch kind {
			case "json":
				r.json = rest
			case "form":
				r.form = rest
			default:
				t.Fatalf("%s:%d: a body is json or form, got %q", requestsGolden, n, kind)
			}
		default:
			if cur == nil {
				t.Fatalf("%s:%d: a request before any walk", requestsGolden, n)
			}
			fs := strings.Fields(line)
			if len(fs) < 3 {
				t.Fatalf("%s:%d: want ROLE METHOD TARGET, got %q", requestsGolden, n, line)
			}
			// The target runs to the flags at the end of the line (a
			// placeholder in it holds a space).
			end := len(fs)
			for end > 3 && goldenFlag[fs[end-1]] {
				end--
			}
			r := goldenReq{line: n, role: fs[0], method: fs[1], target: strings.Join(fs[2:end], " ")}
			for _, x := range fs[end:] {
				switch x {
				case "ctype=json":
					r.ctype = "application/json"
				case "ctype=form":
					r.ctype = "application/x-www-form-urlencoded"
				case "accept=mcp":
					r.accept = "application/json, text/event-stream"
				case "auth":
					r.auth = true
				case "at-once":
					r.atOnce = true
				default:
					t.Fatalf("%s:%d: unknown %q", requestsGolden, n, x)
				}
			}
			if r.role != "setup" && r.role != "count" && r.role != "doc" && r.role != "off" {
				t.Fatalf("%s:%d: role %q: want setup, count, doc or off", requestsGolden, n, r.role)
			}
			cur.reqs = append(cur.reqs, r)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// placeholder is <kind> or <kind N> inside a golden string.
var placeholder = regexp.MustCompile(`<(text|name|hex|uuid|int|str|b64u|id|cursor)(?: (\d+))?>`)

// patternOf turns a golden string into a regular expression: its text
// exact, each placeholder the values it stands for. <text N> is checked
// by length where it is a whole JSON string (see matchJSON); inside a
// path it is any N bytes.
func patternOf(s string, inQuery bool) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, m := range placeholder.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(regexp.QuoteMeta(s[last:m[0]]))
		kind := s[m[2]:m[3]]
		n := ""
		if m[4] >= 0 {
			n = s[m[4]:m[5]]
		}
		count := func(class string) string {
			if n == "" {
				return class + "+"
			}
			return class + "{" + n + "}"
		}
		switch kind {
		case "name":
			k, _ := strconv.Atoi(n)
			b.WriteString(fmt.Sprintf("[a-z][a-z0-9-]{%d}", k-1))
		case "hex":
			b.WriteString(count("[0-9a-f]"))
		case "uuid":
			b.WriteString("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
		case "int":
			b.WriteString("[0-9]+")
		case "b64u":
			b.WriteString(count("[A-Za-z0-9_-]"))
		case "id":
			b.WriteString("[A-Za-z0-9_-]+")
		case "text":
			b.WriteString(count("."))
		case "str", "cursor":
			if inQuery {
				b.WriteString("[^&]*")
			} else {
				b.WriteString("(?s:.*)")
			}
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(s[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// jsonLen is the JSON-escaped UTF-8 byte length of s, as Node's
// JSON.stringify writes it, without the quotes.
func jsonLen(s string) int { return len(jsonjs.AppendQuote(nil, s)) - 2 }

// ordered is a JSON value that keeps its object keys in order.
type ordered struct {
	obj  []member
	arr  []ordered
	str  *string
	raw  string // a number, true, false or null
	kind byte   // 'o', 'a', 's', 'v'
}

type member struct {
	key string
	val ordered
}

func parseOrdered(data []byte) (ordered, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readOrdered(dec)
	if err != nil {
		return v, err
	}
	if dec.More() {
		return v, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

func readOrdered(dec *json.Decoder) (ordered, error) {
	tok, err := dec.Token()
	if err != nil {
		return ordered{}, err
	}
	switch x := tok.(type) {
	case json.Delim:
		if x == '{' {
			o := ordered{kind: 'o', obj: []member{}}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return o, err
				}
				v, err := readOrdered(dec)
				if err != nil {
					return o, err
				}
				o.obj = append(o.obj, member{k.(string), v})
			}
			_, err := dec.Token()
			return o, err
		}
		a := ordered{kind: 'a', arr: []ordered{}}
		for dec.More() {
			v, err := readOrdered(dec)
			if err != nil {
				return a, err
			}
			a.arr = append(a.arr, v)
		}
		_, err := dec.Token()
		return a, err
	case string:
		return ordered{kind: 's', str: &x}, nil
	case json.Number:
		return ordered{kind: 'v', raw: x.String()}, nil
	case bool:
		return ordered{kind: 'v', raw: strconv.FormatBool(x)}, nil
	default:
		return ordered{kind: 'v', raw: "null"}, nil
	}
}

// matchJSON holds got to the golden value want at path: the same keys in
// the same order, arrays of the same length, numbers and literals equal,
// strings by pattern (a whole "<text N>" by JSON-escaped byte length).
func matchJSON(path string, want, got ordered) error {
	if want.kind == 's' && *want.str == "<num>" {
		if got.kind != 'v' || !regexp.MustCompile(`^-?[0-9]`).MatchString(got.raw) {
			return fmt.Errorf("%s: %s, want a number", path, kindOf(got))
		}
		return nil
	}
	if want.kind == 's' && *want.str == "<cursor>" && got.kind == 'v' && twinNumericCursors {
		numericCursorSeen = true
		return nil
	}
	if want.kind != got.kind {
		return fmt.Errorf("%s: %s, want %s", path, kindOf(got), kindOf(want))
	}
	switch want.kind {
	case 'o':
		var wk, gk []string
		for _, m := range want.obj {
			wk = append(wk, m.key)
		}
		for _, m := range got.obj {
			gk = append(gk, m.key)
		}
		if strings.Join(wk, ",") != strings.Join(gk, ",") {
			return fmt.Errorf("%s: keys %v, want %v, in that order", path, gk, wk)
		}
		for i := range want.obj {
			if err := matchJSON(path+"."+want.obj[i].key, want.obj[i].val, got.obj[i].val); err != nil {
				return err
			}
		}
	case 'a':
		if len(want.arr) != len(got.arr) {
			return fmt.Errorf("%s: %d items, want %d", path, len(got.arr), len(want.arr))
		}
		for i := range want.arr {
			if err := matchJSON(fmt.Sprintf("%s[%d]", path, i), want.arr[i], got.arr[i]); err != nil {
				return err
			}
		}
	case 's':
		w, g := *want.str, *got.str
		if m := regexp.MustCompile(`^<text (\d+)>$`).FindStringSubmatch(w); m != nil {
			n, _ := strconv.Atoi(m[1])
			if jsonLen(g) != n {
				return fmt.Errorf("%s: free text of %d JSON-escaped bytes, want %d: %q", path, jsonLen(g), n, g)
			}
			return nil
		}
		if !patternOf(w, false).MatchString(g) {
			return fmt.Errorf("%s: %q, want %q", path, g, w)
		}
	default:
		if want.raw != got.raw {
			return fmt.Errorf("%s: %s, want %s", path, got.raw, want.raw)
		}
	}
	return nil
}

func kindOf(v ordered) string {
	switch v.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return "a string"
	}
	return v.raw
}

// check holds one request to its golden; nil when it matches.
func (g goldenReq) check(s sent) error {
	if s.method != g.method {
		return fmt.Errorf("method %s, want %s", s.method, g.method)
	}
	path, query, _ := strings.Cut(s.target, "?")
	wpath, wquery, _ := strings.Cut(g.target, "?")
	if !patternOf(wpath, false).MatchString(path) {
		return fmt.Errorf("path %s, want %s", path, wpath)
	}
	if !patternOf(wquery, true).MatchString(query) {
		return fmt.Errorf("query %q, want %q", query, wquery)
	}
	if s.ctype != g.ctype {
		return fmt.Errorf("Content-Type %q, want %q", s.ctype, g.ctype)
	}
	if s.accept != g.accept {
		return fmt.Errorf("Accept %q, want %q", s.accept, g.accept)
	}
	if s.auth != g.auth {
		return fmt.Errorf("a token sent: %v, want %v", s.auth, g.auth)
	}
	if s.mcpHeaders != "" {
		return fmt.Errorf("%s sent; the service's test sends no MCP header", s.mcpHeaders)
	}
	switch {
	case g.json != "":
		want, err := parseOrdered([]byte(g.json))
		if err != nil {
			return fmt.Errorf("the golden's json: %v", err)
		}
		got, err := parseOrdered(s.body)
		if err != nil {
			return fmt.Errorf("the body is not JSON: %v: %q", err, s.body)
		}
		if err := matchJSON("body", want, got); err != nil {
			return err
		}
		// The body is written as JSON.stringify writes it: no space, no
		// escape Node would not write, so no byte moves unseen.
		v, err := jsonjs.Parse(s.body)
		if err != nil {
			return err
		}
		if node := jsonjs.Stringify(v); !bytes.Equal(node, s.body) {
			return fmt.Errorf("the body is not as JSON.stringify writes it: %s, Node writes %s", s.body, node)
		}
	case g.form != "":
		if !patternOf(g.form, true).MatchString(string(s.body)) {
			return fmt.Errorf("form body %q, want %q", s.body, g.form)
		}
	default:
		if len(s.body) != 0 {
			return fmt.Errorf("a body %q, want none", s.body)
		}
	}
	return nil
}

// twinNumericCursors tolerates a mailbox cursor sent back as a number
// while the twin answers its cursors as numbers; the service answers
// strings, and the walks send back what they are given. The test fails
// once no numeric cursor is seen: then set it false.
const twinNumericCursors = false

var numericCursorSeen bool

func TestRequestsAreTheServiceTests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every walk on the twin")
	}
	goldens := readGolden(t)
	specs := loadSpecs(t, specDir)
	// Once with names new every run, once on a fresh twin with the test's
	// own names, as the service's CI would run them (docs/ci.md).
	replay(t, goldens, specs, nil)
	replay(t, goldens, specs, testNames)
	if twinNumericCursors && !numericCursorSeen && !t.Failed() {
		t.Errorf("the twin answers its mailbox cursors as strings now, as the service does: set twinNumericCursors false")
	}
}

// testNames are the SPACE names of the service's test, one var a walk.
var testNames = map[string]string{
	"plugin_space": "first-task-plugin", "connector_space": "first-task-connect", "http_space": "first-task-http",
	"start_tasks_space": "first-start-tasks", "start_research_space": "first-start-research", "start_coordinate_space": "first-start-coordinate",
	"survey_prefix": "proposal-survey-", "toolset_tasks_space": "first-toolset-tasks", "toolset_research_space": "first-toolset-research", "toolset_coordinate_space": "first-toolset-coordinate",
	"proposal_http_slug": "many-spaces-at-once", "proposal_connector_slug": "many-spaces-mcp",
}

func replay(t *testing.T, goldens map[string]*golden, specs []*walk.Spec, vars map[string]string) {
	rc := &recorder{to: startTwin(t)}
	budget := twinBudget(t)
	proxy := httptest.NewServer(rc)
	defer proxy.Close()
	for _, s := range specs {
		g, ok := goldens[s.Name]
		if !ok {
			if s.Name == "primer" || s.Name == "reference" {
				continue // documents with their own ceilings; not walks of the test
			}
			if !*dumpRequests {
				t.Errorf("walk %s: no requests in %s", s.Name, requestsGolden)
				continue
			}
			g = &golden{walk: s.Name}
		}
		name := s.Name
		if vars != nil {
			name += "/the test's names"
		}
		t.Run(name, func(t *testing.T) {
			res, err := walk.Run(context.Background(), s, walk.Options{BaseURL: proxy.URL, Vars: vars, Budget: budget})
			reqs := rc.take()
			if *dumpRequests {
				for _, r := range reqs {
					t.Logf("%s %s ctype=%q accept=%q auth=%v\n  %s", r.method, r.target, r.ctype, r.accept, r.auth, r.body)
				}
			}
			if err != nil {
				t.Fatalf("walk %s failed on the twin:\n%v", s.Name, err)
			}
			counted := 0
			matched := map[int]bool{}
			for i := 0; i < len(reqs) || i < len(g.reqs); i++ {
				switch {
				case i >= len(g.reqs):
					t.Fatalf("walk %s sends request %d, %s %s, which the service's test (%s) does not", s.Name, i+1, reqs[i].method, reqs[i].target, g.source)
				case i >= len(reqs):
					t.Fatalf("walk %s sends %d requests; the service's test (%s) sends %s:%d next", s.Name, len(reqs), g.source, requestsGolden, g.reqs[i].line)
				}
				w := g.reqs[i]
				if w.role == "count" { // documents are counted, but they are no calls
					counted++
				}
				if w.atOnce {
					// Requests sent at once arrive in any order: this one
					// matches the first of its group's lines not matched yet.
					if m := atOnceMatch(g.reqs, i, reqs[i], matched); m >= 0 {
						matched[m] = true
						continue
					}
				}
				if err := w.check(reqs[i]); err != nil {
					t.Fatalf("walk %s, request %d (%s %s): %v\n  golden: %s:%d (from %s)\n  body sent: %s", s.Name, i+1, reqs[i].method, reqs[i].target, err, requestsGolden, w.line, g.source, reqs[i].body)
				}
			}
			if int64(counted) != res.Calls {
				t.Errorf("walk %s counts %d calls; the golden marks %d counted", s.Name, res.Calls, counted)
			}
			for _, v := range []string{s.Name + "_space", s.Name + "_slug"} {
				if name, ok := testNames[v]; vars != nil && ok && !strings.Contains(string(bytes.Join(bodies(reqs), nil)), name) {
					t.Errorf("walk %s: --var %s=%s does not reach its requests", s.Name, v, name)
				}
			}
		})
	}
}

// atOnceMatch returns the index of the golden line of the at-once group
// around i that s matches and that no earlier request matched, or -1.
func atOnceMatch(gs []goldenReq, i int, s sent, matched map[int]bool) int {
	lo, hi := i, i
	for lo > 0 && gs[lo-1].atOnce {
		lo--
	}
	for hi+1 < len(gs) && gs[hi+1].atOnce {
		hi++
	}
	for j := lo; j <= hi; j++ {
		if !matched[j] && gs[j].check(s) == nil {
			return j
		}
	}
	return -1
}

func bodies(reqs []sent) [][]byte {
	var out [][]byte
	for _, r := range reqs {
		out = append(out, []byte(r.target), r.body)
	}
	return out
}

// goldenFlag is every flag a golden request line may end with.
var goldenFlag = map[string]bool{"ctype=json": true, "ctype=form": true, "accept=mcp": true, "auth": true, "at-once": true}

// TestGoldenCheckFailsOnOneByte holds the checker itself: the request the
// http walk posts matches its golden line, and every change of one byte
// (free text, a name, a key's order, a vocabulary word, a space, a header,
// a query) is caught.
func TestGoldenCheckFailsOnOneByte(t *testing.T) {
	g := goldenReq{
		role: "count", method: "POST", target: "/v1/spaces/<name 15>/posts?receipt=<str>", ctype: "application/json", auth: true,
		json: `{"kind":"result","title":"<text 22>","body":"<text 28>","data":{"sources":["<id>"]},"run_id":"<uuid>","task":{"number":"<num>"},"after":"<cursor>"}`,
	}
	ok := sent{
		method: "POST", target: "/v1/spaces/t-http-0a1b2c3d/posts?receipt=full", ctype: "application/json", auth: true,
		body: []byte(`{"kind":"result","title":"The opening line, done","body":"The opening line, copied in.","data":{"sources":["p_1"]},"run_id":"00000000-0000-4000-8000-00000a1b2c3d","task":{"number":1},"after":"7"}`),
	}
	if err := g.check(ok); err != nil {
		t.Fatalf("the request as the test sends it: %v", err)
	}
	for name, change := range map[string]func(*sent){
		"a title one byte longer": func(s *sent) { s.body = bytes.Replace(s.body, []byte("done"), []byte("done!"), 1) },
		"an escape that adds one": func(s *sent) { s.body = bytes.Replace(s.body, []byte("copied in."), []byte(`copied\n.`), 1) },
		"a name one byte longer":  func(s *sent) { s.target = strings.Replace(s.target, "t-http-", "t-https-", 1) },
		"two keys swapped": func(s *sent) {
			s.body = bytes.Replace(s.body, []byte(`"kind":"result","title":"The opening line, done"`), []byte(`"title":"The opening line, done","kind":"result"`), 1)
		},
		"another kind":             func(s *sent) { s.body = bytes.Replace(s.body, []byte(`"result"`), []byte(`"results"`), 1) },
		"a space in the JSON":      func(s *sent) { s.body = bytes.Replace(s.body, []byte(`"kind":`), []byte(`"kind": `), 1) },
		"a number sent as text":    func(s *sent) { s.body = bytes.Replace(s.body, []byte(`"number":1`), []byte(`"number":"1"`), 1) },
		"no token":                 func(s *sent) { s.auth = false },
		"another content type":     func(s *sent) { s.ctype = "application/json; charset=utf-8" },
		"an Accept sent":           func(s *sent) { s.accept = "*/*" },
		"a query left out":         func(s *sent) { s.target = strings.Split(s.target, "?")[0] },
		"a run id that is no UUID": func(s *sent) { s.body = bytes.Replace(s.body, []byte("-00000a1b2c3d"), []byte("-00000a1b2c3"), 1) },
	} {
		s := ok
		change(&s)
		if err := g.check(s); err == nil {
			t.Errorf("%s: not caught", name)
		}
	}
}
