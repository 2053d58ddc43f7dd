//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"

	"github.com/readmeter/readmeter/internal/cli"
	"github.com/readmeter/readmeter/internal/mcptest"
	"github.com/readmeter/readmeter/internal/proctest"
	"github.com/readmeter/readmeter/internal/scripttest"
	"github.com/readmeter/readmeter/toollist"
)

// badPeers starts the misbehaving HTTP servers the capture tests talk to,
// and returns their URLs by name.
func badPeers(t *testing.T) map[string]string {
	t.Helper()
	urls := map[string]string{}
	serve := func(name string, h http.HandlerFunc) {
		srv := httptest.NewServer(h)
		t.Cleanup(func() {
			srv.CloseClientConnections()
			srv.Close()
		})
		urls[name] = srv.URL + "/mcp"
	}
	// answer writes the JSON-RPC answer to the request in r.
	answer := func(w http.ResponseWriter, r *http.Request, result string) {
		body, _ := io.ReadAll(r.Body)
		id := gjson.GetBytes(body, "id")
		if !id.Exists() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`, id.Raw, result)
	}
	const initOK = `"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bad","version":"1"}}`

	serve("html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><html><body>Sign in</body></html>")
	})
	serve("500", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "upstream failed", http.StatusInternalServerError)
	})
	serve("ends", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}\n\n")
	})
	serve("notjson", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message\ndata: this is not JSON\n\n")
	})
	serve("rpcerror", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, `"error":{"code":-32603,"message":"the database is down"}`)
	})
	serve("big", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, `"result":{"protocolVersion":"2025-06-18","pad":"`+strings.Repeat("x", 2000)+`"}`)
	})
	stop := make(chan struct{})
	serve("hang", func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // so that the server notices the client leave
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	// noList answers initialize with init, and tools/list with an error:
	// the method is not found.
	noList := func(init string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if gjson.GetBytes(body, "method").String() == "tools/list" {
				answer(w, r, `"error":{"code":-32601,"message":"Method not found"}`)
				return
			}
			answer(w, r, init)
		}
	}
	// listfails opens a session, then fails tools/list: nothing may be
	// written although the initialize answer came.
	serve("listfails", noList(initOK))
	// notools declares no tools capability, and does not know tools/list.
	serve("notools", noList(`"result":{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"prompts":{}},"serverInfo":{"name":"bad","version":"1"}}`))
	// echoauth refuses, quoting the Authorization header it got.
	serve("echoauth", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, "invalid token: "+r.Header.Get("Authorization"))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	urls["nothing"] = "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	t.Cleanup(func() { close(stop) }) // runs before the servers close
	return urls
}

// npmBin is where `make npm-deps` installs the pinned MCP servers.
func npmBin(t *testing.T) string {
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

func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed as the oracle for byte counts: %v", err)
	}
	return node
}

// TestCaptureScripts runs the golden scripts of measure capture in
// testdata/capture, with the servers' addresses in the environment:
// $MCP_STREAM, $MCP_JSON, $MCP_STATELESS, $MCP_PAGED (Go SDK servers),
// $MCP_SSE (Go SDK, HTTP+SSE), $BAD_* (misbehaving peers), $NPM_BIN.
func TestCaptureScripts(t *testing.T) {
	env := map[string]string{
		"MCP_STREAM":    mcptest.Start(t, mcptest.Options{Instructions: "Use echo to test."}),
		"MCP_JSON":      mcptest.Start(t, mcptest.Options{JSONResponse: true, Instructions: "Use echo to test."}),
		"MCP_STATELESS": mcptest.Start(t, mcptest.Options{Stateless: true, Instructions: "Use echo to test."}),
		"MCP_PAGED":     mcptest.Start(t, mcptest.Options{PageSize: 3}),
		"MCP_SSE":       mcptest.StartSSE(t, mcptest.Options{}),
		"NPM_BIN":       npmBin(t),
	}
	for name, u := range badPeers(t) {
		env["BAD_"+strings.ToUpper(name)] = u
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/capture",
		UpdateScripts: *update,
		Setup: func(e *testscript.Env) error {
			for k, v := range env {
				e.Setenv(k, v)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"measure":  namedMeasure(env),
			"exitcode": exitcodeCmd,
		},
	})
}

// namedMeasure is the measure command of the capture scripts: it runs the
// measure program as measureCmd does, and writes its output with the
// servers named by their variables ($MCP_STREAM for
// http://127.0.0.1:PORT/mcp), since the ports change from run to run and
// the goldens do not.
func namedMeasure(servers map[string]string) func(*testscript.TestScript, bool, []string) {
	env := servers
	type pair struct{ value, name string }
	var pairs []pair
	for k, v := range env {
		pairs = append(pairs, pair{v, "$" + k})
	}
	// Longer values first, so that a URL is not cut by a shorter one.
	sort.Slice(pairs, func(i, j int) bool { return len(pairs[i].value) > len(pairs[j].value) })
	name := func(b []byte) []byte {
		for _, p := range pairs {
			b = bytes.ReplaceAll(b, []byte(p.value), []byte(p.name))
		}
		return b
	}
	return func(ts *testscript.TestScript, neg bool, args []string) {
		// TestMain registers the program as measure-program (the script
		// command is this function). The script's own settings of these reach the program.
		var env []string
		for _, k := range []string{"MEASURE_TOKEN", "MEMORY_FILE_PATH", "HOME", "TMPDIR"} {
			env = append(env, k+"="+ts.Getenv(k))
		}
		// measure config's files name the servers with these.
		for _, k := range append(slices.Sorted(maps.Keys(servers)), "SECRET_TOKEN", "API_TOKEN") {
			if v := ts.Getenv(k); v != "" {
				env = append(env, k+"="+v)
			}
		}
		stdout, stderr, code := scripttest.Run(ts, "measure-program", env, args...)
		ts.Stdout().Write(name(stdout))
		ts.Stderr().Write(name(stderr))
		ts.Setenv("MEASURE_EXIT", strconv.Itoa(code))
		if (code != 0) != neg {
			ts.Fatalf("measure exited %d", code)
		}
	}
}

// runCaptureIn runs measure capture in-process in dir and returns its exit
// code and output.
func runCaptureIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	full := append([]string{"capture", "-o", filepath.Join(dir, "tools.json")}, args...)
	err := run(&out, &errb, full)
	cli.Report(&errb, "measure", err)
	return cli.Code(err), out.String(), errb.String()
}

// TestCaptureBadPeers: each bad peer gives exit 2, one line naming the
// address or command, and leaves nothing in the output directory and no
// process running.
func TestCaptureBadPeers(t *testing.T) {
	urls := badPeers(t)
	const token = "tok-3f9a-very-secret"
	// The silent server writes its pid here, not to stderr: how soon it
	// does is up to the scheduler, and the error line must not depend on it.
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("MEASURE_TOKEN", token) // a --stdio command must not get it
	for _, tc := range []struct {
		name string
		args []string
		want string // in the line
	}{
		{"nothing", []string{urls["nothing"]}, urls["nothing"] + ": initialize: connection refused"},
		{"sse-nothing", []string{"--sse", urls["nothing"]}, urls["nothing"] + ": connection refused"},
		{"html", []string{urls["html"]}, urls["html"] + ": initialize: answered text/html, a web page, not JSON or an event stream (is the URL the MCP endpoint, often .../mcp?)"},
		{"500", []string{urls["500"]}, urls["500"] + ": initialize: HTTP 500 Internal Server Error: \"upstream failed\""},
		{"ends", []string{urls["ends"]}, urls["ends"] + ": initialize: the event stream ended before the answer (1 event read)"},
		{"notjson", []string{urls["notjson"]}, urls["notjson"] + ": initialize: event 1: data is not JSON: \"this is not JSON\""},
		{"rpcerror", []string{urls["rpcerror"]}, urls["rpcerror"] + ": initialize: JSON-RPC error -32603: the database is down"},
		{"big", []string{"--max-body", "1000", urls["big"]}, urls["big"] + ": initialize: answer larger than the limit of 1000 bytes"},
		{"hang", []string{"--timeout", "300ms", urls["hang"]}, urls["hang"] + ": initialize: no answer within 300ms (--timeout gives more time)"},
		{"listfails", []string{urls["listfails"]}, urls["listfails"] + ": tools/list: JSON-RPC error -32601: Method not found"},
		{"token", []string{"--token", token, urls["echoauth"]}, urls["echoauth"] + `: initialize: HTTP 401 Unauthorized: "invalid token: Bearer [redacted]" (the token given was refused: check --token or MEASURE_TOKEN)`},
		{"stdio-exits", []string{"--stdio", "--", "sh", "-c", "echo no config >&2; exit 3"}, `sh -c 'echo no config >&2; exit 3': initialize: the server exited (exit status 3) before answering; stderr: "no config"`},
		{"stdio-garbage", []string{"--stdio", "--", "sh", "-c", "echo hello there; sleep 30"}, `sh -c 'echo hello there; sleep 30': initialize: wrote a line that is not JSON: "hello there"`},
		{"stdio-silent", []string{"--timeout", "300ms", "--start-timeout", "300ms", "--stdio", "--", "sh", "-c", `echo $$ >"$0"; exec sleep 30`, pidFile}, `sh -c 'echo $$ >"$0"; exec sleep 30' ` + pidFile + `: initialize: no answer within 300ms of the server's start (--start-timeout gives the server more time to start)`},
		{"stdio-env", []string{"--stdio", "--", "sh", "-c", `echo "token=$MEASURE_TOKEN." >&2; exit 1`}, `stderr: "token=."`},
		{"stdio-missing", []string{"--stdio", "--", "no-such-mcp-server-here"}, `no-such-mcp-server-here: cannot start: executable file not found in $PATH`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := runCaptureIn(t, dir, tc.args...)
			if code != cli.ExitWalk {
				t.Errorf("exit %d, want 3 (a server failed)", code)
			}
			if stdout != "" {
				t.Errorf("stdout: %q", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "measure: ") || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr = %q\nwant one line holding %q", stderr, tc.want)
			}
			if strings.Contains(stderr, token) {
				t.Errorf("the token shows: %s", stderr)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("left in the directory: %v", ents)
			}
			// The pid the silent stdio server wrote must be gone.
			if tc.name == "stdio-silent" {
				b, err := os.ReadFile(pidFile)
				if err != nil || len(bytes.TrimSpace(b)) == 0 {
					t.Skipf("the server did not get to write its pid (%v)", err)
				}
				pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
				if err != nil {
					t.Fatalf("pid file: %v", err)
				}
				if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
					t.Errorf("process %d still running: %v", pid, err)
				}
			}
		})
	}
}

