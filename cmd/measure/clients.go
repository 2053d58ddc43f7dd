package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/jsonout"
	"github.com/readmeter/readmeter/internal/table"
	"github.com/readmeter/readmeter/internal/units"
	"github.com/readmeter/readmeter/toollist"
)

// parseClients reads --client: nil when it is not given; "all" is every
// profile.
func parseClients(list string) ([]*toollist.Profile, error) {
	if list == "" {
		return nil, nil
	}
	var out []*toollist.Profile
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		if name == "all" {
			out = out[:0]
			for i := range toollist.Profiles {
				out = append(out, &toollist.Profiles[i])
			}
			return out, nil
		}
		p, ok := toollist.ClientProfile(name)
		if !ok {
			return nil, noSuchClient("", name, true)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// addClient adds the profile named name to ps, unless it is there.
func addClient(ps []*toollist.Profile, name string) []*toollist.Profile {
	p, ok := toollist.ClientProfile(name)
	if !ok || slices.Contains(ps, p) {
		return ps
	}
	return append(ps, p)
}

// serverName returns the server name the clients put in tool names:
// --server-name, else the init answer's serverInfo.name, else the
// capture's budget key.
func serverName(o *options, in *toollist.Init, path string) string {
	switch {
	case o.serverName != "":
		return o.serverName
	case in != nil && in.ServerName != "":
		return in.ServerName
	}
	return budgetKey(path)
}

// measureClients counts what each client asked for reads of the report's
// capture, and makes the clients' findings the report's lints: a cut, a
// cap or a name refused is a lint (a finding with --strict); fields
// dropped are a note.
func measureClients(r *report, o *options) error {
	if len(o.profiles) == 0 {
		return nil
	}
	var always []string
	if o.alwaysLoad != "" {
		for name := range strings.SplitSeq(o.alwaysLoad, ",") {
			name = strings.TrimSpace(name)
			if !slices.ContainsFunc(r.figures.PerTool, func(t toollist.ToolFigures) bool { return t.Name == name }) {
				return cli.Usage("--always-load %s: %s has no tool of that name", name, r.capture.Path)
			}
			always = append(always, name)
		}
	}
	counters := make([]toollist.Counter, len(o.tokenizers))
	for i, t := range o.tokenizers {
		counters[i] = t
	}
	server := serverName(o, r.init, r.capture.Path)
	r.lints = nil
	var dropped []string               // the details of fields-dropped, in order
	droppedBy := map[string][]string{} // detail: the clients
	for _, p := range o.profiles {
		cf, err := toollist.MeasureClient(r.capture, r.figures, r.init, p, toollist.ClientOptions{Server: server, AlwaysLoad: always, Counters: counters})
		if err != nil {
			return err
		}
		r.clients = append(r.clients, cf)
		var past []string
		for _, fd := range cf.Findings {
			switch fd.Kind {
			case "tool-cap":
				past = append(past, fd.Tool)
			case "fields-dropped":
				if droppedBy[fd.Detail] == nil {
					dropped = append(dropped, fd.Detail)
				}
				droppedBy[fd.Detail] = append(droppedBy[fd.Detail], p.Name)
			default:
				r.lints = append(r.lints, toollist.Lint{Rule: fd.Kind, Tool: fd.Tool, Text: fd.Detail})
			}
		}
		if len(past) > 0 {
			r.lints = append(r.lints, toollist.Lint{Rule: "tool-cap", Text: fmt.Sprintf("%s %s: %d %s past the cap of %d: %s",
				p.Title, p.CapEffect, len(past), plural(len(past), "tool", "tools"), p.Cap, nameList(past, 10))})
		}
	}
	for _, d := range dropped {
		verb := "sends"
		if len(droppedBy[d]) > 1 {
			verb = "send"
		}
		// what clients leave out is a fact of the clients, no fault of the list
		r.notes = append(r.notes, fmt.Sprintf("%s: %s %s only name, description and inputSchema of each tool; %s (docs/clients.md)", r.capture.Path, strings.Join(droppedBy[d], ", "), verb, d))
	}
	for _, l := range r.lints {
		where := r.capture.Path
		if l.Rule == "instructions-cut" {
			where = r.init.Path
		}
		r.warnings = append(r.warnings, where+": "+l.Text)
	}
	return nil
}

// nameList joins the first max names, and says how many more there are.
func nameList(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
}

// overhead formats a client's fixed overhead in tokens: "~346" for an
// estimate, "-" when there is none.
func overhead(p *toollist.Profile) string {
	switch {
	case p.OverheadTokens == 0:
		return "-"
	case p.OverheadEstimate:
		return "~" + group(int64(p.OverheadTokens))
	}
	return group(int64(p.OverheadTokens))
}

// writeClients prints what each client reads of one capture: the figures
// one column per client, then each tool's bytes one column per client
// (or, for one client, each tool as that client names it).
func writeClients(w io.Writer, r *report) {
	if len(r.clients) == 0 {
		return
	}
	fmt.Fprintf(w, "\nwhat each client reads of %s (server %q):\n\n", r.capture.Path, r.clients[0].Server)
	head := []string{""}
	for _, cf := range r.clients {
		head = append(head, cf.Profile.Name)
	}
	t := table.New(head...)
	for i := 1; i < len(head); i++ {
		t.Right(i)
	}
	row := func(name string, f func(cf *toollist.ClientFigures) string) {
		cells := []string{name}
		for _, cf := range r.clients {
			cells = append(cells, f(cf))
		}
		t.Add(cells...)
	}
	dash := func(ok bool, s string) string {
		if !ok {
			return "-"
		}
		return s
	}
	deferring := slices.ContainsFunc(r.clients, func(cf *toollist.ClientFigures) bool { return cf.Profile.Deferral })
	row("tools sent", func(cf *toollist.ClientFigures) string { return group(int64(cf.Sent)) })
	row("bytes, every tool loaded", func(cf *toollist.ClientFigures) string { return approx(cf, group(cf.Bytes)) })
	row(units.TokensLabel, func(cf *toollist.ClientFigures) string { return approx(cf, group(cf.Tokens)) })
	for k, tc := range r.clients[0].Tokenizers {
		row(tc.Name+" tokens", func(cf *toollist.ClientFigures) string { return approx(cf, group(cf.Tokenizers[k].Tokens)) })
	}
	if deferring {
		row("bytes at session start, tool search on", func(cf *toollist.ClientFigures) string {
			return dash(cf.Profile.Deferral, approx(cf, group(cf.DeferredBytes)))
		})
		row(units.TokensLabel+" at session start, tool search on", func(cf *toollist.ClientFigures) string {
			return dash(cf.Profile.Deferral, approx(cf, group(cf.DeferredTokens)))
		})
	}
	row("of which instructions bytes", func(cf *toollist.ClientFigures) string { return dash(cf.HasInstructions, group(cf.InstructionsBytes)) })
	row("of which prelude bytes", func(cf *toollist.ClientFigures) string { return dash(cf.PreludeBytes > 0, group(cf.PreludeBytes)) })
	row("fixed overhead tokens", func(cf *toollist.ClientFigures) string { return overhead(cf.Profile) })
	row("description chars cut", func(cf *toollist.ClientFigures) string {
		n := 0
		for _, ct := range cf.Tools {
			n += ct.CutChars
		}
		return dash(cf.Profile.DescriptionCut > 0, group(int64(n)))
	})
	row("tools past the cap", func(cf *toollist.ClientFigures) string {
		if cf.Profile.Cap == 0 {
			return "-"
		}
		n := 0
		for _, fd := range cf.Findings {
			if fd.Kind == "tool-cap" {
				n++
			}
		}
		return fmt.Sprintf("%d (cap %d)", n, cf.Profile.Cap)
	})
	row("names refused, cut or left out", func(cf *toollist.ClientFigures) string {
		n := 0
		for _, fd := range cf.Findings {
			if strings.HasPrefix(fd.Kind, "name-") {
				n++
			}
		}
		return group(int64(n))
	})
	row("rendering", func(cf *toollist.ClientFigures) string { return approx(cf, cf.Profile.Render) })
	if r.estimates != nil {
		row("calibrated provider tokens", func(cf *toollist.ClientFigures) string {
			e, ok := r.estimates[cf.Profile.Name]
			return dash(ok, e.String())
		})
	}
	if _, ok := w.(markdown); ok {
		t.Head(append([]string{"figure"}, head[1:]...)...)
	}
	render(w, t)
	fmt.Fprintln(w)
	if len(r.clients) == 1 {
		writeClientTools(w, r.clients[0])
	} else {
		writeClientsTools(w, r)
	}
	if slices.ContainsFunc(r.clients, func(cf *toollist.ClientFigures) bool { return !cf.Profile.Exact }) {
		fmt.Fprintln(w, "\n~ an approximation: the client does not document the form it sends, so the figure is of a form close to it, not a count of what it reads (docs/clients.md says what is rendered)")
	}
}

// approx marks s, a figure of cf, with "~" when cf's rendering is an
// approximation of a form the client does not document.
func approx(cf *toollist.ClientFigures, s string) string {
	if cf.Profile.Exact {
		return s
	}
	return "~" + s
}

// writeClientTools prints each tool as the one client names it: its
// bytes, tokens, share, the characters cut and, under tool search, what
// it reads at session start.
func writeClientTools(w io.Writer, cf *toollist.ClientFigures) {
	head := []string{"tool as " + cf.Profile.Title + " names it", "bytes", units.TokensLabel}
	for _, tc := range cf.Tokenizers {
		head = append(head, tc.Name)
	}
	head = append(head, "share", "chars cut")
	if cf.Profile.Deferral {
		head = append(head, "session start")
	}
	tt := table.New(head...)
	for i := 1; i < len(head); i++ {
		tt.Right(i)
	}
	for _, ct := range cf.Tools {
		cells := []string{ct.Name, group(ct.Bytes), group(ct.Tokens)}
		for _, tc := range ct.Tokenizers {
			cells = append(cells, group(tc.Tokens))
		}
		if !ct.Sent {
			cells = []string{ct.Name, "-", "-"}
			for range cf.Tokenizers {
				cells = append(cells, "-")
			}
		}
		cells = append(cells, share(ct.Bytes, cf.Bytes), group(int64(ct.CutChars)))
		if cf.Profile.Deferral {
			if ct.AlwaysLoad {
				cells = append(cells, "loaded")
			} else {
				cells = append(cells, group(ct.DeferredBytes))
			}
		}
		tt.Add(cells...)
	}
	render(w, tt)
}

// writeClientsTools prints each tool's bytes, one column per client, then
// what the clients share and the total.
func writeClientsTools(w io.Writer, r *report) {
	dash := func(ok bool, s string) string {
		if !ok {
			return "-"
		}
		return s
	}
	head := []string{"tool (bytes, every tool loaded)"}
	for _, cf := range r.clients {
		head = append(head, cf.Profile.Name)
	}
	tt := table.New(head...)
	for i := 1; i < len(head); i++ {
		tt.Right(i)
	}
	for i, tf := range r.figures.PerTool {
		cells := []string{tf.Name}
		for _, cf := range r.clients {
			cells = append(cells, dash(cf.Tools[i].Sent, approx(cf, group(cf.Tools[i].Bytes))))
		}
		tt.Add(cells...)
	}
	cells := []string{"shared: prelude and instructions"}
	for _, cf := range r.clients {
		cells = append(cells, group(cf.SharedBytes()))
	}
	tt.Add(cells...)
	cells = []string{"total"}
	for _, cf := range r.clients {
		cells = append(cells, approx(cf, group(cf.Bytes)))
	}
	tt.Add(cells...)
	render(w, tt)
}

// clientJSON is what a client reads, in the --json "clients" member:
// exact integers; instructions_bytes and overhead_tokens null when there
// are none, session_start null for a client that does not defer tools.
type clientJSON struct {
	Title             string            `json:"title"`
	Server            string            `json:"server"`
	ExactRendering    bool              `json:"exact_rendering"`
	ToolsSent         int               `json:"tools_sent"`
	Bytes             int64             `json:"bytes"`
	Tokens            int64             `json:"tokens"`
	Tokenizers        jsonout.Object    `json:"tokenizers,omitempty"`
	PreludeBytes      int64             `json:"prelude_bytes"`
	InstructionsBytes *int64            `json:"instructions_bytes"`
	OverheadTokens    *int64            `json:"overhead_tokens"`
	OverheadEstimate  bool              `json:"overhead_estimate"`
	SessionStart      *sessionStartJSON `json:"session_start"`
	Calibrated        *estimateJSON     `json:"calibrated,omitempty"`
	PerTool           []clientToolJSON  `json:"per_tool"`
	Findings          []clientFindJSON  `json:"findings"`
}

type sessionStartJSON struct {
	ToolSearchOn  countJSON `json:"tool_search_on"`
	ToolSearchOff countJSON `json:"tool_search_off"`
}

type countJSON struct {
	Bytes  int64 `json:"bytes"`
	Tokens int64 `json:"tokens"`
}

// clientToolJSON is a tool as a client reads it; always_load and
// session_start_bytes for a client that defers tools.
type clientToolJSON struct {
	Name              string         `json:"name"`
	Tool              string         `json:"tool"`
	Sent              bool           `json:"sent"`
	Bytes             int64          `json:"bytes"`
	Tokens            int64          `json:"tokens"`
	Tokenizers        jsonout.Object `json:"tokenizers,omitempty"`
	SavingTokens      int64          `json:"saving_tokens"`
	CharsCut          int            `json:"chars_cut"`
	AlwaysLoad        *bool          `json:"always_load,omitempty"`
	SessionStartBytes *int64         `json:"session_start_bytes,omitempty"`
}

type clientFindJSON struct {
	Kind   string `json:"kind"`
	Tool   string `json:"tool"`
	Detail string `json:"detail"`
}

// clientsJSON is the --json "clients" member of a report: each client by
// its name, in the order asked for.
func clientsJSON(r *report) jsonout.Object {
	ms := make(jsonout.Object, 0, len(r.clients))
	for _, cf := range r.clients {
		p := cf.Profile
		c := clientJSON{
			Title: p.Title, Server: cf.Server, ExactRendering: p.Exact,
			ToolsSent: cf.Sent, Bytes: cf.Bytes, Tokens: cf.Tokens, Tokenizers: tokenizersJSON(cf.Tokenizers),
			PreludeBytes: cf.PreludeBytes, OverheadEstimate: p.OverheadEstimate,
			PerTool: make([]clientToolJSON, len(cf.Tools)), Findings: make([]clientFindJSON, len(cf.Findings)),
		}
		if cf.HasInstructions {
			c.InstructionsBytes = &cf.InstructionsBytes
		}
		if p.OverheadTokens > 0 {
			c.OverheadTokens = ptr(int64(p.OverheadTokens))
		}
		if p.Deferral {
			c.SessionStart = &sessionStartJSON{countJSON{cf.DeferredBytes, cf.DeferredTokens}, countJSON{cf.Bytes, cf.Tokens}}
		}
		if e, ok := r.estimates[p.Name]; ok {
			c.Calibrated = e.json()
		}
		for i, ct := range cf.Tools {
			t := clientToolJSON{
				Name: ct.Name, Tool: ct.Tool, Sent: ct.Sent, Bytes: ct.Bytes, Tokens: ct.Tokens,
				Tokenizers:   tokenizersJSON(ct.Tokenizers),
				SavingTokens: units.Tokens(cf.Bytes) - units.Tokens(cf.Bytes-ct.Bytes), CharsCut: ct.CutChars,
			}
			if p.Deferral {
				t.AlwaysLoad, t.SessionStartBytes = &ct.AlwaysLoad, ptr(sessionStart(ct))
			}
			c.PerTool[i] = t
		}
		for i, fd := range cf.Findings {
			c.Findings[i] = clientFindJSON{fd.Kind, fd.Tool, fd.Detail}
		}
		ms = append(ms, jsonout.Member{Key: p.Name, Value: c})
	}
	return ms
}

// sessionStart is what a deferring client's model reads of the tool at
// session start.
func sessionStart(ct toollist.ClientTool) int64 {
	if ct.AlwaysLoad {
		return ct.Bytes
	}
	return ct.DeferredBytes
}

// tokenizersJSON is {NAME: tokens}, in the order counted; nil (left
// out) when nothing was.
func tokenizersJSON(ts []toollist.TokenizerCount) jsonout.Object {
	var o jsonout.Object
	for _, tc := range ts {
		o = append(o, jsonout.Member{Key: tc.Name, Value: tc.Tokens})
	}
	return o
}

// noSuchClient is the one error of a --client that names no client:
// prefix (the subcommand and ": ", or nothing) before it, and "or all"
// offered where all is taken.
func noSuchClient(prefix, name string, all bool) error {
	names := strings.Join(toollist.ProfileNames(), ", ")
	if all {
		names += " or all"
	}
	return cli.Usage("%s--client %s: no such client: use %s", prefix, name, names)
}
