package walk

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/gate"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/ledger"
	"github.com/readmeter/readmeter/mcpwire"
)

// Options are what a run needs beside its spec.
type Options struct {
	// BaseURL is the server's address; relative paths in the spec are
	// resolved against it.
	BaseURL string
	// Vars are --var values; they win over the spec's vars.
	Vars map[string]string
	// Env looks up the environment for {{env.NAME}}; nil means os.LookupEnv.
	Env func(string) (string, bool)
	// Budget looks up a budget's value for {{budget.KEY}}
	// ({{budget.SURVEY_BUDGET.spaces}}), as the budget file holds it; nil
	// means no budget file, and every such name is undefined.
	Budget func(key string) (int64, bool)
	// HTTPClient sends HTTP steps and MCP requests over HTTP; nil means a
	// new http.Client. Its CheckRedirect is replaced, step by step, by the
	// redirect rule (package internal/redirect) with the step's follow.
	HTTPClient *http.Client
	// Timeout bounds each step; 0 means 30 seconds.
	Timeout time.Duration
	// OnStep, when set, is called after each step (for a progress bar). It
	// must be safe for concurrent use when walks run concurrently.
	OnStep func()
	// StartServer, when set, starts a server for each run of a walk alone
	// (a fresh twin, say): the run goes to the base URL it returns instead
	// of BaseURL, and stop is called when the run ends. It must be safe for
	// concurrent use when walks run concurrently.
	StartServer func() (baseURL string, stop func(), err error)
}

// Result is what one run of a walk read.
type Result struct {
	// Spec is the walk's spec.
	Spec *Spec
	// Ledger holds every counted part, in order.
	Ledger *ledger.Ledger
	// Calls is the number of counted http and mcp steps (requests and
	// notifications sent to the server; documents are not calls).
	Calls int64
	// ToolLists holds, by part, the model-read bytes of the tools/list
	// answers of counted mcp list steps.
	ToolLists map[string]int64
	// Items holds, by part, how many entries the `items` lists of the
	// part's answers hold (in an MCP answer, its structured content's),
	// summed over every answer counted under it; kept for the parts an
	// items measure names.
	Items map[string]int64
	// Answers are the counted tools/call answers as a client renders
	// them, in order: what the clients' answer limits hold (AnswerLints).
	Answers []CallAnswer
	// Held are answer lints an earlier run held already (a shard's
	// report, merged): AnswerLints returns them first.
	Held []AnswerLimitReport
	// HeldErrors are error answers an earlier run found already (a
	// shard's report, merged): ErrorAnswers returns them first.
	HeldErrors []ErrorAnswerReport
}

// Read returns what m reads in the result, and the bytes behind it: the
// walk's bytes for its tokens, the model-read bytes for a tool list's
// tokens, else the value itself.
func (r *Result) Read(m gate.Measure) (value, bytes int64, err error) {
	switch m.Kind {
	case gate.Total:
		return r.Ledger.Tokens(), r.Ledger.Bytes(), nil
	case gate.TotalBytes:
		return r.Ledger.Bytes(), r.Ledger.Bytes(), nil
	case gate.CallCount:
		return r.Calls, r.Calls, nil
	case gate.Step:
		p, ok := r.Ledger.Part(m.Part)
		if !ok {
			return 0, 0, fmt.Errorf("walk %s has no part %q", r.Spec.Name, m.Part)
		}
		return p.Bytes, p.Bytes, nil
	case gate.ItemCount:
		if _, ok := r.Ledger.Part(m.Part); !ok {
			return 0, 0, fmt.Errorf("walk %s has no part %q", r.Spec.Name, m.Part)
		}
		n := r.Items[m.Part]
		return n, n, nil
	case gate.ToolList:
		n, ok := r.ToolLists[m.Part]
		if !ok {
			return 0, 0, fmt.Errorf("walk %s has no tool list %q", r.Spec.Name, m.Part)
		}
		return units.Tokens(n), n, nil
	}
	return 0, 0, fmt.Errorf("unknown measure %q", m.Kind)
}

