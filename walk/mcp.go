package walk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/mcpwire"
	"github.com/readmeter/readmeter/toollist"
)

// mcpClient is what a walk asks of an MCP connection (*mcpwire.Client).
type mcpClient interface {
	Request(ctx context.Context, method string, params any) (*mcpwire.Response, error)
	RequestRaw(ctx context.Context, body []byte) (*mcpwire.Response, error)
	Notify(ctx context.Context, method string, params any) (*mcpwire.Response, error)
	Discover(ctx context.Context, o ...mcpwire.InitOptions) (*mcpwire.Response, error)
	ListTools(ctx context.Context) ([]*mcpwire.Response, error)
	ListToolsWith(ctx context.Context, params json.RawMessage) ([]*mcpwire.Response, error)
	Reserve(n int) int64
	CallTool(ctx context.Context, name string, args any) (*mcpwire.Response, error)
	SetProtocolVersion(v string)
	Where() string
	Close() error
}

// server returns the server an mcp step talks to.
func (r *runner) server(st *Step, m *MCPRequest) (*Server, error) {
	switch {
	case m.Inline != nil:
		return m.Inline, nil
	case m.Server != "":
		if sv, ok := r.spec.Servers[m.Server]; ok {
			return sv, nil
		}
		return nil, &SpecError{File: st.File, Line: st.Line, Msg: fmt.Sprintf("mcp.server: no server %q", m.Server)}
	case len(r.spec.Servers) == 1:
		for _, sv := range r.spec.Servers {
			return sv, nil
		}
	}
	return nil, &SpecError{File: st.File, Line: st.Line, Msg: "mcp: which server? name one (server: ...)"}
}

// connect returns the step's connection, opening it on first use; the
// server's templates are filled then, so a token kept in set-up reaches it.
func (r *runner) connect(ctx context.Context, st *Step, sv *Server) (mcpClient, error) {
	if c, ok := r.clients[sv]; ok {
		return c, nil
	}
	var ms mcpwire.Server
	if sv.Command != nil {
		argv := make([]string, len(sv.Command))
		for i, a := range sv.Command {
			s, err := r.sc.render(a)
			if err != nil {
				return nil, specErr(st, err)
			}
			argv[i] = s
		}
		var env []string
		for _, kv := range sv.Env {
			v, err := r.sc.render(kv.Value)
			if err != nil {
				return nil, specErr(st, err)
			}
			env = append(env, kv.Key+"="+v)
		}
		dir := sv.Dir
		if dir == "" {
			dir = st.specDir()
		}
		ms = mcpwire.Server{Command: argv, Stdio: mcpwire.StdioOptions{Env: env, Dir: dir, Timeout: r.opts.Timeout}}
	} else {
		u, err := r.sc.render(sv.URL)
		if err != nil {
			return nil, specErr(st, err)
		}
		u, err = r.resolve(u)
		if err != nil {
			return nil, specErr(st, err)
		}
		token, err := r.sc.render(sv.Token)
		if err != nil {
			return nil, specErr(st, err)
		}
		r.sc.secret(token)
		h := http.Header{}
		for _, kv := range sv.Headers {
			v, err := r.sc.render(kv.Value)
			if err != nil {
				return nil, specErr(st, err)
			}
			r.sc.header(kv.Key, v)
			h.Add(kv.Key, v)
		}
		ms = mcpwire.Server{URL: u, HTTP: mcpwire.HTTPOptions{Token: token, Header: h, HTTPClient: r.opts.HTTPClient, Timeout: r.opts.Timeout, Follow: sv.Follow}}
	}
	c, err := mcpwire.Dial(r.ctx, ms)
	if err != nil {
		return nil, r.fail(st, 0, "cannot start the server: "+err.Error(), &exchange{request: "run " + fmt.Sprint(ms.Command)})
	}
	r.clients[sv] = c
	return c, nil
}

