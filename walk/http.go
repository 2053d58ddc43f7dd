package walk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/readmeter/readmeter/internal/fetch"
	"github.com/readmeter/readmeter/internal/redirect"
	"github.com/tidwall/gjson"
)

// maxBody bounds an answer read whole: 64 MiB.
const maxBody = 64 << 20

func (r *runner) http(ctx context.Context, st *Step, h *HTTPRequest) (*exchange, error) {
	target, err := r.sc.render(h.URL)
	if err != nil {
		return nil, specErr(st, err)
	}
	target, err = r.resolve(target)
	if err != nil {
		return nil, specErr(st, err)
	}
	if len(h.Query) > 0 {
		var q []string
		for _, kv := range h.Query {
			v, err := r.sc.render(kv.Value)
			if err != nil {
				return nil, specErr(st, err)
			}
			q = append(q, url.QueryEscape(kv.Key)+"="+url.QueryEscape(v))
		}
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		target += sep + strings.Join(q, "&")
	}
	var body []byte
	ctype := ""
	switch {
	case h.JSON != nil:
		body, err = r.sc.renderJSON(h.JSON)
		ctype = "application/json"
	case h.Form != nil:
		var parts []string
		for _, kv := range h.Form {
			v, e := r.sc.render(kv.Value)
			if e != nil {
				err = e
				break
			}
			parts = append(parts, url.QueryEscape(kv.Key)+"="+url.QueryEscape(v))
		}
		body = []byte(strings.Join(parts, "&"))
		ctype = "application/x-www-form-urlencoded"
	case h.Body != nil:
		var s string
		s, err = r.sc.render(*h.Body)
		body = []byte(s)
	}
	if err != nil {
		return nil, specErr(st, err)
	}
	auth, err := r.sc.render(h.Auth)
	if err != nil {
		return nil, specErrAt(st, h.AuthLine, err)
	}
	headers := http.Header{}
	if ctype != "" {
		headers.Set("Content-Type", ctype)
	}
	for _, kv := range h.Headers {
		v, err := r.sc.render(kv.Value)
		if err != nil {
			return nil, specErr(st, err)
		}
		r.sc.header(kv.Key, v)
		headers.Add(kv.Key, v)
	}
	if auth != "" {
		r.sc.secret(auth)
		headers.Set("Authorization", "Bearer "+auth)
	}
	set := make([]string, len(h.Headers))
	for i, kv := range h.Headers {
		set[i] = kv.Key
	}
	return r.send(ctx, st, h.Method, target, headers, body, h.HasBody, h.Follow, set)
}

// send makes one HTTP request and reads its answer whole. It follows the
// redirects follow allows (none when empty); set names the headers the
// spec set, which never go to another origin.
func (r *runner) send(ctx context.Context, st *Step, method, target string, headers http.Header, body []byte, hasBody bool, follow redirect.Follow, set []string) (*exchange, error) {
	ex := &exchange{request: method + " " + target, reqBody: body}
	var rd io.Reader
	if hasBody {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, r.fail(st, 0, "cannot build the request: "+err.Error(), ex)
	}
	req.Header = headers
	fetch.Prepare(req)
	if follow == "" {
		follow = redirect.None
	}
	client := *r.client
	client.CheckRedirect = follow.Check(set)
	resp, err := client.Do(req)
	if err != nil {
		if what, ok := redirected(err); ok {
			return nil, r.fail(st, 0, what, ex)
		}
		return nil, r.fail(st, 0, "no answer: "+r.transportError(err), ex)
	}
	defer resp.Body.Close()
	ex.status, ex.header = resp.StatusCode, resp.Header
	// The body as fetch reads it: content codings undone, a BOM dropped.
	rd2, err := fetch.Body(resp)
	if err != nil {
		return nil, r.fail(st, 0, err.Error(), ex)
	}
	ex.body, err = io.ReadAll(io.LimitReader(rd2, maxBody+1))
	if err != nil {
		return nil, r.fail(st, 0, "the answer was cut: "+r.transportError(err), ex)
	}
	if len(ex.body) > maxBody {
		return nil, r.fail(st, 0, fmt.Sprintf("the answer is larger than %d MiB, the most a step reads", maxBody>>20), ex)
	}
	ex.json = ex.body
	return ex, nil
}

