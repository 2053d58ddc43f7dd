package walk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/secret"
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
	var c mcpClient
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
		sc, err := mcpwire.NewStdio(r.ctx, argv, mcpwire.StdioOptions{Env: env, Dir: dir, Timeout: r.opts.Timeout})
		if err != nil {
			return nil, r.fail(st, 0, "cannot start the server: "+err.Error(), &exchange{request: "run " + fmt.Sprint(argv)})
		}
		c = sc
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
			if secret.Header(kv.Key) {
				r.sc.secret(v)
				if _, tok, ok := strings.Cut(v, " "); ok {
					r.sc.secret(tok)
				}
			}
			h.Add(kv.Key, v)
		}
		c = mcpwire.NewHTTP(u, mcpwire.HTTPOptions{Token: token, Header: h, HTTPClient: r.opts.HTTPClient, Timeout: r.opts.Timeout})
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
	method := map[string]string{"initialize": "initialize", "discover": "server/discover", "list": "tools/list", "call": "tools/call", "prompt": "prompts/get", "notify": name, "method": name, "raw": "raw"}[m.Op]
	ex := &exchange{request: method + " " + c.Where(), reqBody: params, mcp: true}
	if m.Op == "call" || m.Op == "prompt" {
		ex.request = method + " " + name + " " + c.Where()
	}
	var resp *mcpwire.Response
	var pages []*mcpwire.Response
	switch m.Op {
	case "initialize":
		v := name
		if v == "" {
			v = sv.Protocol
		}
		if v == "" {
			v = mcpwire.Version20250618
		}
		p, _ := json.Marshal(map[string]any{"protocolVersion": v, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "readmeter", "version": "0"}})
		if params != nil {
			// The params as written, in their order: a client's own clientInfo.
			p = params
		}
		ex.reqBody = p
		resp, err = c.Request(ctx, "initialize", json.RawMessage(p))
		if err == nil {
			if got := gjson.GetBytes(resp.Message, "result.protocolVersion").String(); got != "" {
				c.SetProtocolVersion(got)
			}
		}
	case "discover":
		resp, err = c.Discover(ctx)
	case "list":
		if params != nil {
			pages, err = listPages(ctx, c, params)
		} else {
			pages, err = c.ListTools(ctx)
		}
		if len(pages) > 0 {
			resp = pages[len(pages)-1]
		}
	case "call":
		if params == nil {
			resp, err = c.CallTool(ctx, name, nil)
		} else {
			resp, err = c.CallTool(ctx, name, params)
		}
	case "prompt":
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
	case "notify":
		resp, err = c.Notify(ctx, name, paramsOrNil(params))
	case "method":
		resp, err = c.Request(ctx, name, paramsOrNil(params))
	case "raw":
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
			return nil, r.fail(st, 0, "no answer: "+r.transportError(err), ex)
		}
	}
	if resp == nil {
		return nil, r.fail(st, 0, "no answer", ex)
	}
	fill(ex, resp)
	if len(pages) > 1 {
		var body bytes.Buffer
		var tools []string
		for _, p := range pages {
			body.Write(p.Raw)
			gjson.GetBytes(p.Message, "result.tools").ForEach(func(_, t gjson.Result) bool {
				tools = append(tools, t.Raw)
				return true
			})
		}
		ex.body = body.Bytes()
		ex.json = []byte(`{"jsonrpc":"2.0","result":{"tools":[` + joinRaw(tools) + `]}}`)
	}
	if m.Op == "list" && st.Counted && !ex.rpcError && ex.status < 400 {
		var n int64
		for i, p := range pages {
			c, err := toollist.Parse(fmt.Sprintf("%s page %d", st.Where(), i+1), p.Raw)
			if err != nil {
				return nil, r.fail(st, 0, "the tool list cannot be measured: "+err.Error(), ex)
			}
			f, err := toollist.Measure(c)
			if err != nil {
				return nil, r.fail(st, 0, "the tool list cannot be measured: "+err.Error(), ex)
			}
			n += f.ModelReadBytes
		}
		r.res.ToolLists[st.Part] += n
	}
	return ex, nil
}

func paramsOrNil(p json.RawMessage) any {
	if p == nil {
		return nil
	}
	return p
}

func joinRaw(xs []string) string {
	var b bytes.Buffer
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}

func fill(ex *exchange, resp *mcpwire.Response) {
	ex.status, ex.header, ex.body, ex.json = resp.Status, resp.Header, resp.Raw, resp.Message
	if len(ex.json) == 0 {
		ex.json = resp.Raw
	}
}

// listPages sends tools/list with the params as written (a client that
// sends `"params":{}`), then follows nextCursor as ListTools does, the
// cursor added to those params.
func listPages(ctx context.Context, c mcpClient, params json.RawMessage) ([]*mcpwire.Response, error) {
	var pages []*mcpwire.Response
	seen := map[string]bool{}
	p := params
	for {
		resp, err := c.Request(ctx, "tools/list", p)
		if err != nil {
			return pages, err
		}
		pages = append(pages, resp)
		next := gjson.GetBytes(resp.Message, "result.nextCursor")
		if next.Type != gjson.String || next.String() == "" {
			return pages, nil
		}
		if seen[next.String()] || len(pages) >= mcpwire.MaxPages {
			return pages, fmt.Errorf("tools/list: nextCursor %q repeats or passes %d pages", next.String(), mcpwire.MaxPages)
		}
		seen[next.String()] = true
		q, _ := json.Marshal(next.String())
		p, err = withMember(params, "cursor", q)
		if err != nil {
			return pages, err
		}
	}
}

// withMember returns the JSON object obj with key set to raw (replaced in
// place when present, else added last).
func withMember(obj json.RawMessage, key string, raw []byte) (json.RawMessage, error) {
	o := gjson.ParseBytes(obj)
	if !o.IsObject() {
		return nil, fmt.Errorf("params are not a JSON object")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n, found := 0, false
	o.ForEach(func(k, v gjson.Result) bool {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(k.Raw)
		b.WriteByte(':')
		if k.String() == key {
			b.Write(raw)
			found = true
		} else {
			b.WriteString(v.Raw)
		}
		return true
	})
	if !found {
		if n > 0 {
			b.WriteByte(',')
		}
		kq, _ := json.Marshal(key)
		b.Write(kq)
		b.WriteByte(':')
		b.Write(raw)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
