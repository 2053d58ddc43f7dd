//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/readmeter/readmeter/internal/nodeoracle"
	"github.com/readmeter/readmeter/internal/proctest"
	"github.com/readmeter/readmeter/walk"
)

// oracleJS is a Node MCP client of its own: it sends initialize,
// notifications/initialized and each call to a server over stdio (one
// JSON line each way) or streamable HTTP (fetch, res.text()), and prints,
// for each call, the bytes of the answer as received (as the ledger
// counts it) and what a client hands its model of it: the characters
// (string length) and UTF-8 bytes of its content blocks' text.
var oracleJS = nodeoracle.AnswerJS + `
const cfg = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const init = {protocolVersion: '2025-06-18', capabilities: {}, clientInfo: {name: 'oracle', version: '1'}};
function render(msg) { return renderAnswer(msg.result); }
function sseMessage(text, id) {
  let data = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length) { const m = JSON.parse(data.join('\n')); if (m.id === id) return m; }
      data = [];
    } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length) { const m = JSON.parse(data.join('\n')); if (m.id === id) return m; }
  throw new Error('no answer with id ' + id);
}
async function overStdio() {
  const {spawn} = require('child_process');
  const p = spawn(cfg.command[0], cfg.command.slice(1), {cwd: cfg.dir, stdio: ['pipe', 'pipe', 'ignore']});
  let chunks = [], waiting = {};
  p.stdout.on('data', d => {
    chunks.push(d);
    if (!d.includes(10)) return;
    let buf = Buffer.concat(chunks), i;
    while ((i = buf.indexOf(10)) >= 0) {
      const text = buf.subarray(0, i).toString('utf8').replace(/\r$/, '');
      buf = buf.subarray(i + 1);
      const m = JSON.parse(text);
      if (m.id !== undefined && waiting[m.id]) waiting[m.id]([text, m]);
    }
    chunks = [buf];
  });
  const req = (id, method, params) => new Promise(r => { waiting[id] = r; p.stdin.write(JSON.stringify({jsonrpc: '2.0', id, method, params}) + '\n'); });
  await req(1, 'initialize', init);
  p.stdin.write(JSON.stringify({jsonrpc: '2.0', method: 'notifications/initialized'}) + '\n');
  const out = [];
  let id = 2;
  for (const c of cfg.calls) {
    const [text, m] = await req(id++, 'tools/call', {name: c.name, arguments: c.arguments});
    out.push({bytes: Buffer.byteLength(text), ...render(m)});
  }
  p.kill();
  return out;
}
async function overHTTP() {
  let session = null, version = null;
  const post = async (body) => {
    const headers = {'content-type': 'application/json', accept: 'application/json, text/event-stream'};
    if (session) headers['mcp-session-id'] = session;
    if (version) headers['mcp-protocol-version'] = version;
    const res = await fetch(cfg.url, {method: 'POST', headers, body: JSON.stringify(body)});
    if (!session) session = res.headers.get('mcp-session-id');
    return [await res.text(), res.headers.get('content-type') || ''];
  };
  const [it, ict] = await post({jsonrpc: '2.0', id: 1, method: 'initialize', params: init});
  version = (ict.includes('event-stream') ? sseMessage(it, 1) : JSON.parse(it)).result.protocolVersion;
  await post({jsonrpc: '2.0', method: 'notifications/initialized'});
  const out = [];
  let id = 2;
  for (const c of cfg.calls) {
    const [text, ct] = await post({jsonrpc: '2.0', id, method: 'tools/call', params: {name: c.name, arguments: c.arguments}});
    const m = ct.includes('event-stream') ? sseMessage(text, id) : JSON.parse(text);
    out.push({bytes: Buffer.byteLength(text), ...render(m)});
    id++;
  }
  return out;
}
(cfg.url ? overHTTP() : overStdio()).then(o => console.log(JSON.stringify(o)), e => { console.error(e); process.exit(1); });
`

type oracleCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

type oracleAnswer struct {
	Bytes     int64 `json:"bytes"`
	Chars     int64 `json:"chars"`
	TextBytes int64 `json:"text_bytes"`
	Images    int   `json:"images"`
	IsError   bool  `json:"is_error"`
}

// nodeAnswers asks the Node client for each call's counts.
func nodeAnswers(t *testing.T, cfg map[string]any) []oracleAnswer {
	t.Helper()
	node, err := nodeoracle.NodePath()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := json.Marshal(cfg)
	cmd := exec.Command(node, "-e", oracleJS)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node client: %v: %s", err, stderr.String())
	}
	var as []oracleAnswer
	if err := json.Unmarshal(out, &as); err != nil {
		t.Fatalf("node client: %v: %s", err, out)
	}
	return as
}

// npmServers is where `make npm-deps` installs the pinned MCP servers.
func npmServers(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../testdata/npm/node_modules/.bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp-server-everything")); err != nil {
		t.Fatalf("the npm MCP servers are not installed (run make npm-deps): %v", err)
	}
	return dir
}

// startHTTPServer runs an npm server's streamable HTTP mode on a free
// port, stopped with its process group when the test ends.
func startHTTPServer(t *testing.T, bin string) string {
	return "http://127.0.0.1:" + proctest.StartHTTP(t, bin, "streamableHttp") + "/mcp"
}