// Checks holds each of the walk's measures (Spec.AllMeasures) to its
// budget in bs; with bs nil, every check is gate.Unchecked. A measure the
// result cannot read (a part the walk never counted) stops the checks:
// those held so far are returned with the error.
func (r *Result) Checks(bs gate.Budgets) (gate.Checks, error) {
	var cs gate.Checks
	for _, m := range r.Spec.AllMeasures() {
		v, n, err := r.Read(m.Measure)
		if err != nil {
			return cs, err
		}
		cs = append(cs, gate.Hold(r.Spec.Name, m.Key, m.Measure, v, n, bs))
	}
	return cs, nil
}

// Failure is a walk that failed against the server: a status, an assert, a
// value to keep that the answer lacks, or the transport. It names the
// step, the spec line, the request and the actual answer; every token is
// redacted.
type Failure struct {
	// Walk is the walk's name.
	Walk string
	// File and Line are where the step (or the assert) is declared.
	File string
	Line int
	// Step names the step (its part, or its kind).
	Step string
	// What says what did not hold: "status 404, want 200".
	What string
	// Request is "METHOD URL", or the command run.
	Request string
	// RequestBody is an excerpt of the request body.
	RequestBody string
	// Status is the answer's HTTP status (0 when none).
	Status int
	// Answer is an excerpt of the answer.
	Answer string
	// Spec is true when the spec is at fault rather than the server: a
	// keep path or header that finds nothing in a JSON answer. A keep on an
	// answer that is not JSON at all is the server's fault.
	Spec bool
}

// Error returns the failure, hurl style: the place and what did not hold,
// then the request and the answer on their own lines.
func (f *Failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "walk %s: %s:%d: %s: %s", f.Walk, f.File, f.Line, f.Step, f.What)
	if f.Request != "" {
		fmt.Fprintf(&b, "\n  request: %s", f.Request)
	}
	if f.RequestBody != "" {
		fmt.Fprintf(&b, "\n  request body: %s", f.RequestBody)
	}
	if f.Status != 0 {
		fmt.Fprintf(&b, "\n  answer: %d %s", f.Status, http.StatusText(f.Status))
	}
	if f.Answer != "" {
		fmt.Fprintf(&b, "\n  answer body: %s", f.Answer)
	}
	return b.String()
}

// excerptMax is how much of a body a failure shows.
const excerptMax = 600

