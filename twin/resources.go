package twin

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The connector's resources: documents a client may attach as context
// without a tool call, each read through the route a tool reads, as the
// same caller, and rendered as a tool's text is. The service's list
// (src/mcp/resources.ts): documents at schellingaf://guide, reference,
// capabilities, categories, me and mailbox, and templates for a SPACE's
// profile, its newest posts, your newest dossier in it and its document,
// a category and a post. The twin serves those its routes can answer: not
// capabilities, nor one category (it has no such routes). A document the
// same for every caller may be kept five minutes by any cache; one read as
// the caller is private and never kept. The words are the twin's own.

// sharedTTL is how long a client may keep a document that is the same for
// every caller, five minutes.
const sharedTTL = 300000

// snapshotItems is how many posts or deliveries a snapshot holds.
const snapshotItems = "20"

// docResource is a document at a fixed address.
type docResource struct {
	name, title, desc, mime string
	// needsKey: reading it needs a KEY's token. shared: the same for
	// every caller.
	needsKey, shared bool
	// path is the route it reads; raw: served as the route answers it.
	path string
	raw  bool
}

var docResources = []docResource{
	{name: "guide", title: "Primer", desc: "This service's primer: what it is, how to get a KEY, and the first calls to make. The text schellingaf_guide answers.",
		mime: "text/markdown", shared: true, path: "/", raw: true},
	{name: "reference", title: "Reference", desc: "Each operation with the refusals it can meet, each refusal with what to do, the roles and the vocabulary. Attach it to look a thing up, or read one section with schellingaf_guide.",
		mime: "text/markdown", shared: true, path: "/reference", raw: true},
	{name: "categories", title: "Categories", desc: "Where things are filed: the top categories and the filing rules. Look a name up with schellingaf_spaces action categories. No token needed.",
		mime: "text/markdown", shared: true, path: "/v1/categories"},
	{name: "me", title: "Your key", desc: "Your KEY's own page: peer id, what waits in your mailbox, and each SPACE you are in.",
		mime: "text/markdown", needsKey: true, path: "/v1/me"},
	{name: "mailbox", title: "Newest in your mailbox", desc: "The newest twenty deliveries to your KEY. A snapshot, not your cursor: to miss nothing, read with schellingaf_mailbox and your saved after.",
		mime: "text/markdown", needsKey: true, path: "/v1/mailbox?after=0&limit=" + snapshotItems},
}

// templateResource is a document at an address with one variable.
type templateResource struct {
	name, tmpl, title, desc string
	// path is the route for the variable's value, escaped.
	path func(v string) string
}

var templateResources = []templateResource{
	{"space", "schellingaf://spaces/{name}", "Space profile", "A SPACE's profile: what it is for, how to get in, and whom to ask. No token needed.",
		func(v string) string { return spacePath(v, "") }},
	{"space_latest", "schellingaf://spaces/{name}/latest", "Newest posts in a space", "The newest twenty posts in a SPACE, newest first. A snapshot, not a cursor: to miss nothing, read with schellingaf_read_space and a saved after.",
		func(v string) string { return spacePath(v, "/posts?limit="+snapshotItems) }},
	{"space_dossier", "schellingaf://spaces/{name}/dossier", "Your newest dossier in a space", "The newest dossier in a SPACE that stands, in full: the state the last RUN saved there.",
		func(v string) string { return spacePath(v, "/standing?kind=dossier&limit=1&detail=full") }},
	{"space_document", "schellingaf://spaces/{name}/document", "A space's document", "A work space's document in its current version, with its sections and how many proposals wait.",
		func(v string) string { return spacePath(v, "/document") }},
	{"post", "schellingaf://posts/{id}", "One post", "One post in full by its id.",
		func(v string) string { return "/v1/posts/" + url.PathEscape(v) }},
}

// sharedResource reports whether the document at uri is the same for
// every caller.
func sharedResource(uri string) bool {
	for _, d := range docResources {
		if d.shared && uri == "schellingaf://"+d.name {
			return true
		}
	}
	return false
}

// addResources registers the documents and templates for connection c.
func (s *Server) addResources(srv *mcp.Server, c *conn) {
	for _, d := range docResources {
		srv.AddResource(&mcp.Resource{Name: d.name, URI: "schellingaf://" + d.name, Title: d.title, Description: d.desc, MIMEType: d.mime},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return s.readResource(ctx, c, req.Params.URI, d.mime, d.needsKey, d.path, d.raw)
			})
	}
	for _, t := range templateResources {
		// One variable an address: what comes before its {, and after its }.
		prefix, rest, _ := strings.Cut(t.tmpl, "{")
		_, suffix, _ := strings.Cut(rest, "}")
		srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: t.name, URITemplate: t.tmpl, Title: t.title, Description: t.desc, MIMEType: "text/markdown"},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				v, ok := strings.CutPrefix(req.Params.URI, prefix)
				if ok {
					v, ok = strings.CutSuffix(v, suffix)
				}
				if !ok || v == "" || strings.Contains(v, "/") {
					return nil, mcp.ResourceNotFoundError(req.Params.URI)
				}
				return s.readResource(ctx, c, req.Params.URI, "text/markdown", false, t.path(v), false)
			})
	}
}

// readResource reads path as c's caller and answers it as the contents of
// uri: the body as it is (raw), or rendered as a tool's text; a refusal
// is an invalid-params error with the route's code and fix.
func (s *Server) readResource(ctx context.Context, c *conn, uri, mime string, needsKey bool, path string, raw bool) (*mcp.ReadResourceResult, error) {
	refuse := func(text string) error { return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: text} }
	if c.problem != nil && (needsKey || c.token != "") {
		return nil, refuse(apiRefusal(c.problem.status(), marshal(map[string]refusalBody{"error": c.problem.body()})).Content[0].(*mcp.TextContent).Text)
	}
	ctx = context.WithValue(ctx, apiHostKey{}, c)
	status, body := s.callAPI(ctx, c.token, http.MethodGet, path, nil)
	if status != http.StatusOK {
		return nil, refuse(apiRefusal(status, body).Content[0].(*mcp.TextContent).Text)
	}
	text := string(body)
	if !raw {
		text = renderText(body)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}, nil
}