// TestAnswersRealServers runs walks against the pinned npm servers, over
// stdio and streamable HTTP, calling tools with large answers, and holds
// each answer's bytes, and the characters a client's limit counts, to a
// Node client's counts of the same answers.
func TestAnswersRealServers(t *testing.T) {
	bin := npmServers(t)
	dir := t.TempDir()
	// A large file, with text that is not ASCII: é is 2 bytes and 1
	// character, 😀 4 bytes and 2 characters.
	var big strings.Builder
	for i := range 4000 {
		big.WriteString("line " + strconv.Itoa(i) + " é ✓ 😀 \"quoted\" \\ tab\t\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é😀 words ", 6000)
	everything := []oracleCall{
		{"echo", map[string]any{"message": long}},
		{"get-resource-links", map[string]any{"count": 10}},
		{"get-tiny-image", map[string]any{}},
		{"get-structured-content", map[string]any{"location": "New York"}},
	}
	for _, tc := range []struct {
		name   string
		server string // the spec's server
		cfg    map[string]any
		calls  []oracleCall
	}{
		{"filesystem over stdio", `{ command: [ "` + filepath.Join(bin, "mcp-server-filesystem") + `", "." ] }`,
			map[string]any{"command": []string{filepath.Join(bin, "mcp-server-filesystem"), "."}, "dir": dir},
			[]oracleCall{{"read_text_file", map[string]any{"path": "big.txt"}}, {"list_directory", map[string]any{"path": "."}}}},
		{"everything over stdio", `{ command: [ "` + filepath.Join(bin, "mcp-server-everything") + `" ] }`,
			map[string]any{"command": []string{filepath.Join(bin, "mcp-server-everything")}, "dir": dir},
			everything},
		{"everything over streamable HTTP", "", nil, append(everything, oracleCall{"get-env", map[string]any{}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.cfg == nil {
				u := startHTTPServer(t, filepath.Join(bin, "mcp-server-everything"))
				tc.server = `{ url: "` + u + `" }`
				tc.cfg = map[string]any{"url": u}
			}
			tc.cfg["calls"] = tc.calls
			spec := "walk: real\nservers:\n  s: " + tc.server + "\nsteps:\n  - part: initialize\n    mcp: initialize\n  - part: initialized\n    mcp: { notify: notifications/initialized }\n"
			for i, c := range tc.calls {
				args, _ := json.Marshal(c.Arguments)
				spec += "  - part: call " + strconv.Itoa(i) + "\n    mcp: { call: \"" + c.Name + "\", args: " + string(args) + " }\n"
			}
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".yaml")
			if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if err := run(&stdout, &stderr, []string{"run", "--progress=false", "--json", p}); err != nil {
				t.Fatalf("walks run: %v\n%s", err, stderr.String())
			}
			var rep walk.Report
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			want := nodeAnswers(t, tc.cfg)
			parts := rep.Walks[0].Parts[2:]
			if len(parts) != len(want) {
				t.Fatalf("walks counted %d calls, Node %d", len(parts), len(want))
			}
			lints, tokens := map[string]int64{}, map[string]int64{}
			for _, l := range rep.Walks[0].AnswerLimits {
				if l.Unit == "characters" {
					lints[l.Part] = l.Read
				} else {
					tokens[l.Part] = l.Read
				}
			}
			for i, w := range want {
				part := "call " + strconv.Itoa(i)
				if parts[i].Bytes != w.Bytes {
					t.Errorf("%s (%s): walks counted %d bytes, Node %d", part, tc.calls[i].Name, parts[i].Bytes, w.Bytes)
				}
				if w.Chars > 50_000 && !w.IsError && w.Images == 0 {
					if lints[part] != w.Chars {
						t.Errorf("%s (%s): the file threshold lint read %d characters, Node %d", part, tc.calls[i].Name, lints[part], w.Chars)
					}
				} else if _, ok := lints[part]; ok {
					t.Errorf("%s (%s): a characters lint on an answer of %d characters", part, tc.calls[i].Name, w.Chars)
				}
				if n, ok := tokens[part]; ok && n != w.TextBytes/3 {
					t.Errorf("%s (%s): the token lints read %d tokens, Node's text is %d bytes (%d tokens)", part, tc.calls[i].Name, n, w.TextBytes, w.TextBytes/3)
				}
			}
			if len(lints) == 0 {
				t.Errorf("no answer passed the file threshold: %+v", want)
			}
		})
	}
}

// TestNewRealServer writes a first walk of the npm everything server over
// streamable HTTP, and of the filesystem server over stdio, and runs each
// as written: --update on a new budget file, then the gate holds (exit 0).
func TestNewRealServer(t *testing.T) {
	bin := npmServers(t)
	for _, tc := range []struct {
		name   string
		server func(t *testing.T) []string
	}{
		{"everything over streamable HTTP", func(t *testing.T) []string {
			return []string{startHTTPServer(t, filepath.Join(bin, "mcp-server-everything"))}
		}},
		{"filesystem over stdio", func(t *testing.T) []string {
			return []string{"--stdio", "--", filepath.Join(bin, "mcp-server-filesystem"), t.TempDir()}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			spec, budgets := filepath.Join(dir, "first.yaml"), filepath.Join(dir, "budgets.json")
			for _, args := range [][]string{
				append([]string{"new", "-o", spec}, tc.server(t)...),
				{"run", "--progress=false", spec, "--budgets", budgets, "--update"},
				{"run", "--progress=false", spec, "--budgets", budgets},
			} {
				var stdout, stderr bytes.Buffer
				if err := run(&stdout, &stderr, args); err != nil {
					text, _ := os.ReadFile(spec)
					t.Fatalf("walks %s: %v\n%s%s\nthe spec:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String(), text)
				}
			}
			text, err := os.ReadFile(spec)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(text, []byte("  #   mcp: { call: ")) {
				t.Errorf("no call commented out; the spec:\n%s", text)
			}
		})
	}
}