// nodeModelRead is the oracle: Node reads the capture file and sums the
// UTF-8 bytes of JSON.stringify({name, description, input_schema}).
const nodeModelRead = `
const fs = require('fs');
const text = fs.readFileSync(process.argv[1], 'utf8');
let msg;
if (/^(:|event:|data:|id:|retry:)/.test(text)) {
  for (const ev of text.split(/\r?\n\r?\n/)) {
    const data = ev.split(/\r?\n/).filter(l => l.startsWith('data:')).map(l => l.slice(5).replace(/^ /, '')).join('\n');
    if (!data) continue;
    const m = JSON.parse(data);
    if (m.result && m.result.tools) { msg = m; break; }
  }
} else {
  msg = JSON.parse(text);
}
const tools = (msg.result || msg).tools;
let n = 0;
for (const t of tools) n += Buffer.byteLength(JSON.stringify({name: t.name, description: t.description, input_schema: t.inputSchema}));
console.log(tools.length + ' ' + n);
`

// checkAgainstNode measures the capture at path with toollist and with
// Node, and compares.
func checkAgainstNode(t *testing.T, path string, minTools int) {
	t.Helper()
	node := needNode(t)
	c, err := toollist.Open(path, toollist.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := c.Figures
	out, err := exec.Command(node, "-e", nodeModelRead, path).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	got := fmt.Sprintf("%d %d", f.Tools, f.ModelReadBytes)
	if want := strings.TrimSpace(string(out)); got != want {
		t.Errorf("%s: Go says %s (tools, model-read bytes), Node says %s", path, got, want)
	}
	if f.Tools < minTools {
		t.Errorf("%s: %d tools, want at least %d", path, f.Tools, minTools)
	}
	if _, err := toollist.ReadInit(toollist.InitPath(path)); err != nil {
		t.Errorf("init answer: %v", err)
	}
}

// noProcessMentions fails the test if a process still running has s in
// its command line or environment: capture must stop what it started.
func noProcessMentions(t *testing.T, s string) {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		for _, f := range []string{"cmdline", "environ"} {
			b, err := os.ReadFile(filepath.Join(p, f))
			if err == nil && bytes.Contains(b, []byte(s)) {
				t.Errorf("process %s still running: %s", filepath.Base(p), bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
			}
		}
	}
}

// startNode runs an npm server's HTTP mode on a free port, stopped (with
// its process group) when the test ends; it returns the port once the
// server accepts connections.
func startNode(t *testing.T, bin string, mode string) string {
	return proctest.StartHTTP(t, bin, mode)
}

// TestCaptureRealServers captures the pinned npm servers over every
// transport they speak, and our Go SDK servers, and checks each capture's
// model-read bytes against Node reading the same file.
func TestCaptureRealServers(t *testing.T) {
	bin := npmBin(t)
	needNode(t)
	everything := filepath.Join(bin, "mcp-server-everything")
	type server struct {
		name     string
		args     func(t *testing.T) []string
		minTools int
	}
	servers := []server{
		{"everything-stdio", func(t *testing.T) []string {
			return []string{"--stdio", "--", everything, "stdio"}
		}, 5},
		{"everything-streamable", func(t *testing.T) []string {
			return []string{"http://127.0.0.1:" + startNode(t, everything, "streamableHttp") + "/mcp"}
		}, 5},
		{"everything-streamable-2025-11-25", func(t *testing.T) []string {
			return []string{"--protocol", "2025-11-25", "http://127.0.0.1:" + startNode(t, everything, "streamableHttp") + "/mcp"}
		}, 5},
		{"everything-sse", func(t *testing.T) []string {
			return []string{"--sse", "http://127.0.0.1:" + startNode(t, everything, "sse") + "/sse"}
		}, 5},
		{"filesystem-stdio", func(t *testing.T) []string {
			dir := t.TempDir()
			t.Cleanup(func() { noProcessMentions(t, dir) })
			return []string{"--stdio", "--", filepath.Join(bin, "mcp-server-filesystem"), dir}
		}, 5},
		{"memory-stdio", func(t *testing.T) []string {
			dir := t.TempDir()
			t.Cleanup(func() { noProcessMentions(t, dir) })
			return []string{"--stdio", "--", "env", "MEMORY_FILE_PATH=" + filepath.Join(dir, "memory.jsonl"), filepath.Join(bin, "mcp-server-memory")}
		}, 5},
		{"gosdk-stream", func(t *testing.T) []string { return []string{mcptest.Start(t, mcptest.Options{})} }, len(mcptest.Tools)},
		{"gosdk-json", func(t *testing.T) []string {
			return []string{mcptest.Start(t, mcptest.Options{JSONResponse: true})}
		}, len(mcptest.Tools)},
		{"gosdk-stateless", func(t *testing.T) []string {
			return []string{mcptest.Start(t, mcptest.Options{Stateless: true})}
		}, len(mcptest.Tools)},
		{"gosdk-discover", func(t *testing.T) []string {
			return []string{"--protocol", "2026-07-28", mcptest.Start(t, mcptest.Options{Stateless: true})}
		}, len(mcptest.Tools)},
		{"gosdk-paged", func(t *testing.T) []string {
			return []string{mcptest.Start(t, mcptest.Options{PageSize: 1})}
		}, len(mcptest.Tools)},
		{"gosdk-sse", func(t *testing.T) []string { return []string{"--sse", mcptest.StartSSE(t, mcptest.Options{})} }, len(mcptest.Tools)},
	}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			code, stdout, stderr := runCaptureIn(t, dir, s.args(t)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "model-read bytes") {
				t.Errorf("stdout: %q", stdout)
			}
			path := filepath.Join(dir, "tools.json")
			checkAgainstNode(t, path, s.minTools)
			// `measure FILE` reads what capture wrote.
			var out, errb bytes.Buffer
			if err := run(&out, &errb, []string{"--json", path}); err != nil {
				t.Fatalf("measure %s: %v\n%s", path, err, errb.String())
			}
			if !json.Valid(out.Bytes()) {
				t.Errorf("measure --json: %s", out.String())
			}
		})
	}
}
