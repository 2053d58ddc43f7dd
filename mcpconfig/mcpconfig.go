// Package mcpconfig reads the MCP server lists of client configuration
// files: Claude Desktop, Claude Code (.mcp.json, ~/.claude.json), Cursor
// and Windsurf (the "mcpServers" form), and VS Code (the "servers" form,
// with "type", "inputs" and ${...} variables).
//
// Use it as
//
//	f, err := mcpconfig.Read(".vscode/mcp.json", mcpconfig.Vars{Env: os.LookupEnv})
//	for _, s := range f.Servers { ... s.Transport, s.Command, s.URL ... }
//
// The stance: a configuration is read as its client reads it, so the
// servers measured are the servers a model is handed. Files may hold
// comments and trailing commas (VS Code's JSONC). Servers keep the file's
// order. A server whose entry cannot be used (a variable that is not set,
// no command and no URL) is kept with Err set, so a report can say why on
// its row; a file that cannot be read at all is an error.
//
// The steps: Locations lists where each client keeps its file; Read reads
// one, finds the form ("mcpServers" at the top, "servers" at the top or
// under "mcp" for VS Code), and expands variables in command, args, env,
// envFile, cwd, url and headers: ${env:NAME}, ${NAME} and ${NAME:-default}
// (Claude Code), ${input:ID} (VS Code inputs, given by the caller),
// ${workspaceFolder} and ${userHome}. Every value that came from a
// variable, an env entry or a header is listed in Secrets, so a caller
// can keep it out of anything it prints.
package mcpconfig

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/infile"
)

// Transports a server is reached over.
const (
	Stdio = "stdio"
	HTTP  = "http"
	SSE   = "sse"
)

// Server is one server entry of a configuration.
type Server struct {
	// Name is the entry's key.
	Name string
	// File is the configuration file it was read from.
	File string
	// Transport is Stdio, HTTP (streamable HTTP) or SSE (HTTP+SSE).
	Transport string
	// Command and Args start a stdio server; Env is added to the
	// environment (KEY=VALUE: those of its "envFile", then its "env", in
	// the files' order, so that env wins); Dir is its working directory,
	// "" for the current one.
	Command string
	Args    []string
	Env     []string
	Dir     string
	// URL and Header reach an HTTP or SSE server.
	URL    string
	Header [][2]string
	// Disabled is set when the entry says "disabled": true (Claude Code,
	// Cursor, Windsurf): a client does not start it.
	Disabled bool
	// Secrets are the values that came from variables, env entries and
	// headers: never to be printed.
	Secrets []string
	// Err says why the entry cannot be used; the rest may be partial.
	Err error
}

// File is one configuration file read.
type File struct {
	// Path is the file, as given.
	Path string
	// Form is "mcpServers" or "servers" (VS Code).
	Form string
	// Servers are its entries, in the file's order.
	Servers []Server
	// Inputs are the ids of VS Code's "inputs", in order.
	Inputs []string
}

// Vars are what variables expand to.
type Vars struct {
	// Env looks up an environment variable (os.LookupEnv).
	Env func(string) (string, bool)
	// Inputs are the values of VS Code's ${input:ID}, by ID.
	Inputs map[string]string
	// Home is ${userHome} (os.UserHomeDir when "").
	Home string
}

// Location is where a client keeps its configuration.
type Location struct {
	// Client names the client.
	Client string
	// Path is the file.
	Path string
}

// Locations lists where the clients keep their configurations, for a user
// whose home is home, working in dir, on goos: the project's files first,
// then the user's.
func Locations(home, dir, goos string) []Location {
	var appData string
	switch goos {
	case "darwin":
		appData = filepath.Join(home, "Library", "Application Support")
	case "windows":
		appData = os.Getenv("APPDATA")
		if appData == "" {
			appData = filepath.Join(home, "AppData", "Roaming")
		}
	default:
		appData = filepath.Join(home, ".config")
	}
	return []Location{
		{"Claude Code", filepath.Join(dir, ".mcp.json")},
		{"Cursor", filepath.Join(dir, ".cursor", "mcp.json")},
		{"VS Code", filepath.Join(dir, ".vscode", "mcp.json")},
		{"Claude Desktop", filepath.Join(appData, "Claude", "claude_desktop_config.json")},
		{"Claude Code", filepath.Join(home, ".claude.json")},
		{"Cursor", filepath.Join(home, ".cursor", "mcp.json")},
		{"Windsurf", filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")},
		{"VS Code", filepath.Join(appData, "Code", "User", "mcp.json")},
	}
}

// Found returns the locations whose file exists.
func Found(locs []Location) []Location {
	var out []Location
	for _, l := range locs {
		if st, err := os.Stat(l.Path); err == nil && st.Mode().IsRegular() {
			out = append(out, l)
		}
	}
	return out
}

// Read reads the configuration file at path.
func Read(path string, v Vars) (*File, error) {
	data, err := infile.Read(path, "configuration file", infile.MaxText)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, v)
}