func (r *runner) mcp(ctx context.Context, st *Step, m *MCPRequest) (*exchange, error) {
	sv, err := r.server(st, m)
	if err != nil {
		return nil, err
	}
	c, err := r.connect(ctx, st, sv)
	if err != nil {
		return nil, err
	}
	name, err := r.sc.render(m.Name)
	if err != nil {
		return nil, specErr(st, err)
	}
	var params json.RawMessage
	if m.Args != nil {
		params, err = r.sc.renderJSON(m.Args)
		if err != nil {
			return nil, specErr(st, err)
		}
	}
	method := m.Op.method(name)
	ex := &exchange{request: method + " " + c.Where(), reqBody: params, mcp: true}
	if m.Op == OpCall || m.Op == OpPrompt {
		ex.request = method + " " + name + " " + c.Where()
	}
	var resp *mcpwire.Response
	var pages []*mcpwire.Response
	switch m.Op {
	case OpInitialize:
		v := name
		if v == "" {
			v = sv.Protocol
		}
		if v == "" {
			v = mcpwire.Version20250618
		}
		p := mcpwire.InitializeParams(mcpwire.InitOptions{ProtocolVersion: v})
		if params != nil {
			// The params as written, in their order: a client's own clientInfo.
			p = params
		}
		ex.reqBody = p
		resp, err = c.Request(ctx, "initialize", json.RawMessage(p))
		if err == nil && !sv.NoVersionHeader {
			if got := gjson.GetBytes(resp.Message, "result.protocolVersion").String(); got != "" {
				c.SetProtocolVersion(got)
			}
		}
	case OpDiscover:
		resp, err = c.Discover(ctx)
	case OpList:
		if params != nil {
			pages, err = c.ListToolsWith(ctx, params)
		} else {
			pages, err = c.ListTools(ctx)
		}
		if len(pages) > 0 {
			resp = pages[len(pages)-1]
		}
	case OpCall:
		if params == nil {
			resp, err = c.CallTool(ctx, name, nil)
		} else {
			resp, err = c.CallTool(ctx, name, params)
		}
	case OpPrompt:
		// {"name":...,"arguments":...}, the arguments as written.
		p := []byte(`{"name":`)
		q, _ := json.Marshal(name)
		p = append(p, q...)
		if params != nil {
			p = append(append(p, `,"arguments":`...), params...)
		}
		p = append(p, '}')
		ex.reqBody = p
		resp, err = c.Request(ctx, "prompts/get", json.RawMessage(p))
	case OpNotify:
		resp, err = c.Notify(ctx, name, paramsOrNil(params))
	case OpMethod:
		resp, err = c.Request(ctx, name, paramsOrNil(params))
	case OpRaw:
		ex.reqBody = []byte(name)
		resp, err = c.RequestRaw(ctx, []byte(name))
	}
	if err != nil {
		var rpc *mcpwire.RPCError
		var he *mcpwire.HTTPError
		switch {
		case errors.As(err, &rpc) && rpc.Response != nil:
			resp = rpc.Response
			ex.rpcError = true
		case errors.As(err, &he) && he.Response != nil:
			resp = he.Response
		default:
			if resp != nil {
				fill(ex, resp)
			}
			if what, ok := redirected(err); ok {
				return nil, r.fail(st, 0, what, ex)
			}
			return nil, r.fail(st, 0, "no answer: "+r.transportError(err), ex)
		}
	}
	if resp == nil {
		return nil, r.fail(st, 0, "no answer", ex)
	}
	fill(ex, resp)
	if len(pages) > 1 {
		var body bytes.Buffer
		for _, p := range pages {
			body.Write(p.Raw)
		}
		ex.body = body.Bytes()
		// Checks read the pages as one answer; when a page has no tools
		// array, they read the last page.
		if merged, err := mcpwire.MergeToolPages(pages); err == nil {
			ex.json = merged
		}
	}
	if m.Op == OpList && st.Counted && !ex.rpcError && ex.status < 400 {
		var n int64
		for i, p := range pages {
			c, err := toollist.OpenReader(fmt.Sprintf("%s page %d", st.Where(), i+1), bytes.NewReader(p.Raw), toollist.Options{})
			if err != nil {
				return nil, r.fail(st, 0, "the tool list cannot be measured: "+err.Error(), ex)
			}
			n += c.Figures.ModelReadBytes
		}
		r.res.ToolLists[st.Part] += n
	}
	if m.Op == OpList && len(pages) == 0 && resp != nil {
		pages = []*mcpwire.Response{resp}
	}
	// noted when the answer is finished, in the order the steps are
	// written, not while steps that go together are answered
	ex.note = func() { r.noteAnswer(st, sv, m.Op, name, pages, ex) }
	return ex, nil
}

func paramsOrNil(p json.RawMessage) any {
	if p == nil {
		return nil
	}
	return p
}

func fill(ex *exchange, resp *mcpwire.Response) {
	ex.status, ex.header, ex.body, ex.json = resp.Status, resp.Header, resp.Raw, resp.Message
	if len(ex.json) == 0 {
		ex.json = resp.Raw
	}
}