func excerpt(b []byte) string {
	s := strings.ToValidUTF8(string(b), "\uFFFD")
	s = strings.TrimSpace(s)
	if len(s) > excerptMax {
		cut := excerptMax
		for cut > 0 && (s[cut]&0xC0) == 0x80 {
			cut--
		}
		s = s[:cut] + fmt.Sprintf("... (%d bytes in all)", len(b))
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}

// runner is one run of one walk.
type runner struct {
	ctx     context.Context
	spec    *Spec
	opts    Options
	base    *url.URL
	sc      *scope
	led     *ledger.Ledger
	res     *Result
	client  *http.Client
	clients map[*Server]mcpClient
	keys    map[string]*keyPair
	meta    map[*Server]map[string]map[string]int64 // by server and tool, the _meta numbers of its tools/list entry
}

// Run runs the walk: its set-up steps, then its steps, each answer counted
// in the ledger as its part. A failure against the server is a *Failure;
// a mistake the spec check could not see (an include's server, say) is a
// *SpecError. With o.StartServer, the run goes to a server of its own.
func Run(ctx context.Context, s *Spec, o Options) (*Result, error) {
	if o.StartServer != nil {
		base, stop, err := o.StartServer()
		if err != nil {
			return nil, fmt.Errorf("walk %s: starting its server: %v", s.Name, err)
		}
		defer stop()
		o.BaseURL, o.StartServer = base, nil
	}
	if o.Env == nil {
		o.Env = os.LookupEnv
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	base, err := url.Parse(strings.TrimRight(o.BaseURL, "/"))
	if err != nil || (o.BaseURL != "" && (base.Scheme == "" || base.Host == "")) {
		return nil, fmt.Errorf("base URL %q: want http://host[:port][/path]", o.BaseURL)
	}
	var norms []ledger.Normalizer
	for _, n := range s.Normalize {
		var nz ledger.Normalizer
		if n.Name != "" {
			nz, err = ledger.ByName(n.Name)
		} else {
			nz, err = ledger.Regex(n.Pattern, n.Replace)
		}
		if err != nil {
			return nil, &SpecError{File: s.File, Line: n.Line, Msg: err.Error()}
		}
		norms = append(norms, nz)
	}
	client := &http.Client{}
	if o.HTTPClient != nil {
		c := *o.HTTPClient
		client = &c
	}
	r := &runner{
		ctx: ctx, spec: s, opts: o, base: base, client: client,
		sc:      &scope{vals: map[string]value{}, env: o.Env, budget: o.Budget},
		led:     ledger.New(s.Name, norms...),
		clients: map[*Server]mcpClient{},
		keys:    map[string]*keyPair{},
	}
	r.res = &Result{Spec: s, Ledger: r.led, ToolLists: map[string]int64{}, Items: map[string]int64{}}
	defer r.close()
	id := make([]byte, 4)
	_, _ = rand.Read(id)
	r.sc.vals["url"] = value{text: strings.TrimRight(o.BaseURL, "/")}
	r.sc.vals["url.host"] = value{text: base.Host}
	r.sc.vals["walk"] = value{text: s.Name}
	r.sc.vals["run.id"] = value{text: hex.EncodeToString(id)}
	r.sc.vals["run.short"] = value{text: hex.EncodeToString(id)[:6]}
	for _, v := range s.Vars {
		if over, ok := o.Vars[v.Key]; ok {
			r.sc.vals[v.Key] = value{text: over}
			continue
		}
		t, err := r.sc.render(v.Value)
		if err != nil {
			return nil, &SpecError{File: s.File, Line: v.Line, Msg: "vars." + v.Key + ": " + err.Error()}
		}
		r.sc.vals[v.Key] = value{text: t}
	}
	for k, v := range o.Vars {
		r.sc.vals[k] = value{text: v}
	}
	for _, st := range s.Setup {
		if err := r.step(ctx, st); err != nil {
			return r.res, err
		}
	}
	for _, st := range s.Steps {
		if err := r.step(ctx, st); err != nil {
			return r.res, err
		}
	}
	return r.res, nil
}

func (r *runner) close() {
	for _, c := range r.clients {
		_ = c.Close()
	}
}

// fail builds a Failure for a step.
func (r *runner) fail(st *Step, line int, what string, ex *exchange) *Failure {
	if line == 0 {
		line = st.Line
	}
	f := &Failure{Walk: r.spec.Name, File: st.File, Line: line, Step: fmt.Sprintf("step %q", st.Title()), What: oneLine(r.sc.redact(what))}
	if st.Part == "" {
		f.Step = st.Title()
	}
	if ex != nil {
		f.Request = r.sc.redact(ex.request)
		if len(ex.reqBody) > 0 {
			f.RequestBody = r.sc.redact(excerpt(ex.reqBody))
		}
		f.Status = ex.status
		if len(ex.body) > 0 {
			f.Answer = r.sc.redact(excerpt(ex.body))
		}
	}
	return f
}

// oneLine writes the line breaks of a message as \n, so what did not hold
// stays on the failure's first line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`).Replace(s)
}

// exchange is one step's request and answer, for asserts and messages.
type exchange struct {
	request string // "POST http://..." or a command line
	reqBody []byte
	status  int
	header  http.Header
	body    []byte // the counted text, as received
	// json is what paths are read from: the body, or an MCP answer's
	// JSON-RPC message.
	json []byte
	// mcp is true for an MCP answer: paths fall back to its result.
	mcp bool
	// rpcError is true when an MCP answer is a JSON-RPC error.
	rpcError bool
	// note keeps what the answer limits need of the answer (nil: nothing)
	note func()
}

func (r *runner) step(ctx context.Context, st *Step) error {
	if st.Repeat == nil {
		return st.Action.run(ctx, r, st)
	}
	rp := st.Repeat
	for run := 1; ; run++ {
		if err := st.Action.run(ctx, r, st); err != nil {
			return err
		}
		more, err := r.sc.render(rp.While)
		if err != nil {
			return specErr(st, err)
		}
		if !truthy(more) {
			return nil
		}
		if run >= rp.Max {
			return r.fail(st, rp.Line, fmt.Sprintf("repeat: %q still says there is more after %d runs, its max", clip(more), rp.Max), nil)
		}
		for _, kv := range rp.Set {
			v, err := r.sc.render(kv.Value)
			if err != nil {
				return &SpecError{File: st.File, Line: kv.Line, Msg: "repeat.set." + kv.Key + ": " + err.Error()}
			}
			r.sc.set(kv.Key, value{text: v}, false)
		}
	}
}

// truthy reports whether a repeat's condition, rendered, says there is
// more: anything but "", "false", "0", "null" and "[]".
func truthy(s string) bool {
	switch strings.TrimSpace(s) {
	case "", "false", "0", "null", "[]":
		return false
	}
	return true
}

// together sends a together step's requests at once, then checks, keeps
// from and counts each answer in the order the steps are written.
func (r *runner) together(ctx context.Context, group []*Step) error {
	ids := make([]int64, len(group))
	for i, g := range group {
		m, ok := g.Action.(*MCPRequest)
		if !ok {
			continue
		}
		// Connect first, in order; MCP ids follow the order written.
		sv, err := r.server(g, m)
		if err != nil {
			return err
		}
		c, err := r.connect(ctx, g, sv)
		if err != nil {
			return err
		}
		ids[i] = c.Reserve(1)
	}
	exs := make([]*exchange, len(group))
	errs := make([]error, len(group))
	var wg sync.WaitGroup
	for i, g := range group {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, cancel := context.WithTimeout(ctx, r.opts.Timeout)
			defer cancel()
			if ids[i] != 0 {
				c = mcpwire.WithID(c, ids[i])
			}
			// Only kinds that send go together (the parser sees to it).
			exs[i], errs[i] = g.Action.(sender).send(c, r, g)
		}()
	}
	wg.Wait()
	for i, g := range group {
		if errs[i] != nil {
			return errs[i]
		}
		if err := r.finish(g, exs[i]); err != nil {
			return err
		}
		if r.opts.OnStep != nil {
			r.opts.OnStep()
		}
	}
	return nil
}