// Parse reads a configuration from its bytes; path names it in errors and
// sets ${workspaceFolder}.
func Parse(path string, data []byte, v Vars) (*File, error) {
	if v.Env == nil {
		v.Env = os.LookupEnv
	}
	if v.Home == "" {
		v.Home, _ = os.UserHomeDir()
	}
	if err := infile.WebPage(path, data, "configuration file", "give the client's own JSON file (the raw file, not its web page)"); err != nil {
		return nil, err
	}
	text, err := stripJSONC(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if !gjson.ValidBytes(text) {
		return nil, fmt.Errorf("%s: not JSON (comments and trailing commas are allowed, nothing else)", path)
	}
	root := gjson.ParseBytes(text)
	if !root.IsObject() {
		return nil, fmt.Errorf("%s: not a JSON object", path)
	}
	f := &File{Path: path}
	var list gjson.Result
	var at string
	switch {
	case root.Get("mcpServers").Exists():
		f.Form, list, at = "mcpServers", root.Get("mcpServers"), "mcpServers"
	case root.Get("servers").Exists():
		f.Form, list, at = "servers", root.Get("servers"), "servers"
	case root.Get("mcp.servers").Exists():
		f.Form, list, at = "servers", root.Get("mcp.servers"), "mcp.servers"
	default:
		return nil, fmt.Errorf(`%s: no "mcpServers" or "servers" object: not an MCP client configuration`, path)
	}
	if !list.IsObject() {
		return nil, fmt.Errorf("%s: %s is not an object of servers", path, at)
	}
	inputs := root.Get("inputs")
	if at == "mcp.servers" {
		inputs = root.Get("mcp.inputs")
	}
	inputs.ForEach(func(_, in gjson.Result) bool {
		if id := in.Get("id").String(); id != "" {
			f.Inputs = append(f.Inputs, id)
		}
		return true
	})
	x := &expander{v: v, workspace: workspaceFolder(path), inputs: f.Inputs}
	var perr error
	list.ForEach(func(k, e gjson.Result) bool {
		if !e.IsObject() {
			perr = fmt.Errorf("%s: %s.%s is not an object", path, at, k.String())
			return false
		}
		f.Servers = append(f.Servers, x.server(path, at, k.String(), e))
		return true
	})
	if perr != nil {
		return nil, perr
	}
	return f, nil
}

// workspaceFolder is the folder holding .vscode/, .cursor/ or the file.
func workspaceFolder(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	dir := filepath.Dir(abs)
	switch filepath.Base(dir) {
	case ".vscode", ".cursor", ".windsurf":
		return filepath.Dir(dir)
	}
	return dir
}

type expander struct {
	v         Vars
	workspace string
	inputs    []string
	secrets   []string
	err       error
}

// expand replaces the variables in s, each ${NAME} (NAME up to the first
// "}"); field names the place for errors.
func (x *expander) expand(s, field string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+2:], '}')
		if j < 0 {
			break
		}
		m := s[i : i+2+j+1]
		b.WriteString(s[:i])
		b.WriteString(x.variable(m, field))
		s = s[i+len(m):]
	}
	b.WriteString(s)
	return b.String()
}

// variable returns the value of the variable m (${NAME}).
func (x *expander) variable(m, field string) string {
	name := m[2 : len(m)-1]
	val, err := x.value(name)
	if err != nil {
		if x.err == nil {
			x.err = fmt.Errorf("%s: %s: %v", field, m, err)
		}
		return ""
	}
	if name != "workspaceFolder" && name != "userHome" && val != "" {
		x.secrets = append(x.secrets, val)
	}
	return val
}

func (x *expander) value(name string) (string, error) {
	switch {
	case name == "workspaceFolder":
		return x.workspace, nil
	case name == "userHome":
		return x.v.Home, nil
	case strings.HasPrefix(name, "env:"):
		if v, ok := x.v.Env(name[4:]); ok {
			return v, nil
		}
		return "", errors.New("the environment variable is not set")
	case strings.HasPrefix(name, "input:"):
		id := name[6:]
		if v, ok := x.v.Inputs[id]; ok {
			return v, nil
		}
		return "", fmt.Errorf("give its value with --input %s=VALUE", id)
	}
	key, def, hasDef := strings.Cut(name, ":-")
	if !validEnvName(key) {
		return "", errors.New("not a variable measure knows: use ${env:NAME}, ${NAME}, ${NAME:-default}, ${input:ID}, ${workspaceFolder} or ${userHome}")
	}
	if v, ok := x.v.Env(key); ok && v != "" {
		return v, nil
	}
	if hasDef {
		return def, nil
	}
	return "", errors.New("the environment variable is not set, and no default is given")
}