// redirected says what a redirect the rule did not follow was, and what
// the spec may do about it; ok is false for any other error.
func redirected(err error) (what string, ok bool) {
	var re *redirect.Error
	if !errors.As(err, &re) {
		return "", false
	}
	if re.Hops > 0 {
		return re.Error(), true
	}
	return re.Error() + " (follow: cross-origin follows it, sending none of the spec's headers there)", true
}

func (r *runner) transportError(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("the time limit of a step (%s) ran out", r.opts.Timeout)
	}
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		return ue.Err.Error()
	}
	return err.Error()
}

// path reads a gjson path from an answer. For an MCP answer a path that
// matches nothing in the JSON-RPC message is read from its result, so
// structuredContent.task.number reaches into a tool result.
func (ex *exchange) path(p string) gjson.Result {
	if !gjson.ValidBytes(ex.json) {
		return gjson.Result{}
	}
	v := gjson.GetBytes(ex.json, p)
	if !v.Exists() && ex.mcp {
		v = gjson.GetBytes(ex.json, "result."+p)
	}
	return v
}

func statusOK(want []int, got int) bool {
	if len(want) == 0 {
		return got == 0 || (got >= 200 && got < 300)
	}
	for _, w := range want {
		if w == got {
			return true
		}
	}
	return false
}

func (r *runner) expect(st *Step, ex *exchange) error {
	e := st.Expect
	if !statusOK(e.Status, ex.status) {
		want := "a 2xx status"
		if len(e.Status) > 0 {
			var ws []string
			for _, s := range e.Status {
				ws = append(ws, fmt.Sprint(s))
			}
			want = strings.Join(ws, " or ")
		}
		return r.fail(st, e.StatusLine, fmt.Sprintf("status %d, want %s", ex.status, want), ex)
	}
	if ex.rpcError {
		wantsError := false
		for _, p := range e.Paths {
			if strings.HasPrefix(p.Path, "error") {
				wantsError = true
			}
		}
		if !wantsError {
			return r.fail(st, 0, "the answer is a JSON-RPC error (assert on error.code to expect one)", ex)
		}
	}
	for _, a := range e.Body {
		if err := r.textAssert(st, ex, a, "body", string(ex.body)); err != nil {
			return err
		}
	}
	if len(e.Text) > 0 {
		text, ok := toolText(ex)
		if !ok {
			return r.fail(st, e.Text[0].Line, "expect.text: the answer is not a tool result with text content", ex)
		}
		for _, a := range e.Text {
			if err := r.textAssert(st, ex, a, "text", text); err != nil {
				return err
			}
		}
	}
	for _, a := range e.Paths {
		got := ex.path(a.Path)
		switch a.Kind {
		case AssertExists:
			if got.Exists() != a.Exists {
				what := fmt.Sprintf("%s: exists, but want it absent (it is %s)", a.Path, clip(got.Raw))
				if a.Exists {
					what = fmt.Sprintf("%s: matches nothing, want it to exist", a.Path)
				}
				return r.fail(st, a.Line, what, ex)
			}
		case AssertEquals:
			if !got.Exists() {
				return r.fail(st, a.Line, fmt.Sprintf("%s: matches nothing", a.Path), ex)
			}
			ok, want, err := r.sc.equalJSON(got, a.Equals)
			if err != nil {
				return specErr(st, err)
			}
			if !ok {
				return r.fail(st, a.Line, fmt.Sprintf("%s is %s, want %s", a.Path, clip(got.Raw), clip(want)), ex)
			}
		case AssertMatches:
			if !got.Exists() {
				return r.fail(st, a.Line, fmt.Sprintf("%s: matches nothing", a.Path), ex)
			}
			if a.Re != nil && !a.Re.MatchString(got.String()) {
				return r.fail(st, a.Line, fmt.Sprintf("%s is %s, want it to match %s", a.Path, clip(got.Raw), a.Re), ex)
			}
		}
	}
	if e.NotError {
		if !ex.path("result").Exists() {
			return r.fail(st, e.NotErrorLine, "not_error: the answer is not a tool result", ex)
		}
		if ex.path("result.isError").Bool() {
			text, _ := toolText(ex)
			return r.fail(st, e.NotErrorLine, "the tool result is an error (isError true): "+clip(text), ex)
		}
	}
	return nil
}