// finish holds an answer to what must hold, keeps from it and counts it.
func (r *runner) finish(st *Step, ex *exchange) error {
	if ex.note != nil {
		ex.note()
	}
	if err := r.expect(st, ex); err != nil {
		return err
	}
	if err := r.keep(st, ex); err != nil {
		return err
	}
	if st.Counted {
		if st.Action.traits().call {
			r.res.Calls++
		}
		if st.Shared {
			r.led.AddShared(st.Part, ex.body)
		} else {
			r.led.Add(st.Part, ex.body)
		}
		for _, m := range r.spec.AllMeasures() {
			if m.Kind == gate.ItemCount && m.Part == st.Part {
				r.res.Items[st.Part] += itemsIn(ex.json)
				break
			}
		}
	}
	return nil
}

// itemsIn returns how many entries the answer's `items` list holds: at
// the top of a JSON answer, or in an MCP tool result's structured content.
func itemsIn(msg []byte) int64 {
	v := gjson.GetBytes(msg, "items")
	if !v.IsArray() {
		v = gjson.GetBytes(msg, "result.structuredContent.items")
	}
	if !v.IsArray() {
		return 0
	}
	return int64(len(v.Array()))
}

// specErr turns a template error at run time into a SpecError.
func specErr(st *Step, err error) error {
	var se *SpecError
	if errors.As(err, &se) {
		return err
	}
	return &SpecError{File: st.File, Line: st.Line, Msg: err.Error()}
}

// specErrAt is specErr at a line of the step (its own line when 0).
func specErrAt(st *Step, line int, err error) error {
	var se *SpecError
	if errors.As(err, &se) {
		return err
	}
	if line == 0 {
		line = st.Line
	}
	return &SpecError{File: st.File, Line: line, Msg: err.Error()}
}

// resolve turns a spec URL (absolute, or a path relative to the base URL)
// into an absolute URL.
func (r *runner) resolve(u string) (string, error) {
	if absoluteURL(u) {
		return u, nil
	}
	if r.opts.BaseURL == "" {
		return "", fmt.Errorf("%s is relative and no base URL was given (--url)", u)
	}
	if !strings.HasPrefix(u, "/") {
		u = "/" + u
	}
	return strings.TrimRight(r.opts.BaseURL, "/") + u, nil
}

// specDir is the directory paths in the spec are relative to.
func (st *Step) specDir() string { return filepath.Dir(st.File) }