func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (x *expander) server(path, at, name string, e gjson.Result) Server {
	x.secrets, x.err = nil, nil
	s := Server{Name: name, File: path, Disabled: e.Get("disabled").Bool()}
	field := func(k string) string { return at + "." + name + "." + k }
	s.Command = x.expand(e.Get("command").String(), field("command"))
	e.Get("args").ForEach(func(i, a gjson.Result) bool {
		s.Args = append(s.Args, x.expand(a.String(), fmt.Sprintf("%s[%d]", field("args"), i.Int())))
		return true
	})
	if ef := e.Get("envFile").String(); ef != "" {
		// VS Code's: the file's variables first, so that env wins
		if p := x.expand(ef, field("envFile")); p != "" {
			if !filepath.IsAbs(p) {
				p = filepath.Join(x.workspace, p)
			}
			vars, err := readEnvFile(p)
			if err != nil && x.err == nil {
				x.err = fmt.Errorf("%s: %v", field("envFile"), err)
			}
			for _, kv := range vars {
				if _, v, _ := strings.Cut(kv, "="); v != "" {
					x.secrets = append(x.secrets, v)
				}
				s.Env = append(s.Env, kv)
			}
		}
	}
	e.Get("env").ForEach(func(k, val gjson.Result) bool {
		v := x.expand(val.String(), field("env."+k.String()))
		if v != "" {
			x.secrets = append(x.secrets, v)
		}
		s.Env = append(s.Env, k.String()+"="+v)
		return true
	})
	if cwd := e.Get("cwd").String(); cwd != "" {
		s.Dir = x.expand(cwd, field("cwd"))
	}
	url := e.Get("url").String()
	if url == "" {
		url = e.Get("serverUrl").String() // Windsurf
	}
	s.URL = x.expand(url, field("url"))
	e.Get("headers").ForEach(func(k, val gjson.Result) bool {
		v := x.expand(val.String(), field("headers."+k.String()))
		if v != "" {
			x.secrets = append(x.secrets, v)
		}
		s.Header = append(s.Header, [2]string{k.String(), v})
		return true
	})
	typ := strings.ToLower(e.Get("type").String())
	switch {
	case typ == "stdio" || typ == "" && s.Command != "":
		s.Transport = Stdio
	case typ == "sse" || typ == "" && strings.HasSuffix(strings.TrimRight(s.URL, "/"), "/sse"):
		s.Transport = SSE
	case typ == "http" || typ == "streamable-http" || typ == "streamablehttp" || typ == "":
		s.Transport = HTTP
	default:
		x.err = fmt.Errorf("%s: %q is not a transport: use stdio, http or sse", field("type"), typ)
	}
	if x.err == nil {
		switch {
		case s.Transport == Stdio && s.Command == "":
			x.err = fmt.Errorf("%s: a stdio server needs a command", field("command"))
		case s.Transport != Stdio && s.URL == "":
			x.err = fmt.Errorf("%s: neither a command nor a url", at+"."+name)
		}
	}
	s.Secrets, s.Err = x.secrets, x.err
	return s
}

// readEnvFile reads the variables of an env file as KEY=VALUE, in its
// order: a line KEY=VALUE (or export KEY=VALUE); blank lines and lines
// starting with # are skipped; a value in double or single quotes is
// taken inside them (\n in double quotes is a newline), an unquoted one
// up to a " #" comment.
func readEnvFile(path string) ([]string, error) {
	data, err := infile.Read(path, "variables file", infile.MaxText)
	if err != nil {
		return nil, err
	}
	var out []string
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || !validEnvName(k) {
			return nil, fmt.Errorf("%s:%d: not KEY=VALUE (a name of letters, digits and _, then =)", path, n+1)
		}
		switch {
		case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
			v = strings.ReplaceAll(v[1:len(v)-1], `\n`, "\n")
		case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
			v = v[1 : len(v)-1]
		default:
			if i := strings.Index(v, " #"); i >= 0 {
				v = strings.TrimSpace(v[:i])
			}
		}
		out = append(out, k+"="+v)
	}
	return out, nil
}

// Redact returns text with every secret replaced by "[redacted]".
func Redact(text string, secrets []string) string {
	for _, s := range secrets {
		if len(s) >= 3 {
			text = strings.ReplaceAll(text, s, "[redacted]")
		}
	}
	return text
}

// stripJSONC removes comments and trailing commas outside strings, as VS
// Code reads its JSONC files; offsets are kept (comments become spaces) so
// that positions in errors stay true.
func stripJSONC(data []byte) ([]byte, error) {
	out := bytes.Clone(data)
	inStr := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			j := bytes.Index(out[i+2:], []byte("*/"))
			if j < 0 {
				return nil, errors.New("a /* comment is not closed")
			}
			for k := i; k < i+2+j+2; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			i += 2 + j + 1
		case c == ']' || c == '}':
			// a comma before the closer, past whitespace, goes
			for k := i - 1; k >= 0; k-- {
				if out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r' {
					continue
				}
				if out[k] == ',' {
					out[k] = ' '
				}
				break
			}
		}
	}
	return out, nil
}

// GOOS is the system Locations is asked about by default.
var GOOS = runtime.GOOS