func clip(s string) string { return clipTo(s, 200) }

// clipTo cuts s to at most n bytes (at a character's start), marking the
// cut with "...".
func clipTo(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "..."
	}
	return s
}

func (r *runner) textAssert(st *Step, ex *exchange, a TextAssert, what, text string) error {
	switch a.Kind {
	case AssertPrefix, AssertContains:
		want, err := r.sc.render(a.Value)
		if err != nil {
			return specErr(st, err)
		}
		if a.Kind == AssertPrefix && !strings.HasPrefix(text, want) {
			return r.fail(st, a.Line, fmt.Sprintf("the %s does not start with %q; it starts %q", what, clip(want), clip(head(text, len(want)))), ex)
		}
		if a.Kind == AssertContains && !strings.Contains(text, want) {
			return r.fail(st, a.Line, fmt.Sprintf("the %s does not contain %q", what, clip(want)), ex)
		}
	case AssertMatches:
		if !a.Re.MatchString(text) {
			return r.fail(st, a.Line, fmt.Sprintf("the %s does not match %s", what, a.Re), ex)
		}
	}
	return nil
}

func head(s string, n int) string {
	if n < 20 {
		n = 20
	}
	if len(s) > n {
		return s[:n]
	}
	return s
}

// toolText returns a tool result's text content, joined with newlines.
func toolText(ex *exchange) (string, bool) {
	content := ex.path("result.content")
	if !content.IsArray() {
		return "", false
	}
	var parts []string
	content.ForEach(func(_, c gjson.Result) bool {
		if c.Get("type").String() == "text" {
			parts = append(parts, c.Get("text").String())
		}
		return true
	})
	return strings.Join(parts, "\n"), true
}

func (r *runner) keep(st *Step, ex *exchange) error {
	for _, k := range st.Keep {
		var v value
		from := k.Path
		if k.Header != "" {
			from = "header " + k.Header
			h := ex.header.Get(k.Header)
			if h == "" {
				f := r.fail(st, k.Line, fmt.Sprintf("keep %s: the answer has no %s header", k.Name, k.Header), ex)
				f.Spec = true
				return f
			}
			v = value{text: h}
		} else {
			if !jsonValid(ex.json) {
				// No JSON at all (an HTML error page, text): the server
				// did not answer as it should, whatever the path.
				what := "the answer is not JSON"
				if ct := ex.header.Get("Content-Type"); ct != "" {
					what = fmt.Sprintf("the answer is %s, not JSON", ct)
				}
				return r.fail(st, k.Line, fmt.Sprintf("keep %s: %s", k.Name, what), ex)
			}
			got := ex.path(k.Path)
			if !got.Exists() {
				f := r.fail(st, k.Line, fmt.Sprintf("keep %s: %s matches nothing in the answer", k.Name, k.Path), ex)
				f.Spec = true
				return f
			}
			v = keptValue(got)
		}
		if k.Regex != nil {
			m := k.Regex.FindStringSubmatch(v.text)
			if m == nil {
				return r.fail(st, k.Line, fmt.Sprintf("keep %s: %s is %q, which does not match %s", k.Name, from, clip(r.sc.redact(v.text)), k.Regex), ex)
			}
			v = value{text: m[1]}
		}
		r.sc.set(k.Name, v, secretName.MatchString(k.Name) || secretName.MatchString(k.Path))
	}
	return nil
}
